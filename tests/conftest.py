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


@pytest.fixture(autouse=True)
def no_real_database(monkeypatch):
    """Issue 15: no test reaches a real PostgreSQL through the environment;
    the database tests pass the throw-away cluster's URL (tests/db/conftest.py)."""
    monkeypatch.delenv("MOMIJI_DATABASE_URL", raising=False)
