"""The shared lobby's rows (schema version 2): processes and their
heartbeats, who is online, waiting tables and their seats.

Every function takes one asyncio connection in autocommit mode and runs one
transaction; each write ends with ``NOTIFY momiji_events, 'lobby'`` (a
wake-up only: every process then reads the whole lobby again, :func:`read_lobby`,
which is small). Which rule allows a request is the session layer's
(``session/lobby.py``); here only what the database must decide: of two
players taking one seat exactly one gets it (:func:`take_seat`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg import errors as pg_errors

from .games import CHANNEL

LOBBY_WAKE = "lobby"
"""The NOTIFY payload of a lobby change (a game's is ``'<game_id>:<position>'``)."""
Connection = psycopg.AsyncConnection[tuple[Any, ...]]


@dataclass(frozen=True)
class SeatRow:
    """One seat of a lobby table: ``account_id`` None while open (or a bot)."""

    seat: int
    kind: str
    name: str
    account_id: str | None
    process: str | None
    member: str | None


@dataclass(frozen=True)
class TableRow:
    """A lobby table: waiting (``game_id`` None) or started as ``game_id``."""

    table_id: str
    process: str
    creator: str
    bot_level: str
    landscape_mode: str
    hints_allowed: bool
    game_id: str | None
    seats: tuple[SeatRow, ...]


@dataclass(frozen=True)
class MemberRow:
    """Someone online: in which process, as which member of it."""

    process: str
    member: str
    account_id: str
    label: str
    activity: str


@dataclass(frozen=True)
class LobbyRows:
    """The whole lobby as one read saw it."""

    tables: tuple[TableRow, ...]
    members: tuple[MemberRow, ...]


async def _notify(conn: Connection) -> None:
    await conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, LOBBY_WAKE))


PRESENCE_LOCK = 0x6D6F6D696A69
"""The transaction-level advisory lock every heartbeat and departure takes
first: the presence rows are only ever locked in one order, one writer at a
time (two sweeps deleting each other's rows once deadlocked)."""


async def heartbeat(conn: Connection, process: str, host: str, pid: int, ttl: float, *,
                    sweep: bool = True) -> None:
    """Say ``process`` is alive for ``ttl`` more seconds (registering it the
    first time), then, if ``sweep``, sweep the processes whose time ran out:
    their members, the waiting tables they opened and the seats they held go
    with them. Holds :data:`PRESENCE_LOCK` for the transaction."""
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock(%s)", (PRESENCE_LOCK,))
        await conn.execute(
            "INSERT INTO lobby_processes (process, host, pid, expires) VALUES (%s, %s, %s,"
            " now() + make_interval(secs => %s)) ON CONFLICT (process) DO UPDATE SET expires = EXCLUDED.expires",
            (process, host, pid, ttl))
        if not sweep:
            return
        cur = await conn.execute("DELETE FROM lobby_processes WHERE expires < now()")
        swept = cur.rowcount
        alive = "SELECT process FROM lobby_processes"
        cur = await conn.execute(f"DELETE FROM lobby_tables WHERE game_id IS NULL AND process NOT IN ({alive})")
        swept += cur.rowcount
        cur = await conn.execute(
            "UPDATE lobby_seats SET account_id = NULL, name = '', process = NULL, member = NULL"
            f" WHERE process IS NOT NULL AND process NOT IN ({alive})"
            " AND table_id IN (SELECT table_id FROM lobby_tables WHERE game_id IS NULL)")
        swept += cur.rowcount
        cur = await conn.execute(  # a started table's row only hands the game over; its game is in `games`
            "DELETE FROM lobby_tables t WHERE game_id IS NOT NULL AND (EXISTS (SELECT 1 FROM games g"
            " WHERE g.game_id = t.game_id AND g.finished) OR NOT EXISTS (SELECT 1 FROM lobby_seats s"
            f" WHERE s.table_id = t.table_id AND s.process IN ({alive})))")
        swept += cur.rowcount
        if swept:
            await _notify(conn)


async def forget_process(conn: Connection, process: str) -> None:
    """The process stops: its members and waiting tables go at once."""
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock(%s)", (PRESENCE_LOCK,))
        await conn.execute("DELETE FROM lobby_processes WHERE process = %s", (process,))
        await conn.execute("DELETE FROM lobby_tables WHERE game_id IS NULL AND process = %s", (process,))
        await _notify(conn)


async def set_member(conn: Connection, row: MemberRow) -> None:
    """Add or update someone online."""
    async with conn.transaction():
        await conn.execute(
            "INSERT INTO lobby_members (process, member, account_id, label, activity) VALUES (%s, %s, %s, %s, %s)"
            " ON CONFLICT (process, member) DO UPDATE SET label = EXCLUDED.label, activity = EXCLUDED.activity",
            (row.process, row.member, row.account_id, row.label, row.activity))
        await _notify(conn)


async def remove_member(conn: Connection, process: str, member: str) -> None:
    """Someone went offline."""
    async with conn.transaction():
        await conn.execute("DELETE FROM lobby_members WHERE process = %s AND member = %s", (process, member))
        await _notify(conn)


