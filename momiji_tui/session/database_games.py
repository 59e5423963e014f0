"""The games of a server on a database (``momiji serve --database``).

With a database, every game the server makes is saved there through the
store's ``DatabaseGameLog`` (``store/database/writer.py``), never in the data
dir's game folders: a player's solo games (``owners``: their account id) and
the shared tables' games (``owners``: every human seat's account id). Seat
changes are ``SeatControlChanged`` events in the game's log, as on files.

A game on the database has no file: its log's ``path`` is only its id
(``Path(game_id)``). What the file store does beside a save file is not done
here: no post-game review is cached (``Table.save_file`` is None), and the
old seats files of shared tables (``tables/seats/``) have nothing to migrate.

Which games are shared: those whose header has two or more human seats (a
table is created with at least one seat open for another player, and a solo
game has one human seat), so a player's solo list never offers a shared game.

Calls block until the database answers: the server calls them on its event
loop, as it calls the file store (a move is one short transaction). The
store's calls are serialised (``SyncGameStore``), so a solo game's bot
thread and the loop never share one transaction.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any, TypeVar

import psycopg

from ..store import SavedGame, StoreError, is_game_id
from ..store.database import SyncGameStore
from ..store.database.connect import one_line
from ..store.database.writer import DatabaseGameLog
from ..store.errors import Conflict, GameNotFound, WriteFailed
from ..store.library import IN_PROGRESS
from ..store.log import Event
from .shared_table import LobbyError
from .seat_log import SeatSummary, summarize
from .shared_table import MovedOn, SharedTable
from .table import HUMAN, SeatConfig, Table, validate_log

log = logging.getLogger("momiji_tui.lobby")

T = TypeVar("T", bound=Table)

MOVED_ON = ("another session saved a move of this game first (it is open on another worker or server); "
            "leave the game and open it again")
"""Why a move was not saved when the game moved on elsewhere (``WriteFailed.reason``)."""


class TableLog(DatabaseGameLog):
    """A database game's log as a table of this server writes it: a move
    another writer saved first (``Conflict``: the game is open in another
    process too) is the store's ``WriteFailed`` with :data:`MOVED_ON` as its
    reason, which every front end already tells the player in words."""

    def extend(self, events: Iterable[Event], *, now: datetime | None = None) -> None:
        """See ``DatabaseGameLog.extend``; ``Conflict`` becomes ``WriteFailed``
        (nothing saved, the table unchanged)."""
        try:
            super().extend(events, now=now)
        except Conflict as exc:
            log.warning("game %s: %s", self.game_id, exc)
            raise MovedOn("save the move", self.game_id, OSError(None, MOVED_ON)) from exc


def is_shared(header: dict[str, Any] | None) -> bool:
    """True for a shared table's game: two or more human seats in its header."""
    seats = (header or {}).get("seats")
    if not isinstance(seats, list):
        return False
    return sum(1 for s in seats if isinstance(s, dict) and s.get("kind") == HUMAN) >= 2


