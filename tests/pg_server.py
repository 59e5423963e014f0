"""A throw-away PostgreSQL cluster for the database tests.

Started by ``bench/pg_cluster.py`` (the bench's cluster, one code for both:
the machine's ``initdb``/``pg_ctl``, as ``postgres`` through ``runuser``
when we are root, a temp dir, a free loopback port, ``fsync=off``; about 2 s
to start), with the tests' own password and temp-dir name. ``bench`` is
imported from the repository root, which pytest puts on its path
(``pythonpath`` in pyproject.toml), whatever the directory pytest runs in.

TCP connections need a password (scram), so a test can also try a wrong one;
the socket is ``trust``. Nothing here opens a connection beyond loopback, and
no real database is ever used: the cluster lives and dies with the session.

Without the binaries the tests skip with a reason; with
``MOMIJI_REQUIRE_POSTGRES=1`` (CI) they fail instead.
"""

from __future__ import annotations

import os
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from bench import pg_cluster
from bench.pg_cluster import USER, free_port

__all__ = ["REQUIRE_ENV", "PASSWORD", "USER", "PgCluster", "PostgresMissing", "find_bindir", "free_port",
           "required", "start_cluster"]

REQUIRE_ENV = "MOMIJI_REQUIRE_POSTGRES"
PASSWORD = "momiji-test-password"
PostgresMissing = pg_cluster.PostgresMissing
"""The PostgreSQL server binaries are not on this machine."""


def required() -> bool:
    """True when the database tests must run (CI): missing binaries then fail."""
    return os.environ.get(REQUIRE_ENV, "") not in ("", "0")


def find_bindir() -> Path:
    """The folder holding ``initdb`` and ``pg_ctl``. Raises :class:`PostgresMissing`
    (saying how to install them to run the database tests)."""
    try:
        return pg_cluster.find_bindir()
    except PostgresMissing as exc:
        raise PostgresMissing(f"{exc} to run the database tests") from None


@dataclass
class PgCluster:
    """A running throw-away cluster: ``url(dbname)`` gives a connection URL."""

    running: pg_cluster.Cluster
    exits: ExitStack

    @property
    def data(self) -> Path:
        return self.running.data

    @property
    def root(self) -> Path:
        return self.running.data.parent

    @property
    def port(self) -> int:
        port = urlsplit(self.running.url).port
        assert port is not None
        return port

    def url(self, dbname: str = "postgres", password: str = PASSWORD) -> str:
        return f"postgresql://{USER}:{password}@127.0.0.1:{self.port}/{dbname}"

    def stop(self) -> None:
        """Stop the server at once (``-m immediate``) and remove its files."""
        self.exits.close()


def start_cluster() -> PgCluster:
    """initdb + pg_ctl start on a fresh temp dir (``momiji-pg-…``). Raises
    :class:`PostgresMissing` without the binaries, ``RuntimeError`` (with the
    server's log) if it does not start."""
    find_bindir()
    exits = ExitStack()
    running = exits.enter_context(pg_cluster.cluster(password=PASSWORD, prefix="momiji-pg-"))
    return PgCluster(running, exits)
