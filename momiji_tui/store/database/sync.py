"""The database store for commands (``momiji list/export/import``): the
asyncio :class:`GameStore` run on an event loop of its own, call by call."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from ..library import SavedGame
from ..log import Event, Header, LoadedLog, Validator
from .games import GameStore, Rows, StoredGame
from .open import open_store


class SyncGameStore:
    """:class:`GameStore` for code without an event loop. Opening connects and
    creates or migrates the schema; raises ``DatabaseUnavailable`` (one line:
    where, why) or ``NewerSchema``. Use as a context manager or call
    :meth:`close`. The methods are :class:`GameStore`'s, with the same
    arguments, results and errors."""

    def __init__(self, url: str) -> None:
        self._runner = asyncio.Runner()
        try:
            self._store: GameStore = self._runner.run(open_store(url))
        except BaseException:
            self._runner.close()
            raise

    def close(self) -> None:
        """Close the connection and the event loop."""
        try:
            self._runner.run(self._store.close())
        finally:
            self._runner.close()

    def __enter__(self) -> SyncGameStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def create_game(self, header: Header, events: Sequence[Event] = (), *, owners: Sequence[str] = (),
                    now: datetime | None = None) -> LoadedLog:
        """:meth:`GameStore.create_game`."""
        return self._runner.run(self._store.create_game(header, events, owners=owners, now=now))

    def import_loaded(self, loaded: LoadedLog, *, owners: Sequence[str] = ()) -> str:
        """:meth:`GameStore.import_loaded`."""
        return self._runner.run(self._store.import_loaded(loaded, owners=owners))

    def append(self, game_id: str, expected: int, events: Sequence[Event], *, now: datetime | None = None) -> int:
        """:meth:`GameStore.append`."""
        return self._runner.run(self._store.append(game_id, expected, events, now=now))

    def raw_game(self, game_id: str) -> tuple[Any, Rows]:
        """:meth:`GameStore.raw_game`."""
        return self._runner.run(self._store.raw_game(game_id))

    def load_game(self, game_id: str, validate: Validator | None = None) -> StoredGame:
        """:meth:`GameStore.load_game`."""
        return self._runner.run(self._store.load_game(game_id, validate))

    def game_ids(self, owner: str | None = None) -> list[str]:
        """:meth:`GameStore.game_ids`."""
        return self._runner.run(self._store.game_ids(owner))

    def list_games(self, validate: Validator | None = None, *, owner: str | None = None) -> list[SavedGame]:
        """:meth:`GameStore.list_games`."""
        return self._runner.run(self._store.list_games(validate, owner=owner))
