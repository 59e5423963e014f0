"""Test-wide settings: seeded hypothesis profiles and an isolated data directory.

No test may touch the real home or data directory: every test gets its own
``MOMIJI_DATA_DIR``, ``MOMIJI_CONFIG_DIR`` and ``HOME`` under pytest's tmp_path.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    deadline=None,
    derandomize=True,
    max_examples=40,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
settings.register_profile(
    "dev",
    deadline=None,
    derandomize=True,
    max_examples=40,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture(autouse=True)
def isolated_dirs(tmp_path, monkeypatch):
    """Point the data directory and HOME at a per-test temporary folder."""
    data = tmp_path / "momiji-data"
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("MOMIJI_DATA_DIR", str(data))
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    # The settings file (store/settings_file.py), on every platform: never the real config folder.
    monkeypatch.setenv("MOMIJI_CONFIG_DIR", str(home / ".config" / "momiji-tui"))
    return data


@pytest.fixture
def a_terminal(monkeypatch):
    """The CLI's full-screen commands (play, resume, replay) run as if stdin
    and stdout were a terminal, for tests that keep the app from running
    (under pytest both are captured, and the CLI would refuse with exit 2)."""
    from momiji_tui import cli

    monkeypatch.setattr(cli, "_refuse_without_terminal", lambda: False)


@pytest.fixture(autouse=True)
def no_real_database(monkeypatch):
    """No test reaches a real PostgreSQL through the environment;
    the database tests pass the throw-away cluster's URL (tests/db/conftest.py)."""
    monkeypatch.delenv("MOMIJI_DATABASE_URL", raising=False)


@pytest.hookimpl(optionalhook=True)  # xdist's hook: pytest -p no:xdist still runs
def pytest_xdist_auto_num_workers(config):
    """``-n auto``: one worker more than the cores this process may use
    (``PYTEST_XDIST_AUTO_NUM_WORKERS`` still decides when set).

    Part of the suite waits rather than computes (SSH servers and
    PostgreSQL starting, subprocesses killed and restarted); one more
    worker keeps the cores busy through those waits. Measured on 2 cores:
    447 s with 2 workers, 406 s with 3 (1916 passed both times)."""
    chosen = os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS")
    if chosen:
        return int(chosen)
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        cores = os.cpu_count() or 1
    return cores + 1


def pytest_collection_modifyitems(config, items):
    """Longest first: the files holding a ``slow`` test (in path order, so
    ``tests/bots`` and its tournament lead), then the others by their number
    of tests (what xdist's own reorder did).

    With ``--dist loadfile --no-loadscope-reorder`` xdist hands out files in
    this order, so the Hard-against-Normal tournament (about half of one
    core's share of the suite) starts at once beside the rest instead of
    last, alone; the suite's wall time nears its CPU time over the cores.
    """
    count: dict[str, int] = {}
    slow: set[str] = set()
    for item in items:
        path = item.nodeid.split("::", 1)[0]
        count[path] = count.get(path, 0) + 1
        if item.get_closest_marker("slow") is not None:
            slow.add(path)
    order = {path: i for i, path in enumerate(count)}

    def key(item):
        path = item.nodeid.split("::", 1)[0]
        if path in slow:
            return (0, 0, order[path])
        return (1, -count[path], order[path])

    items.sort(key=key)
