"""The throw-away PostgreSQL of the database tests (tests/pg_server.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

import pg_server
from bench import pg_cluster as bench_pg


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
    monkeypatch.setattr(bench_pg.shutil, "which", lambda name: None)
    monkeypatch.setattr(bench_pg.glob, "glob", lambda pattern: [])
    with pytest.raises(pg_server.PostgresMissing, match="install the 'postgresql' package"):
        pg_server.find_bindir()
    monkeypatch.setenv(pg_server.REQUIRE_ENV, "1")
    assert pg_server.required()
    monkeypatch.setenv(pg_server.REQUIRE_ENV, "0")
    assert not pg_server.required()


def test_the_cluster_is_stopped_and_removed_even_when_tests_fail(tmp_path):
    """A failing run still ends with the server stopped and its files gone."""
    db_tests = Path(__file__).resolve().parent
    (tmp_path / "conftest.py").write_text(
        "import importlib.util, sys\n"
        f"sys.path[:0] = [{str(db_tests.parent.parent)!r}, {str(db_tests.parent)!r}, {str(db_tests)!r}]\n"
        f"spec = importlib.util.spec_from_file_location('db_conftest', {str(db_tests / 'conftest.py')!r})\n"
        "db_conftest = importlib.util.module_from_spec(spec); spec.loader.exec_module(db_conftest)\n"
        "pg_cluster, pg_url = db_conftest.pg_cluster, db_conftest.pg_url\n")
    (tmp_path / "test_fails.py").write_text(
        "def test_fails(pg_cluster, pg_url):\n"
        f"    open({str(tmp_path / 'root')!r}, 'w').write(str(pg_cluster.root) + ' ' + pg_cluster.url())\n"
        "    assert False, 'on purpose'\n")
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider",
                             "--rootdir", str(tmp_path), str(tmp_path / "test_fails.py")],
                            capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert result.returncode == 1 and "on purpose" in result.stdout, result.stdout[-2000:]
    root, url = (tmp_path / "root").read_text().split(" ")
    assert Path(root).name.startswith("momiji-pg-") and not Path(root).exists()
    with pytest.raises(psycopg.OperationalError):  # nobody listens there any more
        psycopg.connect(url, connect_timeout=10)