async def next_table_number(conn: Connection) -> int:
    """A table number no process has used on this database."""
    cur = await conn.execute("SELECT nextval('lobby_table_numbers')")
    row = await cur.fetchone()
    assert row is not None
    return int(row[0])


async def add_table(conn: Connection, table: TableRow) -> None:
    """Open a waiting table with its seats (the creator's seat taken)."""
    async with conn.transaction():
        await conn.execute(
            "INSERT INTO lobby_tables (table_id, process, creator, bot_level, landscape_mode, hints_allowed)"
            " VALUES (%s, %s, %s, %s, %s, %s)",
            (table.table_id, table.process, table.creator, table.bot_level, table.landscape_mode,
             table.hints_allowed))
        async with conn.cursor() as cur:
            await cur.executemany(
                "INSERT INTO lobby_seats (table_id, seat, kind, name, account_id, process, member)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s)",
                [(table.table_id, s.seat, s.kind, s.name, s.account_id, s.process, s.member) for s in table.seats])
        await _notify(conn)


async def take_seat(conn: Connection, table_id: str, seat: SeatRow) -> int | None:
    """Give the first open human seat of a waiting table to ``seat``'s
    player (its ``seat`` number is ignored). Returns the seat number, or None
    if no seat is open (or the table is gone, or started). Of two players
    racing for the last seat exactly one gets it: the UPDATE matches only an
    open seat and locks it. Raises :class:`AlreadySeated` if that identity
    already holds a seat there."""
    try:
        async with conn.transaction():
            cur = await conn.execute(
                "UPDATE lobby_seats SET account_id = %s, name = %s, process = %s, member = %s"
                " WHERE (table_id, seat) = (SELECT s.table_id, s.seat FROM lobby_seats s JOIN lobby_tables t"
                " USING (table_id) WHERE s.table_id = %s AND t.game_id IS NULL AND s.kind = 'human'"
                " AND s.account_id IS NULL ORDER BY s.seat LIMIT 1 FOR UPDATE OF s)"
                " AND account_id IS NULL RETURNING seat",
                (seat.account_id, seat.name, seat.process, seat.member, table_id))
            row = await cur.fetchone()
            if row is not None:
                await _notify(conn)
    except pg_errors.UniqueViolation:
        raise AlreadySeated(table_id) from None
    return None if row is None else int(row[0])


class AlreadySeated(Exception):
    """That identity already holds a seat at that table."""


async def free_seat(conn: Connection, table_id: str, process: str, member: str) -> None:
    """A player leaves a waiting table (not its creator)."""
    async with conn.transaction():
        await conn.execute(
            "UPDATE lobby_seats SET account_id = NULL, name = '', process = NULL, member = NULL"
            " WHERE table_id = %s AND process = %s AND member = %s"
            " AND table_id IN (SELECT table_id FROM lobby_tables WHERE game_id IS NULL)",
            (table_id, process, member))
        await _notify(conn)


async def remove_table(conn: Connection, table_id: str) -> None:
    """A waiting table is closed (its creator left)."""
    async with conn.transaction():
        await conn.execute("DELETE FROM lobby_tables WHERE table_id = %s AND game_id IS NULL", (table_id,))
        await _notify(conn)


async def set_started(conn: Connection, table_id: str, game_id: str) -> None:
    """A full table became ``game_id``: the other processes seat their players."""
    async with conn.transaction():
        await conn.execute("UPDATE lobby_tables SET game_id = %s WHERE table_id = %s", (game_id, table_id))
        await _notify(conn)


async def read_lobby(conn: Connection, *, judge: bool = True) -> LobbyRows:
    """Every table (seats in order) and everyone online, in one snapshot.
    With ``judge`` the members of processes whose heartbeat expired are not
    online; without it (a reader that may not judge others absent yet) they
    are, until a sweep removes them."""
    async with conn.transaction():
        await conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        cur = await conn.execute(
            "SELECT table_id, process, creator, bot_level, landscape_mode, hints_allowed, game_id"
            " FROM lobby_tables ORDER BY length(table_id), table_id")
        tables = await cur.fetchall()
        cur = await conn.execute("SELECT table_id, seat, kind, name, account_id, process, member"
                                 " FROM lobby_seats ORDER BY table_id, seat")
        seats: dict[str, list[SeatRow]] = {}
        for table_id, *rest in await cur.fetchall():
            seats.setdefault(table_id, []).append(SeatRow(*rest))
        alive = " WHERE p.expires >= now()" if judge else ""
        cur = await conn.execute("SELECT m.process, member, account_id, label, activity FROM lobby_members m"
                                 f" JOIN lobby_processes p USING (process){alive} ORDER BY label")
        members = tuple(MemberRow(*r) for r in await cur.fetchall())
    rows = tuple(TableRow(t[0], t[1], t[2], t[3], t[4], bool(t[5]), t[6], tuple(seats.get(t[0], ())))
                 for t in tables)
    return LobbyRows(rows, members)

