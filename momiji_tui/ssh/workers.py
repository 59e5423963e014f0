"""``momiji serve --workers N``: N server processes on one port, and a parent
that keeps them running.

The parent does what must happen once — the data dir, the host key, the
port (held with ``SO_REUSEPORT`` so every worker listens on the same one,
also for port 0), the signal handlers — then forks the workers before any
event loop exists (a fork copies only the thread that forks; an event loop,
its selector and threads would be copied half-alive). Each worker runs the
whole server, its own lobby and bot pool included, and the kernel spreads
the connections among the listeners.

With the file store the workers share only the data dir: solo games and
resuming work from any worker (the save files are the truth; a game open in
one worker is locked against the others), but players meet at a shared table
only within one worker.

The parent waits. A worker that ends other than by a requested stop is
replaced (:class:`~momiji_tui.ssh.worker_role.RestartPolicy`: a growing
delay, and too many deaths in a minute stop everything with exit status 1).
SIGTERM or SIGINT sends every worker SIGTERM (each then warns its players,
saves and ends every session, as one ``momiji serve`` does), waits, kills a
worker that did not stop in time, and exits 0.
"""

from __future__ import annotations

import argparse
import gc
import logging
import os
import selectors
import signal
import socket
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from momiji_tui.ssh import game_server, housekeeping
from momiji_tui.ssh.hostkey import HOST_KEY_FILENAME, HostKeyError, load_or_create_host_key
from momiji_tui.ssh.parent_death import signal_on_parent_death
from momiji_tui.ssh.worker_role import (
    WORKER_EXIT_ENV,
    RestartPolicy,
    WorkerRole,
    exit_text,
    reserve_port,
    tag_log_lines,
)

log = logging.getLogger("momiji_tui.ssh")

STOP_GRACE = 20.0
"""Seconds a worker gets after its countdown to end its sessions and exit
(its apps get 10) before the parent kills it."""
GAVE_UP_STATUS = 1
"""The parent's exit status when workers keep dying."""
_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGCHLD)

ServeWorker = Callable[[argparse.Namespace, WorkerRole], int]
"""Runs one worker's server until it is told to stop; its exit status."""


@dataclass
class _Worker:
    number: int
    pid: int
    ready: bool = False


