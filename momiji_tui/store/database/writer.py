"""A game on the database opened for play: :class:`DatabaseGameLog`, the
database's implementation of ``store.game_writer.GameWriter`` (the file
store's is ``GameLog``), so a ``Table`` saves every move to the database."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Self

import psycopg

from ..errors import RefusedSaves, WriteFailed
from ..ids import as_utc
from ..log import Event, Header, LoadedLog, Validator, utc_now
from .connect import one_line
from .sync import SyncGameStore


class DatabaseGameLog:
    """One game of the database, appended to move by move at the position it
    was last seen. There is no lock: a second writer of the same game gets
    ``Conflict`` on its next move (optimistic concurrency) and must reopen.
    Closing leaves the store open (it is the caller's)."""

    def __init__(self, store: SyncGameStore, loaded: LoadedLog, position: int) -> None:
        self.store = store
        self.loaded = loaded
        self.header = loaded.header
        self.path = loaded.path
        self.position = position
        self._refusals = RefusedSaves(f"game {self.game_id} in the database")

    @property
    def game_id(self) -> str:
        """The game's id."""
        return str(self.header["game_id"])

    @classmethod
    def create(cls, store: SyncGameStore, header: Header, *, events: Sequence[Event] = (),
               owners: Sequence[str] = (), now: datetime | None = None) -> Self:
        """A new game on the database (as ``GameStore.create_game``). Raises
        ``ValueError``/``TypeError`` for a bad header or event, ``GameExists``,
        ``WriteFailed`` if the database fails (nothing is saved)."""
        try:
            loaded = store.create_game(header, events, owners=owners, now=now)
        except psycopg.Error as exc:
            raise _failed("create the game", str(header.get("game_id", "")), exc) from exc
        return cls(store, loaded, len(events))

    @classmethod
    def open_for_append(cls, store: SyncGameStore, game_id: str,
                        validate: Validator | None = None) -> Self:
        """The database's game ``game_id``, checked as its file would be.
        Raises ``GameNotFound``, ``DamagedLog``, ``NewerFormat``/``NewerRules``,
        ``WriteFailed`` if the database fails."""
        try:
            stored = store.load_game(game_id, validate)
        except psycopg.Error as exc:
            raise _failed("open the game", game_id, exc) from exc
        return cls(store, stored.loaded, stored.position)

    def extend(self, events: Iterable[Event], *, now: datetime | None = None) -> None:
        """Save one move's events after the last position seen, in one
        transaction. Raises ``TypeError``/``ValueError`` for a bad event,
        ``Conflict`` if another writer saved first, ``WriteFailed`` if the
        database fails (a lost connection…): nothing is saved."""
        moment = as_utc(now or utc_now())
        try:
            self.position = self.store.append(self.game_id, self.position, list(events), now=moment)
        except psycopg.Error as exc:
            failed = _failed("save the move", self.game_id, exc)
            self._refusals.refused(failed)
            raise failed from exc
        self._refusals.saved()
        self.loaded.last_played = moment

    def close(self) -> None:
        """Nothing to release: the database holds no lock for a writer."""


def _failed(action: str, game_id: str, exc: psycopg.Error) -> WriteFailed:
    """The database's failure as the store's ``WriteFailed`` (its reason in words)."""
    return WriteFailed(action, game_id, OSError(None, f"the database failed: {one_line(str(exc))}"))
