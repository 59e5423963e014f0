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
#: Said when a URL cannot be read; never quotes the URL (it may hold the password).
ENCODE_HINT = ("Percent-encode special characters in the user name and password "
               "(@ as %40, / as %2F, : as %3A, space as %20).")


def database_url(override: str | None = None) -> str | None:
    """The database URL: ``override`` if given, else ``$MOMIJI_DATABASE_URL``
    if set and non-empty, else None (the file store)."""
    if override:
        return override
    return os.environ.get(ENV_VAR) or None


def where(url: str) -> str:
    """``HOST:PORT/DBNAME`` of ``url`` (no user, no password), for messages.
    Raises :class:`DatabaseUnavailable` if it is not a PostgreSQL URL, or
    cannot be read (a password with an unencoded ``@`` or ``/`` would be
    taken in part for the host, port or database): the message never
    quotes the URL."""
    if not url.startswith(SCHEMES):
        raise DatabaseUnavailable("The database URL must look like postgresql://USER@HOST:PORT/DBNAME "
                                  f"(it begins with {url.split(':', 1)[0]!r}).")
    try:
        parts = conninfo_to_dict(url)
    except psycopg.ProgrammingError as exc:  # the driver quotes the URL's text: the password too
        reason = re.sub(r'"[^"]*"', "…", one_line(str(exc)))
        raise DatabaseUnavailable(f"The database URL is not valid: {reason}. {ENCODE_HINT}") from None
    host = str(parts.get("host") or "localhost")
    port = str(parts.get("port") or "5432")
    dbname = str(parts.get("dbname") or parts.get("user") or "")
    if "@" in host + dbname or not re.fullmatch(r"[0-9,]+", port):
        # an unencoded @ or / in the password: part of it was taken for the host, port or database
        raise DatabaseUnavailable(f"The database URL is not valid: its host, port or database name "
                                  f"cannot be read. {ENCODE_HINT}")
    return f"{host}:{port}/{dbname}"


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
