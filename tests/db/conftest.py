"""The database tests' PostgreSQL: one throw-away cluster per test session
(per xdist worker), a fresh database for every test."""

from __future__ import annotations

import asyncio
import itertools
import sys
from pathlib import Path

import psycopg
import pytest

import pg_server

_names = itertools.count(1)


@pytest.fixture(scope="session")
def pg_cluster():
    """The session's cluster (``tests/pg_server.py``), stopped at the end even
    when tests fail. Skips without PostgreSQL, unless MOMIJI_REQUIRE_POSTGRES=1."""
    try:
        cluster = pg_server.start_cluster()
    except pg_server.PostgresMissing as exc:
        if pg_server.required():
            pytest.fail(f"{pg_server.REQUIRE_ENV}=1 but the database tests cannot run: {exc}")
        pytest.skip(f"database tests skipped: {exc}")
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def pg_url(pg_cluster, worker_id):
    """The URL of a database of its own for this test (empty: no schema yet)."""
    name = f"t_{worker_id}_{next(_names)}".replace("-", "_")
    with psycopg.connect(pg_cluster.url(), autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name} TEMPLATE template0")
    return pg_cluster.url(name)


@pytest.fixture
def pg_admin(pg_cluster, pg_url):
    """An autocommit connection to this test's database, as the superuser
    (to look at rows, damage one or end another backend)."""
    with psycopg.connect(pg_url, autocommit=True) as conn:
        yield conn


# -- SSH clients for the end-to-end tests of `momiji serve --database` -------------
sys.path.insert(0, str(Path(__file__).parent.parent / "ssh"))  # ssh_harness: the SSH tests' own clients

from ssh_harness import TIMEOUT, open_connection, open_terminal  # noqa: E402


class Clients:
    """SSH connections and terminals of one test, all closed at teardown (bounded)."""

    def __init__(self) -> None:
        self.terminals: list = []

    async def terminal(self, port: int, size: tuple[int, int] = (80, 24), **options):
        term = await open_terminal(await open_connection(port, **options), size)
        self.terminals.append(term)
        return term

    async def close(self) -> None:
        for term in self.terminals:
            await asyncio.wait_for(term.close(), TIMEOUT)
            term.conn.abort()


@pytest.fixture
async def clients():
    opened = Clients()
    yield opened
    await opened.close()
