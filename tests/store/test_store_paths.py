"""Data dir resolution, game ids, and ids that try to escape the games dir."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import platformdirs
import pytest

from momiji_tui.store import (
    GameLog,
    InvalidGameId,
    check_game_id,
    data_dir,
    delete_game,
    export_game,
    game_path,
    games_dir,
    is_game_id,
    new_game_id,
)

from store_helpers import make_header

HOSTILE = ["../x", "/etc/passwd", "a/b", "", "..", "20260102-030405-00000a/../x",
           "20260102-030405-00000a\n", "20260102-030405-00000A", "x\x00y", None, 42]


def test_data_dir_prefers_override_then_env_then_platformdirs(isolated_dirs, monkeypatch, tmp_path):
    assert data_dir(tmp_path / "mine") == tmp_path / "mine"
    assert data_dir() == isolated_dirs
    monkeypatch.setenv("MOMIJI_DATA_DIR", "")
    assert data_dir() == platformdirs.user_data_path("momiji-tui")
    monkeypatch.delenv("MOMIJI_DATA_DIR")
    assert data_dir() == platformdirs.user_data_path("momiji-tui")


def test_directories_are_created_on_demand_only(isolated_dirs):
    assert not isolated_dirs.exists()  # importing the store and resolving paths made nothing
    assert not games_dir(data_dir(), create=False).exists()
    assert games_dir(data_dir()) == isolated_dirs / "games"
    assert (isolated_dirs / "games").is_dir()


def test_new_game_id_is_deterministic_valid_and_sorts_by_time():
    t0 = datetime(2026, 3, 4, 5, 6, 7, tzinfo=UTC)
    assert new_game_id(t0, random.Random(1)) == new_game_id(t0, random.Random(1))
    assert new_game_id(t0, random.Random(1)).startswith("20260304-050607-")
    ids = [new_game_id(t0 + timedelta(seconds=s), random.Random(99 - s)) for s in (0, 1, 59, 3600, 86400 * 40)]
    assert all(is_game_id(i) for i in ids)
    assert sorted(ids) == ids
    # aware times are converted to UTC; naive ones are taken as UTC
    tokyo = timezone(timedelta(hours=9))
    in_tokyo = datetime(2026, 3, 4, 14, 6, 7, tzinfo=tokyo)
    assert new_game_id(in_tokyo, random.Random(1)) == new_game_id(t0, random.Random(1))
    assert new_game_id(t0.replace(tzinfo=None), random.Random(1)) == new_game_id(t0, random.Random(1))
    assert is_game_id(new_game_id())


@pytest.mark.parametrize("bad", HOSTILE)
def test_hostile_game_ids_are_rejected_everywhere(bad, isolated_dirs, tmp_path):
    assert not is_game_id(bad)
    with pytest.raises(InvalidGameId):
        check_game_id(bad)
    with pytest.raises(InvalidGameId):
        game_path(isolated_dirs, bad)
    with pytest.raises(InvalidGameId):
        delete_game(isolated_dirs, bad)
    with pytest.raises(InvalidGameId):
        export_game(isolated_dirs, bad, tmp_path / "out.jsonl")
    with pytest.raises(ValueError):  # InvalidGameId is a ValueError
        GameLog.create(isolated_dirs, make_header(bad))
    assert list(tmp_path.rglob("*.jsonl")) == []


def test_game_path_stays_in_games_dir(isolated_dirs):
    path = game_path(isolated_dirs, "20260102-030405-00000a")
    assert path == isolated_dirs / "games" / "20260102-030405-00000a.jsonl"
    assert Path(path).resolve().parent == (isolated_dirs / "games").resolve()