class DatabaseGames:
    """A server's games on one database. Open with :meth:`open`; close once
    (the lobby does, when the server stops)."""

    shared_kind: type[SharedTable] = SharedTable
    """What a shared table's game opens as (the shared lobby's ``ReplicaTable``)."""

    def __init__(self, store: SyncGameStore, url: str = "") -> None:
        self.store = store
        self.url = url

    @classmethod
    def open(cls, url: str) -> DatabaseGames:
        """Connect to ``url`` and create or migrate the schema. Raises
        ``DatabaseUnavailable`` (one line: where, why) or ``NewerSchema``."""
        return cls(SyncGameStore(url), url)

    def close(self) -> None:
        """Close the connection (idempotent)."""
        self.store.close()

    def new_table(self, kind: type[T], seats: list[SeatConfig], *, seed: int | None, landscape_mode: str,
                  owners: Sequence[str], game_id: str | None = None, daily: str = "") -> T:
        """A new game of ``kind`` (``Table`` or ``SharedTable``) saved on the
        database under ``owners``. Raises
        ``ValueError`` for wrong seats or mode, ``WriteFailed`` if the
        database refuses (nothing is saved)."""
        def create_log(header: dict[str, Any], events: list[dict[str, Any]]) -> TableLog:
            return TableLog.create(self.store, header, events=events, owners=owners)

        return kind.new(seats, seed=seed, landscape_mode=landscape_mode, create_log=create_log, game_id=game_id,
                        daily=daily)

    def resume(self, kind: type[T], game_id: str) -> T:
        """The game ``game_id`` as a table of ``kind``, checked as its file
        would be, appending from its last position. Raises ``GameNotFound``,
        ``DamagedLog``, ``NewerFormat``, ``WriteFailed`` (the database failed)."""
        return kind.from_log(TableLog.open_for_append(self.store, game_id, validate_log))

    # ------------------------------------------------ the lobby's shared games (shared_games.SharedGames)
    def new_shared(self, seats: list[SeatConfig], *, seed: int, landscape_mode: str,
                   owners: Sequence[str]) -> SharedTable:
        """A shared table's new game, owned by ``owners`` (its human seats'
        account ids). Raises ``ValueError``, ``WriteFailed``."""
        return self.new_table(self.shared_kind, seats, seed=seed, landscape_mode=landscape_mode, owners=owners)

    def open_shared(self, game_id: str) -> SharedTable:
        """A shared game loaded for play. Raises :class:`LobbyError` in words
        (no such game, damaged, newer, the database failed)."""
        if not is_game_id(game_id):
            raise LobbyError("There is no such table.")
        try:
            return self.resume(self.shared_kind, game_id)
        except GameNotFound:
            raise LobbyError("There is no such table.") from None
        except (StoreError, ValueError) as exc:
            log.error("cannot resume shared game %s: %s", game_id, exc)
            raise LobbyError(f"That game cannot be opened: {exc}") from None

    def summary(self, game_id: str) -> SeatSummary | None:
        """:meth:`shared_summary`."""
        return self.shared_summary(game_id)

    def owners_index(self) -> dict[str, set[str]]:
        """:meth:`shared_owners_index`, empty (and logged) if the database fails."""
        try:
            return self.shared_owners_index()
        except WriteFailed as exc:
            log.error("cannot list the shared games: %s", exc)
            return {}

    def owned_by(self, account_id: str) -> set[str] | None:
        """The unfinished shared games where ``account_id`` owns a seat, read
        from the database now (a game another worker or host started is
        found when its player logs in here); None (logged) if it fails."""
        try:
            ids = self.store.game_ids(account_id, unfinished=True)
        except psycopg.Error as exc:
            log.error("cannot list the games of %s: %s", account_id, exc)
            return None
        summaries = ((game_id, self.shared_summary(game_id)) for game_id in ids)
        return {game_id for game_id, s in summaries if s is not None and not s.finished and account_id in s.owners}

    def migrate(self) -> None:
        """Nothing to migrate: no seats files were ever on the database."""

    # ------------------------------------------------------------ solo games
    def unfinished_solo(self, owner: str) -> list[SavedGame]:
        """``owner``'s solo games in progress, last played first (``path`` is
        the game id). Raises ``WriteFailed`` if the database fails."""
        games = self._list(owner)
        return [g for g in games if g.status == IN_PROGRESS and not is_shared(g.header)]

    def solo_games(self, owner: str) -> list[SavedGame]:
        """``owner``'s solo games, finished ones too, last played first (a
        damaged or newer one listed with its problem). Raises ``WriteFailed``
        if the database fails."""
        try:
            games = self.store.list_games(validate_log, owner=owner)
        except psycopg.Error as exc:
            raise _failed("list the games", exc) from exc
        return [g for g in games if not is_shared(g.header)]

    def shared_owners_index(self) -> dict[str, set[str]]:
        """Account id -> ids of the unfinished shared games where it owns a
        seat (as ``seat_log.owners_index`` for files). A game that cannot be
        read is left out and logged. Raises ``WriteFailed`` if the database fails."""
        index: dict[str, set[str]] = {}
        try:
            ids = self.store.game_ids(unfinished=True)
        except psycopg.Error as exc:
            raise _failed("list the shared games", exc) from exc
        for game_id in ids:
            summary = self.shared_summary(game_id)
            if summary is None or summary.finished:
                continue
            for owner in summary.owners:
                if owner is not None:
                    index.setdefault(owner, set()).add(game_id)
        return index

    def shared_summary(self, game_id: str) -> SeatSummary | None:
        """The seats of the shared game ``game_id`` as its log tells them;
        None for a game that is missing, damaged, newer, not shared, or
        unreadable now (logged)."""
        try:
            stored = self.store.load_game(game_id)
            header = stored.loaded.header
            return summarize(header, stored.loaded.events) if is_shared(header) else None
        except GameNotFound:
            return None
        except (StoreError, ValueError, psycopg.Error) as exc:
            log.error("cannot read shared game %s from the database: %s", game_id, exc)
            return None

    def _list(self, owner: str) -> list[SavedGame]:
        try:
            return self.store.list_games(validate_log, owner=owner, unfinished=True)
        except psycopg.Error as exc:
            raise _failed("list the games", exc) from exc


def _failed(action: str, exc: psycopg.Error) -> WriteFailed:
    return WriteFailed(action, "the database", OSError(None, f"the database failed: {one_line(str(exc))}"))
