"""What a worker of ``momiji serve --workers N`` is told by its parent, and
the small pieces both sides use: which worker a log line comes from, the
port the parent holds for them, and when the parent gives up on workers
that keep dying.

No Textual, no asyncssh: the parent imports this before it forks.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

WORKER_EXIT_ENV = "MOMIJI_TEST_WORKER_EXIT"
"""Test hook: a worker started while this is set to a number exits at once
with that status, before serving (how the tests make a worker keep dying)."""

LOG_FORMAT = "%(asctime)s %(levelname)s [%(worker)s pid %(process)d] %(name)s: %(message)s"
"""The log format with workers: every line says which process wrote it
(``[worker 2 pid 4242]`` or ``[parent pid 4200]``) before the logger's name,
so ``momiji: auth failed from …`` still reads the same for fail2ban."""


@dataclass(frozen=True)
class WorkerRole:
    """One worker's place among ``count``.

    Attributes:
        number: 1 to ``count``; a replacement keeps the number of the worker
            it replaces.
        count: how many workers serve the port.
        ready: called with the port once the worker listens (tells the parent).
    """

    number: int
    count: int
    ready: Callable[[int], None]

    @property
    def sweeps_guests(self) -> bool:
        """Only worker 1 sweeps old guest data (one sweep, not N racing)."""
        return self.number == 1

    def bot_workers(self, cores: int) -> int:
        """The bot pool of one worker when ``--bot-workers`` is not given:
        the cores shared among the workers, at least one each."""
        return max(1, cores // self.count)


class _WorkerTag(logging.Filter):
    """Adds ``record.worker`` (``"worker 2"``, ``"parent"``) for :data:`LOG_FORMAT`."""

    label = "parent"

    def filter(self, record: logging.LogRecord) -> bool:
        record.worker = self.label
        return True


_TAG = _WorkerTag()


def tag_log_lines(label: str) -> None:
    """Say ``label`` on every log line of this process from now on (the
    root logger's handlers get the tag; call after ``logging.basicConfig``)."""
    _TAG.label = label
    for handler in logging.getLogger().handlers:
        if _TAG not in handler.filters:
            handler.addFilter(_TAG)


def reserve_port(host: str, port: int) -> socket.socket:
    """Bind a ``SO_REUSEPORT`` socket on ``host``:``port`` (not listening),
    so the workers can all listen on that very port: with port 0 the kernel
    picks it here, once, for all of them (``sock.getsockname()[1]``).

    A fixed port is first bound without ``SO_REUSEPORT``: if another server
    (even another ``momiji serve --workers``) already listens there, that
    fails, instead of the two silently sharing the port's connections.

    Raises:
        OSError: the address cannot be bound (in use, not local, no
            ``SO_REUSEPORT`` on this system).
    """
    if not hasattr(socket, "SO_REUSEPORT"):
        raise OSError("SO_REUSEPORT is not available on this system")
    family, kind, proto, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    if port:
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind(address)
    except BaseException:
        sock.close()
        raise
    return sock


class RestartPolicy:
    """When to start a new worker after one died, and when to give up.

    A worker that dies is replaced after a delay that doubles with every
    death in the last ``window`` seconds (``first_delay``, 2×, 4×, … at most
    ``max_delay``); the ``max_deaths + 1``-th death within the window means
    something is wrong that a restart will not fix (a broken data dir, a
    bad install), and the parent stops.
    """

    def __init__(self, *, max_deaths: int = 5, window: float = 60.0, first_delay: float = 0.1,
                 max_delay: float = 5.0) -> None:
        self.max_deaths, self.window = max_deaths, window
        self.first_delay, self.max_delay = first_delay, max_delay
        self._deaths: deque[float] = deque()

    def died(self, now: float) -> float | None:
        """Record a death at ``now`` (monotonic seconds); the seconds to wait
        before starting its replacement, or None: give up."""
        self._deaths.append(now)
        while self._deaths and self._deaths[0] <= now - self.window:
            self._deaths.popleft()
        recent = len(self._deaths)
        if recent > self.max_deaths:
            return None
        return min(self.max_delay, self.first_delay * 2 ** (recent - 1))

    @property
    def recent(self) -> int:
        """Deaths recorded within the window (as of the last :meth:`died`)."""
        return len(self._deaths)


def exit_text(status: int) -> str:
    """A worker's end as ``os.waitpid`` reports it, in words:
    ``"exit status 3"``, ``"killed by SIGKILL"``."""
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        try:
            return f"killed by {signal.Signals(number).name}"
        except ValueError:
            return f"killed by signal {number}"
    return f"exit status {os.waitstatus_to_exitcode(status)}"