@dataclass
class _Parent:
    args: argparse.Namespace
    serve_worker: ServeWorker
    reservation: socket.socket | None
    policy: RestartPolicy = field(default_factory=RestartPolicy)
    workers: dict[int, _Worker] = field(default_factory=dict)  # by pid
    due: dict[int, float] = field(default_factory=dict)  # worker number -> restart time
    stopping: bool = False
    stop_deadline: float = 0.0
    status: int = 0
    running: bool = False  # the workers asked for were all forked once
    _buffer: bytes = b""

    def __post_init__(self) -> None:
        self.signal_read, self.signal_write = os.pipe()
        self.ready_read, self.ready_write = os.pipe()
        for fd in (self.signal_read, self.signal_write, self.ready_read):
            os.set_blocking(fd, False)

    # -- starting workers ------------------------------------------------------
    def start(self, number: int) -> None:
        """Fork worker ``number``; the child never returns from here."""
        parent = os.getpid()
        pid = os.fork()
        if pid == 0:
            signal_on_parent_death(parent)  # SIGTERM (blocked until its loop runs): a worker stops cleanly
            self._become_worker(number)
        self.workers[pid] = _Worker(number, pid)
        log.info("worker %d started (pid %d)", number, pid)

    def _become_worker(self, number: int) -> None:
        status = 1
        try:
            os.setpgid(0, 0)  # its own process group: its bot pool dies with it (see _ended)
            signal.set_wakeup_fd(-1)
            for sig in _SIGNALS:
                signal.signal(sig, signal.SIG_DFL)  # still blocked: the worker's loop unblocks them
            for fd in (self.signal_read, self.signal_write, self.ready_read):
                os.close(fd)
            if self.reservation is not None:
                self.reservation.close()
            tag_log_lines(f"worker {number}")
            hook = os.environ.get(WORKER_EXIT_ENV)
            if hook is not None:
                log.error("%s=%s: exiting at start (test hook)", WORKER_EXIT_ENV, hook)
                status = int(hook)
            else:
                role = WorkerRole(number, self.args.workers, self._tell_ready)
                status = self.serve_worker(self.args, role)
        except BaseException:
            log.exception("worker %d failed", number)
            status = 1
        finally:
            logging.shutdown()
            sys.stderr.flush()
            os._exit(status)

    def _tell_ready(self, port: int) -> None:
        os.write(self.ready_write, f"{os.getpid()} {port}\n".encode())

    # -- the parent's loop ------------------------------------------------------
    def run(self) -> int:
        selector = selectors.DefaultSelector()
        selector.register(self.signal_read, selectors.EVENT_READ)
        selector.register(self.ready_read, selectors.EVENT_READ)
        while self.workers or (self.due and not self.stopping):
            for key, _ in selector.select(self._timeout()):
                if key.fd == self.signal_read:
                    self._on_signals(os.read(self.signal_read, 64))
                else:
                    self._on_ready(os.read(self.ready_read, 4096))
            self._reap()
            self._restart_due()
            self._kill_late()
        selector.close()
        return self.status

    def _timeout(self) -> float | None:
        times = [*self.due.values()] if not self.stopping else []
        if self.stopping:
            times.append(self.stop_deadline)
        return max(0.0, min(times) - time.monotonic()) if times else None

    def _on_signals(self, numbers: bytes) -> None:
        for number in numbers:
            if number in (signal.SIGTERM, signal.SIGINT) and not self.stopping:
                log.info("received %s: stopping every worker", signal.Signals(number).name)
                self.stop()

    def stop(self) -> None:
        """Ask every worker to stop (SIGTERM: its countdown, then saves and exits)."""
        self.stopping = True
        self.due.clear()
        self.stop_deadline = time.monotonic() + self.args.stop_countdown + STOP_GRACE
        for pid in self.workers:
            _signal(pid, signal.SIGTERM)

    def _on_ready(self, data: bytes) -> None:
        self._buffer += data
        *lines, self._buffer = self._buffer.split(b"\n")
        for line in lines:
            pid, port = (int(word) for word in line.split())
            worker = self.workers.get(pid)
            if worker is None:
                continue
            worker.ready = True
            log.info("worker %d (pid %d) listening on port %d", worker.number, pid, port)
        if self.reservation is not None and all(w.ready for w in self.workers.values()) \
                and len(self.workers) == self.args.workers:
            self.reservation.close()  # every worker listens: the port is theirs
            self.reservation = None
            log.info("momiji serve: %d workers listening on %s port %d", self.args.workers,
                     self.args.host, self.args.port)

    def _reap(self) -> None:
        while self.workers:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            worker = self.workers.pop(pid, None)
            if worker is not None:
                self._ended(worker, status)

    def _ended(self, worker: _Worker, status: int) -> None:
        # What the worker started (its bot pool's processes) would live on as
        # orphans, waiting forever for work: they are in its process group.
        _signal_group(worker.pid, signal.SIGKILL)
        how = exit_text(status)
        if self.stopping:
            log.info("worker %d (pid %d) stopped: %s", worker.number, worker.pid, how)
            return
        delay = self.policy.died(time.monotonic())
        if delay is None:
            log.error("workers keep dying: %d exits within %.0f s (the last: worker %d, pid %d, "
                      "%s); giving up, stopping the others", self.policy.recent,
                      self.policy.window, worker.number, worker.pid, how)
            self.status = GAVE_UP_STATUS
            self.stop()
            return
        log.error("worker %d (pid %d) died: %s; a new worker %d starts in %.1f s", worker.number,
                  worker.pid, how, worker.number, delay)
        self.due[worker.number] = time.monotonic() + delay

    def _restart_due(self) -> None:
        now = time.monotonic()
        for number, when in sorted(self.due.items()):
            if when <= now and not self.stopping:
                del self.due[number]
                self._fork_blocked(number)

    def _fork_blocked(self, number: int) -> bool:
        # Signals stay blocked across the fork: the child must not run the
        # parent's handlers (they would write to the parent's wake-up pipe).
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS)
        try:
            self.start(number)
        except OSError as exc:  # the system refuses the fork (EAGAIN, ENOMEM)
            self._fork_refused(number, exc)
            return False
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)
        return True

    def _fork_refused(self, number: int, exc: OSError) -> None:
        """At start the server cannot run as asked: stop the workers started
        (status 1). Later, a refused restart counts as a death (``policy``)."""
        delay = self.policy.died(time.monotonic()) if self.running else None
        if delay is None:
            log.error("cannot start worker %d: %s; stopping the others", number, exc)
            self.status = GAVE_UP_STATUS
            self.stop()
            return
        log.error("cannot start worker %d: %s; trying again in %.1f s", number, exc, delay)
        self.due[number] = time.monotonic() + delay

    def _kill_late(self) -> None:
        if not self.stopping or time.monotonic() < self.stop_deadline:
            return
        for pid, worker in self.workers.items():
            log.error("worker %d (pid %d) did not stop in time; killed", worker.number, pid)
            _signal(pid, signal.SIGKILL)
        self.stop_deadline = time.monotonic() + STOP_GRACE  # reaped as they go


