"""Names bound to SSH keys on the database (schema version 4): the same
API as the files store's :class:`~momiji_tui.store.names.FileNames`.

``player_names`` has one row per name, ``PRIMARY KEY (name_key)``: of two
processes or hosts claiming one name at once, PostgreSQL lets exactly one
insert it (``ON CONFLICT DO NOTHING`` for the other, which then reads the
winner's row). ``name_keys`` lists the keys that may show it (the first
one inserted in the same transaction as the name); ``name_codes`` holds
one-time codes, used by a ``DELETE … RETURNING`` that only one caller can win.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from datetime import datetime
from typing import Any, Protocol, TypeVar

import psycopg

from ..ids import as_utc
from ..names import NameRecord, name_key

Connection = psycopg.AsyncConnection[tuple[Any, ...]]
T = TypeVar("T")

SCHEMA = (
    """CREATE TABLE player_names (
        name_key text PRIMARY KEY CHECK (name_key ~ '^[a-z0-9_-]{1,40}$'),
        name text NOT NULL,
        account_id text NOT NULL,
        claimed timestamptz NOT NULL
    )""",
    """CREATE TABLE name_keys (
        name_key text NOT NULL REFERENCES player_names (name_key) ON DELETE CASCADE,
        fingerprint text NOT NULL,
        added timestamptz NOT NULL,
        PRIMARY KEY (name_key, fingerprint)
    )""",
    """CREATE TABLE name_codes (
        code_hash text PRIMARY KEY,
        name_key text NOT NULL REFERENCES player_names (name_key) ON DELETE CASCADE,
        expires timestamptz NOT NULL
    )""",
)
"""The tables of schema version 4 (``schema.STEPS``)."""


class Runner(Protocol):
    """What runs a query on the store's connection (``SyncGameStore``)."""

    def run(self, query: Callable[[Connection], Coroutine[Any, Any, T]]) -> T: ...


async def _record(conn: Connection, key: str) -> NameRecord | None:
    cur = await conn.execute("SELECT name, account_id FROM player_names WHERE name_key = %s", (key,))
    row = await cur.fetchone()
    if row is None:
        return None
    cur = await conn.execute("SELECT fingerprint FROM name_keys WHERE name_key = %s", (key,))
    keys = frozenset(str(r[0]) for r in await cur.fetchall())
    return NameRecord(str(row[0]), str(row[1]), keys)


async def lookup(conn: Connection, name: str) -> NameRecord | None:
    """The record of ``name``, or None if nobody claimed it."""
    return await _record(conn, name_key(name))


async def claim(conn: Connection, name: str, fingerprint: str, account_id: str, now: datetime) -> NameRecord:
    """Give ``name`` to ``fingerprint`` if nobody holds it; return the name's record as it is now."""
    key = name_key(name)
    async with conn.transaction():
        cur = await conn.execute(
            "INSERT INTO player_names (name_key, name, account_id, claimed) VALUES (%s, %s, %s, %s) "
            "ON CONFLICT (name_key) DO NOTHING RETURNING name_key", (key, name, account_id, as_utc(now)))
        if await cur.fetchone() is not None:
            await conn.execute("INSERT INTO name_keys (name_key, fingerprint, added) VALUES (%s, %s, %s)",
                               (key, fingerprint, as_utc(now)))
    record = await _record(conn, key)
    assert record is not None  # names are never deleted
    return record


async def add_code(conn: Connection, code_hash: str, name: str, expires: datetime, now: datetime) -> None:
    """Keep a one-time code's hash that adds a key to ``name`` until
    ``expires``; codes expired at ``now`` are deleted first."""
    await conn.execute("DELETE FROM name_codes WHERE expires <= %s", (as_utc(now),))
    await conn.execute("INSERT INTO name_codes (code_hash, name_key, expires) VALUES (%s, %s, %s)",
                       (code_hash, name_key(name), as_utc(expires)))


async def use_code(conn: Connection, code_hash: str, fingerprint: str, now: datetime) -> NameRecord | None:
    """Use the code once: add ``fingerprint`` to its name, return the name's
    record; None for an unknown, used or expired code."""
    async with conn.transaction():
        await conn.execute("DELETE FROM name_codes WHERE expires <= %s", (as_utc(now),))
        cur = await conn.execute("DELETE FROM name_codes WHERE code_hash = %s RETURNING name_key", (code_hash,))
        row = await cur.fetchone()
        if row is None:
            return None
        await conn.execute("INSERT INTO name_keys (name_key, fingerprint, added) VALUES (%s, %s, %s) "
                           "ON CONFLICT DO NOTHING", (row[0], fingerprint, as_utc(now)))
    return await _record(conn, str(row[0]))


class DatabaseNames:
    """:class:`~momiji_tui.store.names.FileNames`'s methods on the database,
    through ``runner`` (the server's ``SyncGameStore``). They raise
    ``psycopg.Error`` if the database fails, ``ValueError`` for a bad name."""

    def __init__(self, runner: Runner) -> None:
        self.runner = runner

    def lookup(self, name: str) -> NameRecord | None:
        """:func:`lookup`."""
        return self.runner.run(lambda conn: lookup(conn, name))

    def claim(self, name: str, fingerprint: str, account_id: str, now: datetime) -> NameRecord:
        """:func:`claim`."""
        return self.runner.run(lambda conn: claim(conn, name, fingerprint, account_id, now))

    def add_code(self, code_hash: str, name: str, expires: datetime, now: datetime) -> None:
        """:func:`add_code`."""
        self.runner.run(lambda conn: add_code(conn, code_hash, name, expires, now))

    def use_code(self, code_hash: str, fingerprint: str, now: datetime) -> NameRecord | None:
        """:func:`use_code`."""
        return self.runner.run(lambda conn: use_code(conn, code_hash, fingerprint, now))
