"""Following games live: LISTEN wakes, a read from the last position delivers.

A NOTIFY (``'<game_id>:<position>'``, sent in the append's transaction) is
only a wake-up: on each one, and after every (re)connection, the listener
reads each followed game from the last position it delivered. So a dropped
connection misses nothing (the read after the reconnect finds what was saved
meanwhile) and nothing is delivered twice (a wake-up for a position already
delivered reads nothing). Used by the shared lobby and the shared tables
of several ``momiji serve`` processes on one database.

Two connections, both autocommit: one only LISTENs and waits in
``notifies()`` (psycopg holds that connection while it waits), one reads.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import psycopg

from ..errors import DatabaseUnavailable
from ..log import STORE_KEYS, Event
from .connect import open_connection
from .games import CHANNEL, GameStore

ReconnectWait = Callable[[int], Awaitable[None]]


@dataclass(frozen=True)
class Delivered:
    """One event of a followed game, in order: ``event`` without the store's
    own keys (move mark, ``saved_at``). A damaged row comes as ``event``
    None and ``problem`` in words; that game is then no longer followed."""

    game_id: str
    position: int
    event: Event | None
    problem: str | None = None


async def backoff(attempt: int) -> None:
    """Wait before reconnection ``attempt`` (1, 2…): 0.2 s doubling to 5 s
    (after a database restart the tables follow again within 5 s; a try
    costs one refused connection)."""
    await asyncio.sleep(min(5.0, 0.2 * 2 ** min(attempt - 1, 8)))


class Listener:
    """Delivers every event appended to the games it follows, each once and in
    order per game, across dropped connections.

    ``watch(game_id, after)`` follows a game from a position; :meth:`run`
    (a task until cancelled) keeps the connection; :meth:`get` gives the next
    :class:`Delivered`. ``reconnect_wait(attempt)`` is awaited after a lost
    connection (default :func:`backoff`; tests hold it to append meanwhile).
    ``ready`` is set while listening (after LISTEN and the catch-up read),
    ``dropped`` each time the connection is lost; ``backend_pid`` is the
    listening connection's server process. ``wake(payload)`` (optional) is
    called for every wake-up that names no followed game (the shared lobby's
    ``'lobby'``) and after every (re)connection with ``''``: its owner then
    reads what it follows again."""

    def __init__(self, url: str, *, reconnect_wait: ReconnectWait = backoff,
                 wake: Callable[[str], None] | None = None) -> None:
        self.url = url
        self.wake = wake
        self.reconnect_wait = reconnect_wait
        self.ready = asyncio.Event()
        self.dropped = asyncio.Event()
        self.connects = 0
        self.backend_pid: int | None = None
        self._last: dict[str, int] = {}
        self._queue: asyncio.Queue[Delivered] = asyncio.Queue()
        self._reader: GameStore | None = None
        self._read_lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()
        self._attempt = 0  # reconnections tried since the last success

    def watch(self, game_id: str, after: int = 0) -> None:
        """Follow ``game_id``: deliver its events after position ``after``
        (those already saved at once, when connected)."""
        self._last[game_id] = after
        if self.ready.is_set():
            task = asyncio.get_running_loop().create_task(self._catch_up_quietly(game_id))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def unwatch(self, game_id: str) -> None:
        """Stop following ``game_id``."""
        self._last.pop(game_id, None)

    def last_position(self, game_id: str) -> int | None:
        """The last position delivered of ``game_id`` (None: not followed)."""
        return self._last.get(game_id)

    async def get(self) -> Delivered:
        """The next event delivered (waits for one)."""
        return await self._queue.get()

    def get_ready(self) -> list[Delivered]:
        """Every event delivered and not taken yet, without waiting."""
        ready = []
        while not self._queue.empty():
            ready.append(self._queue.get_nowait())
        return ready

    async def run(self) -> None:
        """Listen until cancelled, reconnecting (after ``reconnect_wait``)
        whenever the connection is lost or cannot be made."""
        while True:
            try:
                await self._listen()
            except (psycopg.Error, DatabaseUnavailable, OSError):
                pass  # lost or refused: wait, reconnect, catch up
            self._attempt += 1
            self.dropped.set()
            await self.reconnect_wait(self._attempt)

    async def _listen(self) -> None:
        listen = reader = None
        try:
            listen = await open_connection(self.url, autocommit=True)
            reader = await open_connection(self.url, autocommit=True)
            await listen.execute(f"LISTEN {CHANNEL}")
            self._reader = GameStore(reader)
            self.connects += 1
            self.backend_pid = listen.info.backend_pid
            for game_id in list(self._last):
                await self._catch_up(game_id)
            self.ready.set()
            self._attempt = 0
            if self.wake is not None:
                self.wake("")
            async for note in listen.notifies():
                game_id, _, position = note.payload.partition(":")
                last = self._last.get(game_id)
                if last is None and self.wake is not None:
                    self.wake(note.payload)
                if last is not None and (not position.isdigit() or int(position) > last):
                    await self._catch_up(game_id)
        finally:
            self.ready.clear()
            # A watch's catch-up may be reading on ``reader`` in its own task:
            # close the connections only once that read is over (under the
            # read lock), never under it — libpq would use freed memory.
            async with self._read_lock:
                self._reader = None
                for conn in (listen, reader):
                    if conn is not None:
                        try:
                            await conn.close()
                        except psycopg.Error:
                            pass

    async def _catch_up_quietly(self, game_id: str) -> None:
        """A catch-up for a newly watched game; a lost connection is left to
        :meth:`run`, whose reconnection catches up every game."""
        try:
            await self._catch_up(game_id)
        except (psycopg.Error, OSError):
            pass

    async def _catch_up(self, game_id: str) -> None:
        """Deliver ``game_id``'s events after the last one delivered."""
        async with self._read_lock:
            reader, after = self._reader, self._last.get(game_id)
            if reader is None or after is None:
                return
            mark = after  # the last position this read delivered
            for position, stored in await reader.read(game_id, after):
                if self._last.get(game_id) != mark:
                    # Unwatched, or watched again from another position, while
                    # this read was in flight: that watch's own catch-up reads
                    # from its mark (nothing is lost or delivered twice).
                    return
                if position != mark + 1:
                    self._damaged(game_id, position, f"The event at position {position - 1} is missing.")
                    return
                problem = _problem(stored)
                if problem:
                    self._damaged(game_id, position, problem.format(position=position))
                    return
                event = {k: v for k, v in stored.items() if k not in STORE_KEYS}
                self._last[game_id] = mark = position
                self._queue.put_nowait(Delivered(game_id, position, event))

    def _damaged(self, game_id: str, position: int, problem: str) -> None:
        self.unwatch(game_id)
        self._queue.put_nowait(Delivered(game_id, position, None, problem))


def _problem(stored: Any) -> str | None:
    """Why a stored row is not an event (a template with ``{position}``), or None."""
    if not isinstance(stored, dict):
        return "The event at position {position} is not an event object."
    if not isinstance(stored.get("type"), str) or not stored["type"]:
        return 'The event at position {position} has no "type".'
    return None
