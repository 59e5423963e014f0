"""The database store's games and events (asyncio): create, append, read,
load and list, on one connection.

Optimistic concurrency (ARCHITECTURE "SSH", as message-db and ``eventsourcing``
do it): a move is appended at ``expected + 1, expected + 2…`` in one
transaction; ``PRIMARY KEY (game_id, position)`` lets exactly one of two
writers at the same ``expected`` position win, and the other gets
:class:`Conflict` with the position now. The same transaction sends
``NOTIFY momiji_events, '<game_id>:<position>'``, a wake-up only (a listener
then reads from its last position: ``listener``); PostgreSQL delivers it at
commit, so a listener never hears of a move it cannot read yet.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import psycopg
from psycopg import errors as pg_errors
from psycopg.types.json import Jsonb

from ..errors import Conflict, DamagedLog, GameExists, GameNotFound, NewerFormat, Unstorable
from ..ids import as_utc, check_game_id, new_game_id
from ..library import DAMAGED, FINISHED, IN_PROGRESS, NEWER, SavedGame
from ..log import CURRENT_FORMAT_VERSION, FORMAT, Event, Header, LoadedLog, Validator, header_problem, utc_now
from .rows import game_name, is_finished, loaded_from_rows, move_objects

CHANNEL = "momiji_events"
NUL_TEXT = "it holds text PostgreSQL cannot store (a NUL character, \\u0000)"
Connection = psycopg.AsyncConnection[tuple[Any, ...]]
Rows = list[tuple[int, Any]]


@dataclass
class StoredGame:
    """A game loaded from the database: ``loaded`` as a save file would load
    (``loaded.path`` is the game id), ``position`` its last event's position
    (the ``expected`` of the next :meth:`GameStore.append`)."""

    loaded: LoadedLog
    position: int


class GameStore:
    """The games and events tables through one asyncio connection in
    autocommit mode (each write is one transaction of its own). Open one with
    :func:`~momiji_tui.store.database.open_store`."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn

    async def close(self) -> None:
        """Close the connection."""
        await self.conn.close()

    # ---------------------------------------------------------------- write

    async def create_game(self, header: Header, events: Sequence[Event] = (), *, owners: Sequence[str] = (),
                          now: datetime | None = None) -> LoadedLog:
        """A new game: the header completed as ``GameLog.create`` completes it
        (``format``, ``format_version``, ``game_id``, ``created``) and
        ``events`` (its setup) as its first move, dated ``now``, in one
        transaction. Returns it as loaded. Raises ``ValueError``/``TypeError``
        for a bad header or event (nothing is written), :class:`GameExists`
        if the id is taken, :class:`Unstorable` for text jsonb refuses."""
        moment = as_utc(now or utc_now())
        full: Header = {"format": FORMAT, "format_version": CURRENT_FORMAT_VERSION}
        for key, value in full.items():
            if key in header and header[key] != value:
                raise ValueError(f"header[{key!r}] is set by the store, not the caller")
        full.update(header)
        full.setdefault("game_id", new_game_id(moment))
        full.setdefault("created", moment.isoformat(timespec="seconds"))
        check_game_id(full["game_id"])
        problem = header_problem(full)
        if problem:
            raise ValueError(problem)
        objects = move_objects(events, moment) if events else []
        last = moment if objects else as_utc(datetime.fromisoformat(full["created"]))
        await self._insert_game(full, objects, last, owners)
        return LoadedLog(game_name(full["game_id"]), full, list(events), [], 0, CURRENT_FORMAT_VERSION, last)

    async def import_loaded(self, loaded: LoadedLog, *, owners: Sequence[str] = ()) -> str:
        """Add a game already loaded and checked (from a save file): its
        events as one move dated when it was last played, like a file
        upgraded to the current format. Returns its id. Raises
        :class:`GameExists` if the id is taken, :class:`Unstorable` for text
        jsonb refuses (nothing changes)."""
        game_id = str(loaded.header["game_id"])
        when = as_utc(loaded.last_played or datetime.fromisoformat(loaded.header["created"]))
        objects = move_objects(loaded.events, when) if loaded.events else []
        await self._insert_game(loaded.header, objects, when, owners)
        return game_id

    async def _insert_game(self, header: Header, objects: list[Event], last_played: datetime,
                           owners: Sequence[str]) -> None:
        game_id = str(header["game_id"])
        created = as_utc(datetime.fromisoformat(header["created"]))
        try:
            async with self.conn.transaction():
                await self.conn.execute(
                    "INSERT INTO games (game_id, header, rules_version, save_format, created, last_played, finished,"
                    " owners) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                    (game_id, Jsonb(header), header["rules_version"], header["format_version"], created,
                     last_played, is_finished(objects), list(owners)))
                await self._insert_events(game_id, 0, objects)
        except pg_errors.UniqueViolation:
            raise GameExists(f"a saved game {game_id} already exists in the database") from None
        except pg_errors.UntranslatableCharacter:
            raise Unstorable(game_id, NUL_TEXT) from None

    async def _insert_events(self, game_id: str, expected: int, objects: list[Event]) -> None:
        if not objects:
            return
        async with self.conn.cursor() as cur:
            await cur.executemany("INSERT INTO events (game_id, position, event) VALUES (%s, %s, %s)",
                                  [(game_id, expected + i, Jsonb(o)) for i, o in enumerate(objects, start=1)])
        await self.conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{game_id}:{expected + len(objects)}"))

    async def append(self, game_id: str, expected: int, events: Sequence[Event], *,
                     now: datetime | None = None) -> int:
        """Save one move's ``events`` after position ``expected`` (the last
        position this writer saw), dated ``now``, and wake the listeners, all
        in one transaction. Returns the new last position. Raises
        ``TypeError``/``ValueError`` for a bad event or a negative
        ``expected``, :class:`GameNotFound`, :class:`Unstorable` for text
        jsonb refuses, and :class:`Conflict` (nothing saved) if the game is
        no longer at ``expected``: another writer saved first."""
        if expected < 0:
            raise ValueError(f"a position is 0 or more, not {expected}")
        moment = as_utc(now or utc_now())
        objects = move_objects(events, moment)
        if not objects:
            return expected
        try:
            async with self.conn.transaction():
                await self._insert_events(game_id, expected, objects)
                if expected > 0:  # the move must follow the last event, never leave a gap
                    cur = await self.conn.execute(
                        "SELECT 1 FROM events WHERE game_id = %s AND position = %s", (game_id, expected))
                    if await cur.fetchone() is None:
                        raise _Gap
                cur = await self.conn.execute(
                    "UPDATE games SET last_played = %s, finished = finished OR %s WHERE game_id = %s",
                    (moment, is_finished(objects), game_id))
                if cur.rowcount != 1:
                    raise _Gap
        except (pg_errors.UniqueViolation, _Gap):
            position = await self.position(game_id)
            raise Conflict(game_id, expected, position) from None
        except pg_errors.ForeignKeyViolation:
            raise GameNotFound(f"there is no saved game {game_id} in the database") from None
        except pg_errors.UntranslatableCharacter:
            raise Unstorable(game_id, NUL_TEXT) from None
        return expected + len(objects)

    # ----------------------------------------------------------------- read

    async def position(self, game_id: str) -> int:
        """The game's last position (0: no event). Raises :class:`GameNotFound`."""
        cur = await self.conn.execute(
            "SELECT (SELECT coalesce(max(position), 0) FROM events WHERE game_id = %s)"
            " FROM games WHERE game_id = %s", (game_id, game_id))
        row = await cur.fetchone()
        if row is None:
            raise GameNotFound(f"there is no saved game {game_id} in the database")
        return int(row[0])

    async def read(self, game_id: str, after: int = 0) -> Rows:
        """The stored ``(position, event)`` rows after ``after``, in order:
        the line objects as stored (move marks included), not checked."""
        cur = await self.conn.execute(
            "SELECT position, event FROM events WHERE game_id = %s AND position > %s ORDER BY position",
            (game_id, after))
        rows = [(int(p), e) for p, e in await cur.fetchall()]
        return rows

    async def raw_game(self, game_id: str) -> tuple[Any, Rows]:
        """The header and every row, read in one snapshot, unchecked. Raises
        :class:`GameNotFound`."""
        async with self.conn.transaction():
            await self.conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            cur = await self.conn.execute("SELECT header FROM games WHERE game_id = %s", (game_id,))
            row = await cur.fetchone()
            if row is None:
                raise GameNotFound(f"there is no saved game {game_id} in the database")
            cur = await self.conn.execute(
                "SELECT position, event FROM events WHERE game_id = %s ORDER BY position", (game_id,))
            rows = [(int(p), e) for p, e in await cur.fetchall()]
        return row[0], rows

    async def load_game(self, game_id: str, validate: Validator | None = None) -> StoredGame:
        """The game checked exactly as its save file would be (``validate``
        too). Raises :class:`GameNotFound`, :class:`DamagedLog` (a damaged
        row: reported, never skipped), :class:`NewerFormat`/``NewerRules``."""
        header, rows = await self.raw_game(game_id)
        loaded = loaded_from_rows(game_id, header, rows, validate)
        return StoredGame(loaded, rows[-1][0] if rows else 0)

    async def game_ids(self, owner: str | None = None, *, unfinished: bool = False) -> list[str]:
        """Every game's id, last played first (only ``owner``'s when given;
        only those not finished with ``unfinished``)."""
        where = " AND NOT finished" if unfinished else ""
        if owner is None:
            cur = await self.conn.execute(f"SELECT game_id FROM games WHERE true{where}"
                                          " ORDER BY last_played DESC, game_id DESC")
        else:
            cur = await self.conn.execute(f"SELECT game_id FROM games WHERE %s = ANY(owners){where}"
                                          " ORDER BY last_played DESC, game_id DESC", (owner,))
        ids = [str(r[0]) for r in await cur.fetchall()]
        return ids

    async def list_games(self, validate: Validator | None = None, *, owner: str | None = None,
                         unfinished: bool = False) -> list[SavedGame]:
        """Every game (``owner``'s only when given; with ``unfinished`` only
        those not finished, the others never read), last played first, as the
        file store lists them: a damaged or newer one is listed with its
        problem, never raised and never changed; ``path`` is the game id."""
        games = []
        for game_id in await self.game_ids(owner, unfinished=unfinished):
            try:
                stored = await self.load_game(game_id, validate)
            except GameNotFound:  # deleted while we looked
                continue
            except NewerFormat as exc:
                games.append(SavedGame(game_id, game_name(game_id), NEWER, problem=str(exc)))
                continue
            except DamagedLog as exc:
                games.append(SavedGame(game_id, game_name(game_id), DAMAGED, problem=exc.reason))
                continue
            loaded = stored.loaded
            status = FINISHED if loaded.events and loaded.events[-1]["type"] == "GameEnded" else IN_PROGRESS
            games.append(SavedGame(game_id, loaded.path, status, loaded.header, loaded.events, None,
                                   loaded.warnings, loaded.last_played))
        return games


class _Gap(Exception):
    """The move's ``expected`` position is past the game's last event (or the game is gone)."""
