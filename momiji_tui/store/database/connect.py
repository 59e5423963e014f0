"""Connecting to the database: the URL, and every failure as one clear line.

A URL is ``postgresql://USER[:PASSWORD]@HOST[:PORT]/DBNAME`` (``postgres://``
too), given by ``--database`` or the ``MOMIJI_DATABASE_URL`` environment
variable. Errors never show the password: the place is named as
``HOST:PORT/DBNAME``.
"""

from __future__ import annotations

import os
import re

import psycopg
from psycopg.conninfo import conninfo_to_dict

from ..errors import DatabaseUnavailable

ENV_VAR = "MOMIJI_DATABASE_URL"
SCHEMES = ("postgresql://", "postgres://")
#: Seconds to wait for the server to answer a connection (libpq's ``connect_timeout``).
CONNECT_TIMEOUT = 10


def database_url(override: str | None = None) -> str | None:
    """The database URL: ``override`` if given, else ``$MOMIJI_DATABASE_URL``
    if set and non-empty, else None (the file store)."""
    if override:
        return override
    return os.environ.get(ENV_VAR) or None


def where(url: str) -> str:
    """``HOST:PORT/DBNAME`` of ``url`` (no user, no password), for messages.
    Raises :class:`DatabaseUnavailable` if it is not a PostgreSQL URL."""
    if not url.startswith(SCHEMES):
        raise DatabaseUnavailable("The database URL must look like postgresql://USER@HOST:PORT/DBNAME "
                                  f"(it begins with {url.split(':', 1)[0]!r}).")
    try:
        parts = conninfo_to_dict(url)
    except psycopg.ProgrammingError as exc:
        raise DatabaseUnavailable(f"The database URL is not valid: {one_line(str(exc))}.") from None
    host = str(parts.get("host") or "localhost")
    port = str(parts.get("port") or "5432")
    return f"{host}:{port}/{parts.get('dbname') or parts.get('user') or ''}"


def one_line(text: str) -> str:
    """A driver's message on one line, without libpq's ``connection failed:``
    prefix and its trailing hints; never longer than 300 characters."""
    text = re.sub(r"\s+", " ", text).strip().rstrip(".")
    text = re.sub(r"^connection (?:failed|is bad): ", "", text)
    text = re.sub(r"^connection to server at \"[^\"]*\" ?(?:\([^)]*\))?, port \d+ failed: ", "", text)
    text = text.split(" Is the server running", 1)[0].rstrip(".")
    return text[:300]


async def open_connection(url: str, *, autocommit: bool = False) -> psycopg.AsyncConnection[tuple[object, ...]]:
    """An asyncio connection to ``url``. Raises :class:`DatabaseUnavailable`
    (one line: where, and why) for a bad URL, a server that does not answer
    or refuses the login."""
    place = where(url)
    try:
        return await psycopg.AsyncConnection.connect(url, autocommit=autocommit, connect_timeout=CONNECT_TIMEOUT)
    except psycopg.Error as exc:
        raise DatabaseUnavailable(f"Could not connect to the database at {place}: {one_line(str(exc))}.") from None
