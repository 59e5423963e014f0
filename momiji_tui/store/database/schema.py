"""The database's tables, created and migrated by momiji itself.

``momiji_schema`` holds one row: the schema version. :func:`ensure_schema`
brings a database up to :data:`SCHEMA_VERSION` by small steps (like the save
format's ``MIGRATIONS``), each in the same transaction as the version it
writes, under an advisory lock so two momijis starting at once never run a
step twice. A database from a newer momiji is refused (:class:`NewerSchema`)
and never changed.

Version 1:

- ``games``: one row per game: its id, the save header (jsonb, as the file's
  first line), rules version, save format, created, last played (the move's
  ``saved_at``), finished, and ``owners`` (account ids whose game it is: an
  SSH identity's opaque id; empty for a local player's games).
- ``events``: ``(game_id, position, event)``, ``PRIMARY KEY (game_id,
  position)``; position 1 is the game's first event. The event is the object
  of the save file's line (move marks included), so a game exports to the
  very file it was.

Version 2 (the shared lobby; :mod:`.lobby_rows` writes and reads it):

- ``lobby_processes``: one row per running server process (worker or
  host): a random id, host and pid, and ``expires``, pushed forward by its
  heartbeat. A process whose row expired is dead: any process's sweep
  deletes it, and with it its members, the waiting tables it opened and the
  seats its players held at waiting tables.
- ``lobby_members``: who is online (one row per SSH session): process,
  member (the session's id in that process), account id, label, activity.
- ``lobby_tables``: tables waiting for players (``game_id`` NULL) and, once
  full, the game they became (so the other processes seat their players).
- ``lobby_seats``: one row per seat, ``PRIMARY KEY (table_id, seat)``; a
  seat is taken by an UPDATE that only matches while it is open, so of two
  players exactly one gets it, and ``UNIQUE (table_id, account_id)`` keeps
  one identity to one seat of a table.

Version 3 (ratings; :mod:`.ratings` writes and reads it): ``ratings`` (one
row per rated account) and ``rated_games`` (each rated game's changes).

Version 4 (names bound to keys; :mod:`.names` writes and reads it):
``player_names`` (one row per claimed name, ``PRIMARY KEY (name_key)``: of
two hosts claiming one name exactly one gets it), ``name_keys`` (the keys
that may show a name) and ``name_codes`` (one-time codes, by their SHA-256).
"""

from __future__ import annotations

import psycopg

from ..errors import NewerSchema
from . import names, ratings

SCHEMA_VERSION = 4
#: Any constant: the key of the advisory lock taken while the schema changes.
_LOCK_KEY = 0x6D6F6D696A69  # "momiji"

_V1 = (
    """CREATE TABLE games (
        game_id text PRIMARY KEY CHECK (game_id ~ '^[0-9]{8}-[0-9]{6}-[0-9a-f]{6}$'),
        header jsonb NOT NULL,
        rules_version text NOT NULL,
        save_format integer NOT NULL,
        created timestamptz NOT NULL,
        last_played timestamptz NOT NULL,
        finished boolean NOT NULL DEFAULT false,
        owners text[] NOT NULL DEFAULT '{}'
    )""",
    "CREATE INDEX games_last_played ON games (last_played DESC, game_id DESC)",
    "CREATE INDEX games_owners ON games USING gin (owners)",
    """CREATE TABLE events (
        game_id text NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
        position bigint NOT NULL CHECK (position >= 1),
        event jsonb NOT NULL,
        PRIMARY KEY (game_id, position)
    )""",
)

_V2 = (
    """CREATE TABLE lobby_processes (
        process text PRIMARY KEY,
        host text NOT NULL,
        pid integer NOT NULL,
        expires timestamptz NOT NULL
    )""",
    """CREATE TABLE lobby_members (
        process text NOT NULL REFERENCES lobby_processes (process) ON DELETE CASCADE,
        member text NOT NULL,
        account_id text NOT NULL,
        label text NOT NULL,
        activity text NOT NULL,
        PRIMARY KEY (process, member)
    )""",
    "CREATE SEQUENCE lobby_table_numbers",
    """CREATE TABLE lobby_tables (
        table_id text PRIMARY KEY,
        process text NOT NULL,
        creator text NOT NULL,
        bot_level text NOT NULL,
        landscape_mode text NOT NULL,
        hints_allowed boolean NOT NULL,
        game_id text REFERENCES games (game_id) ON DELETE CASCADE
    )""",
    """CREATE TABLE lobby_seats (
        table_id text NOT NULL REFERENCES lobby_tables (table_id) ON DELETE CASCADE,
        seat smallint NOT NULL CHECK (seat BETWEEN 0 AND 3),
        kind text NOT NULL CHECK (kind IN ('human', 'bot')),
        name text NOT NULL DEFAULT '',
        account_id text,
        process text,
        member text,
        PRIMARY KEY (table_id, seat),
        UNIQUE (table_id, account_id)
    )""",
)

#: ``{N: statements}``: the statements that turn schema N-1 into schema N.
STEPS: dict[int, tuple[str, ...]] = {1: _V1, 2: _V2, 3: ratings.SCHEMA, 4: names.SCHEMA}


async def schema_version(conn: psycopg.AsyncConnection[tuple[object, ...]]) -> int:
    """The database's schema version (0: momiji never set it up)."""
    cur = await conn.execute("SELECT to_regclass('momiji_schema') IS NOT NULL")
    row = await cur.fetchone()
    if row is None or not row[0]:
        return 0
    cur = await conn.execute("SELECT version FROM momiji_schema")
    row = await cur.fetchone()
    return 0 if row is None else int(str(row[0]))


async def ensure_schema(conn: psycopg.AsyncConnection[tuple[object, ...]]) -> int:
    """Create or migrate the tables to :data:`SCHEMA_VERSION`; a no-op when
    they are current. Returns the version found before. Raises
    :class:`NewerSchema` (nothing changed) if the database is newer, and
    ``psycopg.Error`` if the server refuses (e.g. no right to create tables)."""
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_KEY,))
        found = await schema_version(conn)
        if found > SCHEMA_VERSION:
            raise NewerSchema(found, SCHEMA_VERSION)
        if found == 0:
            await conn.execute("CREATE TABLE momiji_schema (only_row boolean PRIMARY KEY DEFAULT true "
                               "CHECK (only_row), version integer NOT NULL, changed timestamptz NOT NULL)")
            await conn.execute("INSERT INTO momiji_schema (version, changed) VALUES (0, now())")
        for version in range(found + 1, SCHEMA_VERSION + 1):
            for statement in STEPS[version]:
                await conn.execute(statement)
            await conn.execute("UPDATE momiji_schema SET version = %s, changed = now()", (version,))
    return found
