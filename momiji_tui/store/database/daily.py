"""The daily deal's records on PostgreSQL (schema version 3,
:mod:`.schema`): the same :class:`~momiji_tui.store.daily.DailyStore` as
the files, so every host on one database agrees on the secret, on who has
played which day and on the boards.

- ``daily_secret``: one row, the secret (32 bytes), inserted by whichever
  host needs it first (``ON CONFLICT DO NOTHING``; then everyone reads it).
- ``daily_plays``: ``PRIMARY KEY (day, account_id)``: a claim is an INSERT
  that does nothing when the account has played that day, so of two
  sessions (on any hosts) exactly one gets the deal.
"""

from __future__ import annotations

import secrets
from datetime import date
from typing import Any

from ..daily import SECRET_BYTES, DailyPlay
from .games import Connection
from .sync import SyncGameStore


class DatabaseDailyStore:
    """:class:`~momiji_tui.store.daily.DailyStore` on the database of ``store``
    (its calls raise ``psycopg.Error`` when the database fails)."""

    def __init__(self, store: SyncGameStore) -> None:
        self.store = store

    def secret(self) -> bytes:
        """See ``DailyStore``."""
        fresh = secrets.token_bytes(SECRET_BYTES)

        async def query(conn: Connection) -> bytes:
            await conn.execute("INSERT INTO daily_secret (secret) VALUES (%s) ON CONFLICT DO NOTHING", (fresh,))
            cur = await conn.execute("SELECT secret FROM daily_secret")
            row = await cur.fetchone()
            assert row is not None  # inserted just now or before
            return bytes(row[0])

        return self.store.run(query)

    def claim(self, play: DailyPlay) -> bool:
        """See ``DailyStore``."""
        async def query(conn: Connection) -> bool:
            cur = await conn.execute(
                "INSERT INTO daily_plays (day, account_id, name, game_id) VALUES (%s, %s, %s, %s)"
                " ON CONFLICT (day, account_id) DO NOTHING",
                (play.day, play.account_id, play.name, play.game_id))
            return cur.rowcount == 1

        return self.store.run(query)

    def release(self, day: date, account_id: str) -> None:
        """See ``DailyStore``."""
        async def query(conn: Connection) -> None:
            await conn.execute("DELETE FROM daily_plays WHERE day = %s AND account_id = %s", (day, account_id))

        self.store.run(query)

    def record_score(self, day: date, account_id: str, score: int) -> None:
        """See ``DailyStore``."""
        async def query(conn: Connection) -> None:
            await conn.execute("UPDATE daily_plays SET score = %s WHERE day = %s AND account_id = %s",
                               (score, day, account_id))

        self.store.run(query)

    def plays(self, first: date, last: date) -> list[DailyPlay]:
        """See ``DailyStore``."""
        return self._select("WHERE day BETWEEN %s AND %s ORDER BY day, account_id", (first, last))

    def history(self, account_id: str) -> list[DailyPlay]:
        """See ``DailyStore``."""
        return self._select("WHERE account_id = %s ORDER BY day DESC", (account_id,))

    def _select(self, where: str, params: tuple[Any, ...]) -> list[DailyPlay]:
        async def query(conn: Connection) -> list[DailyPlay]:
            cur = await conn.execute(f"SELECT day, account_id, name, game_id, score FROM daily_plays {where}", params)
            return [DailyPlay(r[0], str(r[1]), str(r[2]), str(r[3]), None if r[4] is None else int(r[4]))
                    for r in await cur.fetchall()]

        return self.store.run(query)
