"""Bots that think in worker processes, for a server where every session
shares one process.

A front end asks a bot for a move from a Textual thread worker
(``Table.bot_command``). In a server those threads share the interpreter
lock with the event loop every session runs on, so a bot that thinks hard
(``hard``: ISMCTS, about 0.1-0.3 s a move) slows every player's screen. Here
``make_bot`` returns a stand-in whose ``choose(view)`` sends the view (plain
picklable data) to a process pool and waits; the thread sleeps meanwhile,
and the loop keeps the interpreter. The same level and seed give the same
move as a bot in the thread would.

The hint key's advice (``bots.advice.advise``) goes the same way
(:meth:`BotPool.advise`): the session's thread waits for a worker, polling
its cancel flag, so Esc stops the waiting at once (the worker finishes that
search and is free again).

This module imports neither Textual nor the rest of the server, so the
worker processes start light.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
from concurrent.futures import CancelledError, ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from collections.abc import Callable, Sequence
from typing import Any

from momiji_tui.bots.advice import HINT_ITERATIONS, Advice, advise as advise_here
from momiji_tui.engine import Command, PlayerView
from momiji_tui.ssh.parent_death import watch_parent

log = logging.getLogger("momiji_tui.ssh")

MOVE_TIMEOUT = 120.0
"""Seconds a worker may take for one move before the bot thinks in its own
thread instead (a Hard bot takes well under a second)."""


def _choose(level: str, seed: int, budget: dict[str, Any], view: Any) -> Any:
    """In a worker: build the bot and ask it for a command."""
    from momiji_tui.bots import make_bot

    return make_bot(level, seed=seed, **budget).choose(view)


BOT_NICENESS = 10
"""How much lower the workers' CPU priority is than the server's (``nice``):
a player's screen comes before a bot's thinking, and before a hint's
(:meth:`BotPool.advise` runs here too). On a busy host they think with the
CPU the sessions leave (a Hard bot's search is a number of iterations, not
a time: slower, not weaker), and a session's render no longer waits behind
them (with four Hard-bot tables on 2 cores, renders of 20 ms of
CPU took 59 ms on the clock). A move still waiting after ``MOVE_TIMEOUT``
(counted from when it was asked, queue included) is thought in the
server's thread instead, at the server's priority."""


def _start_worker(niceness: int, server: int) -> None:
    """In a worker, as it starts: lower its CPU priority by ``niceness``, and
    end it when the server (pid ``server``) is gone, whatever killed it
    (:func:`~momiji_tui.ssh.parent_death.watch_parent`)."""
    with contextlib.suppress(OSError, AttributeError):  # no nice() on some systems: run as is
        os.nice(niceness)
    watch_parent(server)


ADVICE_POLL = 0.05
"""Seconds between two looks at a hint's cancel flag while a worker thinks."""


def _advise(view: PlayerView, seed: int, iterations: int, include: tuple[Command, ...]) -> Advice:
    """In a worker: Hard's advice for the view (``bots.advice.advise``)."""
    return advise_here(view, seed=seed, iterations=iterations, include=include)


def _warm_up() -> int:
    from momiji_tui import bots  # noqa: F401  (import once, before the first move)

    return os.getpid()


class BotPoolClosed(RuntimeError):
    """The server is stopping: a move asked of a closed pool is not thought."""


class _RemoteBot:
    def __init__(self, pool: BotPool, level: str, seed: int, budget: dict[str, Any]) -> None:
        self._pool = pool
        self.level = level
        self.seed = seed
        self.budget = budget

    def choose(self, view: Any) -> Any:
        """Runs in a Textual thread worker: blocks that thread, not the loop.
        If the workers died or hang, the move is thought here instead (the
        game goes on) and a dead pool is replaced for the next move."""
        try:
            future = self._pool.executor().submit(_choose, self.level, self.seed, self.budget, view)
            return future.result(timeout=self._pool.move_timeout)
        except (BrokenProcessPool, CancelledError) as exc:
            if self._pool.closed:
                raise BotPoolClosed("the bot pool is closed: the server is stopping") from exc
            log.error("bot workers died (%s); starting new ones", exc)
            self._pool.reset()
        except FutureTimeout:
            log.error("a bot worker took more than %.0f s for one move", self._pool.move_timeout)
        return _choose(self.level, self.seed, self.budget, view)


