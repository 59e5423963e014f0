"""Opening the database store: connect, then create or migrate the schema."""

from __future__ import annotations

import psycopg

from ..errors import DatabaseUnavailable
from .connect import one_line, open_connection, where
from .games import GameStore
from .schema import ensure_schema


async def open_store(url: str) -> GameStore:
    """A :class:`GameStore` on ``url``, its schema current. Raises
    ``DatabaseUnavailable`` (one line) if it cannot connect or the server
    refuses to create the tables, ``NewerSchema`` if the database is newer
    than this momiji (nothing is changed)."""
    conn = await open_connection(url, autocommit=True)
    try:
        await ensure_schema(conn)
    except psycopg.Error as exc:
        await conn.close()
        raise DatabaseUnavailable(f"The database at {where(url)} cannot be set up: {one_line(str(exc))}.") from None
    except BaseException:
        await conn.close()
        raise
    return GameStore(conn)
