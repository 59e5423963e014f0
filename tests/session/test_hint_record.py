"""Hints in the save: a ``HintShown`` is saved like a move, and a
save that may hold one is format 5, which an older momiji refuses as newer."""

from __future__ import annotations

from pathlib import Path

import pytest

from momiji_tui import engine
from momiji_tui.engine.events import HintShown
from momiji_tui.session.table import BOT, HUMAN, SeatConfig, Table, validate_log
from momiji_tui.store import NewerFormat, load
from momiji_tui.store import log as store_log

SEATS = [SeatConfig("Aki", HUMAN), SeatConfig("Kaede", BOT, "easy")]


def test_a_hint_is_saved_and_counted_when_the_game_is_read_again(isolated_dirs):
    table = Table.new(SEATS, seed=5, data_dir=isolated_dirs)
    heard: list = []
    table.subscribe(heard.append)
    table.record([HintShown(0, 57)])
    assert table.state.hints == (1, 0) and heard == [[HintShown(0, 57)]]
    table.close()
    loaded = load(table.log.path, validate_log)
    assert loaded.events[-1] == {"type": "HintShown", "seat": 0, "win_percent": 57}
    assert engine.fold(engine.from_dict(e) for e in loaded.events).hints == (1, 0)


def test_a_momiji_of_format_4_refuses_a_save_with_hints_as_newer(isolated_dirs, monkeypatch):
    table = Table.new(SEATS, seed=5, data_dir=isolated_dirs)
    table.record([HintShown(0, 57)])
    table.close()
    monkeypatch.setattr(store_log, "CURRENT_FORMAT_VERSION", 4)  # a momiji that reads format 4
    with pytest.raises(NewerFormat, match="newer momiji-tui"):
        load(table.log.path)


V5 = Path(__file__).parent.parent / "saves" / "fixtures" / "format-v5.jsonl"


def test_momiji_list_and_the_replay_say_a_game_used_hints(isolated_dirs, capsys):
    from momiji_tui.cli import main
    from momiji_tui.session.replay import Replay
    from momiji_tui.session.saves import describe_saved_games
    from momiji_tui.store import import_game

    import_game(isolated_dirs, V5, validate_log)
    (row,) = describe_saved_games(isolated_dirs)
    assert row.hints == "hints: 2"
    assert main(["list", "--data-dir", str(isolated_dirs)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].endswith("hints: 2") and "hints" not in lines[0]
    assert Replay.from_dicts(load(V5).events).hints_used == 2


def test_a_game_without_hints_says_nothing_of_them(isolated_dirs):
    from momiji_tui.session.saves import describe_saved_games

    table = Table.new(SEATS, seed=5, data_dir=isolated_dirs)
    table.close()
    (row,) = describe_saved_games(isolated_dirs)
    assert row.hints == ""
