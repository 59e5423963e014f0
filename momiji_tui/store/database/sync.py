"""The database store for code without an event loop of its own (``momiji
list/export/import``, a solo ``Table``): the asyncio :class:`GameStore` run
on an event loop in a thread of its own, call by call, so a call may come
from any thread, even one running another event loop (Textual's)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine, Sequence
from datetime import datetime
from typing import Any, TypeVar

import psycopg

from ..errors import DatabaseUnavailable
from ..library import SavedGame
from ..log import Event, Header, LoadedLog, Validator
from .games import Connection, GameStore, Rows, StoredGame
from .open import open_store

T = TypeVar("T")


class SyncGameStore:
    """:class:`GameStore` for code without an event loop. Opening connects and
    creates or migrates the schema; raises ``DatabaseUnavailable`` (one line:
    where, why) or ``NewerSchema``. Use as a context manager or call
    :meth:`close`. The methods are :class:`GameStore`'s, with the same
    arguments, results and errors."""

    def __init__(self, url: str) -> None:
        self._loop = asyncio.new_event_loop()
        self._calls = threading.Lock()
        self._thread = threading.Thread(target=self._loop.run_forever, name="momiji-database", daemon=True)
        self._thread.start()
        self._url = url
        try:
            self._store: GameStore = asyncio.run_coroutine_threadsafe(open_store(url), self._loop).result()
        except BaseException:
            self._stop()
            raise

    def _call(self, make: Callable[[GameStore], Coroutine[Any, Any, T]]) -> T:
        """Run ``make(store)`` on the store's loop and wait for its result (or
        its exception), one call at a time: the calls share one connection,
        and two transactions on it at once would nest (a server's bot threads
        and its event loop may call together)."""
        with self._calls:
            self._reconnect_if_lost()
            return asyncio.run_coroutine_threadsafe(make(self._store), self._loop).result()

    def _reconnect_if_lost(self) -> None:
        """A connection the server dropped (a restart, an admin) is replaced
        before the next call: the call that met the loss failed (nothing of it
        is kept), the ones after work again. Raises ``psycopg.OperationalError``
        (as a lost connection does) if the database cannot be reached now."""
        conn = self._store.conn
        if not (conn.closed or conn.broken):
            return
        try:
            self._store = asyncio.run_coroutine_threadsafe(open_store(self._url), self._loop).result()
        except DatabaseUnavailable as exc:
            raise psycopg.OperationalError(str(exc)) from None

    def _stop(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()

    def close(self) -> None:
        """Close the connection and the event loop (idempotent)."""
        if self._loop.is_closed():
            return
        try:
            with self._calls:
                asyncio.run_coroutine_threadsafe(self._store.close(), self._loop).result()
        finally:
            self._stop()

    def __enter__(self) -> SyncGameStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def create_game(self, header: Header, events: Sequence[Event] = (), *, owners: Sequence[str] = (),
                    now: datetime | None = None) -> LoadedLog:
        """:meth:`GameStore.create_game`."""
        return self._call(lambda store: store.create_game(header, events, owners=owners, now=now))

    def import_loaded(self, loaded: LoadedLog, *, owners: Sequence[str] = ()) -> str:
        """:meth:`GameStore.import_loaded`."""
        return self._call(lambda store: store.import_loaded(loaded, owners=owners))

    def append(self, game_id: str, expected: int, events: Sequence[Event], *, now: datetime | None = None) -> int:
        """:meth:`GameStore.append`."""
        return self._call(lambda store: store.append(game_id, expected, events, now=now))

    def read(self, game_id: str, after: int = 0) -> Rows:
        """:meth:`GameStore.read`."""
        return self._call(lambda store: store.read(game_id, after))

    def run(self, query: Callable[[Connection], Coroutine[Any, Any, T]]) -> T:
        """Run ``query(connection)`` (e.g. a function of ``lobby_rows``) on the
        store's connection, like the other calls; its errors are its own."""
        return self._call(lambda store: query(store.conn))

    def raw_game(self, game_id: str) -> tuple[Any, Rows]:
        """:meth:`GameStore.raw_game`."""
        return self._call(lambda store: store.raw_game(game_id))

    def load_game(self, game_id: str, validate: Validator | None = None) -> StoredGame:
        """:meth:`GameStore.load_game`."""
        return self._call(lambda store: store.load_game(game_id, validate))

    def game_ids(self, owner: str | None = None, *, unfinished: bool = False) -> list[str]:
        """:meth:`GameStore.game_ids`."""
        return self._call(lambda store: store.game_ids(owner, unfinished=unfinished))

    def list_games(self, validate: Validator | None = None, *, owner: str | None = None,
                   unfinished: bool = False) -> list[SavedGame]:
        """:meth:`GameStore.list_games`."""
        return self._call(lambda store: store.list_games(validate, owner=owner, unfinished=unfinished))