def _signal(pid: int, sig: signal.Signals) -> None:
    try:
        os.kill(pid, sig)
    except ProcessLookupError:  # already gone: reaped next
        pass


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):  # nothing left in that group
        pass


def _ignore(signum: int, frame: object) -> None:
    """The parent's Python-level handler: the wake-up pipe carries the signal."""


def serve_workers(args: argparse.Namespace, root: Path, serve_worker: ServeWorker, *,
                  file_store: bool = True) -> int:
    """The parent of ``momiji serve --workers N`` (``args.workers`` ≥ 2).

    Checks the data dir ``root`` (with the file store's folders when
    ``file_store``; not for ``--database``) and the host key, holds the port, forks
    ``args.workers`` workers that each run ``serve_worker(args, role)``,
    replaces the ones that die, and stops them all on SIGTERM or SIGINT.

    Returns:
        int: 0 after a requested stop; 1 if the data dir, the host key or the
        port is unusable (logged; nothing forked), the system refused to fork
        a worker at start (the others stopped), or workers kept dying.
    """
    tag_log_lines("parent")
    try:
        housekeeping.make_private(root, file_store=file_store)
    except OSError as exc:
        log.error("cannot use the data dir %s: %s", root, exc)
        return 1
    try:
        key = load_or_create_host_key(Path(args.host_key or root / HOST_KEY_FILENAME))
    except HostKeyError as exc:
        log.error("%s", exc)
        return 1
    try:
        reservation = reserve_port(args.host, args.port)
    except OSError as exc:
        log.error("cannot start the server on %s:%s: %s", args.host, args.port, exc)
        return 1
    args.port = reservation.getsockname()[1]
    log.info("host key fingerprint: %s (publish it so players can check it)",
             key.get_fingerprint("sha256"))
    parent = _Parent(args, serve_worker, reservation)
    signal.set_wakeup_fd(parent.signal_write)
    for sig in _SIGNALS:
        signal.signal(sig, _ignore)
    log.debug("loaded before the fork, shared by the workers: %s", game_server.__name__)
    gc.collect()
    gc.freeze()  # what the parent loaded is shared with every worker: keep it out of their walks
    for number in range(1, args.workers + 1):
        if not parent._fork_blocked(number):
            break  # refused: the others are stopping
    parent.running = True
    try:
        status = parent.run()
    finally:
        signal.set_wakeup_fd(-1)
        if parent.reservation is not None:
            parent.reservation.close()
    log.info("stopped" if status == 0 else "stopped: workers kept dying")
    return status