class BotPool:
    """A lazily started pool of ``workers`` processes (spawned, not forked:
    the server has threads and an event loop that a fork would copy)."""

    def __init__(self, workers: int, move_timeout: float = MOVE_TIMEOUT,
                 niceness: int = BOT_NICENESS) -> None:
        if workers < 1:
            raise ValueError("a bot pool needs at least one worker")
        self.workers = workers
        self.move_timeout = move_timeout
        self.niceness = niceness
        self._executor: ProcessPoolExecutor | None = None
        self._closed = False

    @property
    def closed(self) -> bool:
        """True once :meth:`close` was called."""
        return self._closed

    def executor(self) -> ProcessPoolExecutor:
        """The pool, started on first use.

        Raises:
            BotPoolClosed: after :meth:`close`.
        """
        if self._closed:
            raise BotPoolClosed("the bot pool is closed")
        if self._executor is None:
            self._executor = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                                 initializer=_start_worker, initargs=(self.niceness, os.getpid()))
        return self._executor

    def start(self) -> list[int]:
        """Start every worker now (instead of at the first bot move); their pids."""
        executor = self.executor()
        return sorted({f.result() for f in [executor.submit(_warm_up) for _ in range(self.workers)]})

    def make_bot(self, level: str, seed: int = 0, **budget: Any) -> _RemoteBot:
        """Drop-in for ``momiji_tui.bots.make_bot``."""
        return _RemoteBot(self, level, seed, budget)

    def advise(self, view: PlayerView, *, seed: int, iterations: int = HINT_ITERATIONS,
               include: Sequence[Command] = (), should_stop: Callable[[], bool] | None = None) -> Advice:
        """Drop-in for ``bots.advice.advise``, thought in a worker process.
        Runs in a Textual thread worker (it blocks that thread, never the
        loop). When ``should_stop()`` turns True the wait ends at once with
        an empty ``Advice``. If the workers died or hang, the advice is
        thought in this thread instead. Raises :class:`BotPoolClosed` when
        the server is stopping."""
        waited = 0.0
        try:
            future = self.executor().submit(_advise, view, seed, iterations, tuple(include))
            while True:
                try:
                    return future.result(timeout=ADVICE_POLL)
                except FutureTimeout:
                    if should_stop is not None and should_stop():
                        future.cancel()
                        return Advice(())
                    waited += ADVICE_POLL
                    if waited >= self.move_timeout:
                        log.error("a bot worker took more than %.0f s for one hint", self.move_timeout)
                        break
        except (BrokenProcessPool, CancelledError) as exc:
            if self._closed:
                raise BotPoolClosed("the bot pool is closed: the server is stopping") from exc
            log.error("bot workers died (%s); starting new ones", exc)
            self.reset()
        return advise_here(view, seed=seed, iterations=iterations, include=include, should_stop=should_stop)

    def reset(self) -> None:
        """Drop the current workers; the next move starts new ones."""
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the workers now: moves being thought about are abandoned and
        the threads waiting for them get :class:`BotPoolClosed` at once, so
        nothing keeps the server process alive after it stopped."""
        self._closed = True
        executor, self._executor = self._executor, None
        if executor is None:
            return
        workers = list((getattr(executor, "_processes", None) or {}).values())
        executor.shutdown(wait=False, cancel_futures=True)
        for process in workers:
            with contextlib.suppress(Exception):
                process.terminate()


def default_workers() -> int:
    """One worker per CPU the process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)
