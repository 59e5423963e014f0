"""The migration chain: old formats are upgraded step by step on load.

Format 1 is the first real format, so these tests install a fake format-0
step (``MIGRATIONS[0]``) where events said ``"kind"`` instead of ``"type"``
and the header said ``"players"`` instead of ``"seats"``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from momiji_tui.store import DamagedLog, GameLog, import_game, load
from momiji_tui.store import log as log_module

from store_helpers import GAME_A, raw_lines

FIXTURES = Path(__file__).parent / "fixtures"
V0_HEADER = {"format": "momiji-log", "format_version": 0, "rules_version": "1.0", "game_id": GAME_A,
             "created": "2026-01-02T03:04:05+00:00", "players": ["human", "bot"], "seed": None}
V0_EVENTS = [{"kind": "GameCreated"}, {"kind": "CardsPlayed", "cards": [1]}]


def v0_to_v1(header, events):
    header = {k: v for k, v in header.items() if k != "players"} | {"seats": header["players"]}
    events = [{("type" if k == "kind" else k): v for k, v in e.items()} for e in events]
    return header, events


@pytest.fixture
def v0_file(tmp_path) -> Path:
    path = tmp_path / f"{GAME_A}.jsonl"
    path.write_bytes(raw_lines(V0_HEADER, *V0_EVENTS))
    return path


def test_the_chain_has_no_gaps_up_to_the_current_version():
    current = log_module.CURRENT_FORMAT_VERSION
    oldest = min(log_module.MIGRATIONS, default=current)
    assert all(v in log_module.MIGRATIONS for v in range(oldest, current))
    assert all(v < current for v in log_module.MIGRATIONS)


def test_old_format_without_a_step_is_damaged(v0_file):
    with pytest.raises(DamagedLog, match="save format 0, which this version cannot read"):
        load(v0_file)


def test_old_format_is_migrated_on_load(v0_file, monkeypatch):
    monkeypatch.setitem(log_module.MIGRATIONS, 0, v0_to_v1)
    before = v0_file.read_bytes()
    loaded = load(v0_file)
    assert loaded.disk_version == 0
    assert loaded.header["format_version"] == log_module.CURRENT_FORMAT_VERSION
    assert loaded.header["seats"] == ["human", "bot"] and "players" not in loaded.header
    assert loaded.events == [{"type": "GameCreated"}, {"type": "CardsPlayed", "cards": [1]}]
    assert v0_file.read_bytes() == before  # load never writes


def test_a_step_that_yields_a_bad_result_is_damage(v0_file, monkeypatch):
    monkeypatch.setitem(log_module.MIGRATIONS, 0, lambda header, events: (header, events))
    with pytest.raises(DamagedLog):  # still no "seats", still no "type"
        load(v0_file)


def test_steps_run_in_order_up_to_the_current_version(monkeypatch):
    ran = []

    def step(n):
        def migrate(header, events):
            ran.append((n, header["format_version"]))
            return header | {"trail": header.get("trail", []) + [n]}, events
        return migrate

    monkeypatch.setattr(log_module, "CURRENT_FORMAT_VERSION", 3)
    monkeypatch.setattr(log_module, "MIGRATIONS", {1: step(1), 2: step(2)})
    loaded = load(FIXTURES / "v1-game.jsonl")
    assert ran == [(1, 1), (2, 2)]
    assert (loaded.header["trail"], loaded.header["format_version"], loaded.disk_version) == ([1, 2], 3, 1)


def test_appending_to_an_old_file_upgrades_it_first_and_keeps_a_backup(v0_file, monkeypatch):
    monkeypatch.setitem(log_module.MIGRATIONS, 0, v0_to_v1)
    original = v0_file.read_bytes()
    with v0_file.open("ab") as f:
        f.write(b'{"kind":"Tor')  # a torn tail is not carried into the upgraded file
    with GameLog.open_for_append(v0_file) as log:
        log.append({"type": "TurnEnded"})
    loaded = load(v0_file)
    assert loaded.disk_version == log_module.CURRENT_FORMAT_VERSION and loaded.warnings == []
    assert [e["type"] for e in loaded.events] == ["GameCreated", "CardsPlayed", "TurnEnded"]
    assert v0_file.with_name(f"{v0_file.name}.v0-backup").read_bytes() == original


def test_import_migrates_too(v0_file, monkeypatch, isolated_dirs):
    monkeypatch.setitem(log_module.MIGRATIONS, 0, v0_to_v1)
    copy = shutil.copy(v0_file, v0_file.with_name("from-a-friend.jsonl"))
    assert import_game(isolated_dirs, copy) == GAME_A
    assert load(isolated_dirs / "games" / f"{GAME_A}.jsonl").disk_version == log_module.CURRENT_FORMAT_VERSION


def test_a_step_that_fails_on_an_odd_old_file_is_damage(v0_file, monkeypatch):
    v0_file.write_bytes(raw_lines({k: v for k, v in V0_HEADER.items() if k != "players"}, *V0_EVENTS))
    monkeypatch.setitem(log_module.MIGRATIONS, 0, v0_to_v1)  # needs "players": KeyError
    with pytest.raises(DamagedLog, match="could not be upgraded from save format 0"):
        load(v0_file)
