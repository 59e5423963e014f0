"""The index of saves kept beside them: the saved games, Continue and
``momiji list`` read one row per game from it while the file is the one the
row was made from, and read the file again otherwise (never trusting the
index over the files)."""

from __future__ import annotations

import json
import os

import momiji_tui.session.saves as saves_module
from momiji_tui.session.saves import describe_saved_games, indexed_games, unfinished_games
from momiji_tui.store.library import INDEX_NAME

from saves_helpers import saved_game


def _count_loads(monkeypatch) -> list:
    loads: list = []
    real = saves_module.load_saved

    def counting(path, *args, **kwargs):
        loads.append(path.name)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(saves_module, "load_saved", counting)
    return loads


def test_a_second_look_reads_no_save_and_gives_the_same_rows(isolated_dirs, monkeypatch):
    saved_game(isolated_dirs, seed=1, commands=4)
    saved_game(isolated_dirs, seed=2)
    first = describe_saved_games(isolated_dirs)
    loads = _count_loads(monkeypatch)
    assert describe_saved_games(isolated_dirs) == first and loads == []
    assert [g.game_id for g in unfinished_games(isolated_dirs)] == [r.game_id for r in first
                                                                    if r.status == "in progress"]
    assert unfinished_games(isolated_dirs)[0].header["seats"][0]["name"] == "Ada"


def test_a_save_replaced_or_changed_is_read_again(isolated_dirs, monkeypatch):
    path = saved_game(isolated_dirs, seed=1, commands=4)
    before = describe_saved_games(isolated_dirs)[0]
    longer = saved_game(isolated_dirs / "other", seed=1, commands=10)
    data = longer.read_bytes()
    copy = path.with_name("copy.tmp")
    copy.write_bytes(data)
    os.replace(copy, path)  # the same name, another file (a sync tool)
    loads = _count_loads(monkeypatch)
    after = describe_saved_games(isolated_dirs)[0]
    assert loads == [path.name] and after.turn != before.turn


def test_a_damaged_or_hostile_index_is_rebuilt_or_shown_escaped(isolated_dirs):
    saved_game(isolated_dirs, seed=1, commands=4)
    rows = describe_saved_games(isolated_dirs)
    index = isolated_dirs / "games" / INDEX_NAME
    data = json.loads(index.read_text())
    entry = next(iter(data["games"].values()))
    entry["seats"] = "\x1b]2;PWNED\x07"
    index.write_text(json.dumps(data))
    assert "\x1b" not in describe_saved_games(isolated_dirs)[0].seats  # a hint, shown escaped if at all
    index.write_bytes(b"{not json")
    assert describe_saved_games(isolated_dirs) == rows  # rebuilt from the files
    index.unlink()
    os.mkfifo(index)  # never waited on
    assert describe_saved_games(isolated_dirs) == rows


def test_a_read_only_games_folder_still_lists(isolated_dirs, monkeypatch):
    saved_game(isolated_dirs, seed=1, commands=4)
    monkeypatch.setattr(saves_module, "write_index", lambda *a: False)
    assert [p.status for p, _ in indexed_games(isolated_dirs)] == ["in progress"]
