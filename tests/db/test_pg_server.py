"""The throw-away PostgreSQL of the database tests (issue 15, tests/pg_server.py)."""

from __future__ import annotations

import psycopg
import pytest

import pg_server


def test_each_test_gets_a_fresh_database_of_its_own(pg_url, pg_admin):
    pg_admin.execute("CREATE TABLE marker (x int)")
    with psycopg.connect(pg_url) as conn:
        assert conn.execute("SELECT count(*) FROM marker").fetchone() == (0,)
        assert conn.info.host == "127.0.0.1"


def test_the_next_test_does_not_see_the_previous_ones_tables(pg_admin):
    assert pg_admin.execute("SELECT to_regclass('marker')").fetchone() == (None,)


def test_a_wrong_password_is_refused(pg_cluster):
    with pytest.raises(psycopg.OperationalError, match="password authentication failed"):
        psycopg.connect(pg_cluster.url(password="wrong"), connect_timeout=10)


def test_missing_binaries_skip_unless_required(monkeypatch):
    monkeypatch.setattr(pg_server.shutil, "which", lambda name: None)
    monkeypatch.setattr(pg_server.glob, "glob", lambda pattern: [])
    with pytest.raises(pg_server.PostgresMissing, match="install the 'postgresql' package"):
        pg_server.find_bindir()
    monkeypatch.setenv(pg_server.REQUIRE_ENV, "1")
    assert pg_server.required()
    monkeypatch.setenv(pg_server.REQUIRE_ENV, "0")
    assert not pg_server.required()
