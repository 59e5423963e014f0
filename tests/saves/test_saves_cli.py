"""``momiji list / resume / replay / delete / export / import`` (through ``cli.main``)."""

from __future__ import annotations

import io
import re

import pytest
from saves_helpers import saved_game

from momiji_tui import cli
from momiji_tui.session.saves import describe_saved_games
from momiji_tui.session.table import Table
from momiji_tui.store import load
from momiji_tui.ui.app import MomijiApp


@pytest.fixture
def opened(monkeypatch, a_terminal) -> list[MomijiApp]:
    """Apps the CLI would have run (nothing is shown)."""
    apps: list[MomijiApp] = []
    monkeypatch.setattr(MomijiApp, "run", lambda self, *a, **k: apps.append(self))
    return apps


@pytest.fixture
def two_games(isolated_dirs):
    finished = saved_game(isolated_dirs, seed=1)
    ongoing = saved_game(isolated_dirs, seed=2, commands=7)
    return isolated_dirs, finished, ongoing


def no_stdin(monkeypatch):
    class Refuse(io.StringIO):
        def readline(self, *a):
            raise AssertionError("stdin was read")

    monkeypatch.setattr("sys.stdin", Refuse())


def test_list_shows_id_started_status_turn_scores_and_seats(two_games, capsys):
    data, finished, ongoing = two_games
    assert cli.main(["list"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["game", "started", "played", "status", "turn", "scores", "seats"]
    rows = {r.game_id: r for r in describe_saved_games(data)}
    done, going = rows[finished.stem], rows[ongoing.stem]
    line = next(x for x in out if x.startswith(finished.stem))
    assert "finished" in line and done.turn.startswith("ended, round ") and done.turn in line
    assert done.scores in line and " · " in done.scores and line.endswith("Ada, Bo (easy)")
    assert done.started[:4].isdigit() and done.started in line
    line = next(x for x in out if x.startswith(ongoing.stem))
    assert "in progress" in line and re.fullmatch(r"round \d+, turn \d+", going.turn) and going.turn in line


def test_list_without_games(capsys):
    assert cli.main(["list"]) == 0
    assert capsys.readouterr().out.strip() == "No saved games."


def test_resume_without_id_opens_the_latest_unfinished_game(two_games, opened):
    data, _finished, ongoing = two_games
    assert cli.main(["resume"]) == 0
    (app,) = opened
    assert app._start_resume == ongoing and app.data_dir == data


def test_resume_by_id_opens_that_game_even_finished(two_games, opened):
    _, finished, _ = two_games
    assert cli.main(["resume", finished.stem]) == 0
    assert opened[0]._start_resume == finished


def test_resume_of_a_damaged_game_says_why_and_opens_nothing(two_games, opened, capsys):
    _, _, ongoing = two_games
    ongoing.write_bytes(ongoing.read_bytes() + b"{oops\n")
    assert cli.main(["resume", ongoing.stem]) == 1
    assert "Line " in capsys.readouterr().err and not opened
    # the latest unfinished one is now damaged: nothing else to resume
    assert cli.main(["resume"]) == 1
    assert "no unfinished game" in capsys.readouterr().err and not opened


def test_resume_of_a_game_moved_aside_says_so(two_games, opened, capsys):
    data, _, ongoing = two_games
    ongoing.write_bytes(b"")
    describe_saved_games(data)  # lists it, moves it aside
    assert cli.main(["resume", ongoing.stem]) == 1
    assert "was damaged and moved aside as " in capsys.readouterr().err and not opened


def test_replay_opens_the_replay_screen(two_games, opened, capsys):
    _, finished, _ = two_games
    assert cli.main(["replay", finished.stem]) == 0
    assert opened[0]._start_replay == finished and opened[0]._start_resume is None
    assert cli.main(["replay", "20200101-000000-abcdef"]) == 1
    assert "No saved game 20200101-000000-abcdef" in capsys.readouterr().err
    assert cli.main(["replay", "../x"]) == 1 and len(opened) == 1


def test_delete_asks_first(two_games, monkeypatch, capsys):
    data, finished, _ = two_games
    for answer in ("n\n", "\n", ""):  # no, just Enter, end of input: nothing is deleted
        monkeypatch.setattr("sys.stdin", io.StringIO(answer))
        assert cli.main(["delete", finished.stem]) == 1
        out = capsys.readouterr().out
        assert f"Delete saved game {finished.stem} (finished, Ada, Bo (easy))? This cannot be undone. [y/N]" in out
        assert "Nothing was deleted." in out and finished.exists()
    monkeypatch.setattr("sys.stdin", io.StringIO("y\n"))
    assert cli.main(["delete", finished.stem]) == 0
    assert f"Deleted {finished.stem}." in capsys.readouterr().out
    assert not finished.exists() and len(describe_saved_games(data)) == 1


def test_delete_of_a_game_open_for_play_is_refused_before_asking(two_games, monkeypatch, capsys):
    _, _, ongoing = two_games
    other = Table.resume(ongoing, holder="another terminal")
    try:
        monkeypatch.setattr("sys.stdin", io.StringIO("y\n"))
        assert cli.main(["delete", ongoing.stem]) == 1
    finally:
        other.close()
    out, err = capsys.readouterr()
    assert "cannot be undone" not in out and "already open for play" in err and ongoing.exists()


def test_delete_yes_skips_the_question(two_games, monkeypatch, capsys):
    _, _, ongoing = two_games
    no_stdin(monkeypatch)
    assert cli.main(["delete", "--yes", ongoing.stem]) == 0
    assert not ongoing.exists()
    assert cli.main(["delete", "--yes", ongoing.stem]) == 1
    assert f"No saved game {ongoing.stem}" in capsys.readouterr().err


def test_delete_can_remove_a_damaged_game(two_games, monkeypatch, capsys):
    _, _, ongoing = two_games
    ongoing.write_bytes(b"{}\n")
    monkeypatch.setattr("sys.stdin", io.StringIO("yes\n"))
    assert cli.main(["delete", ongoing.stem]) == 0
    assert "(damaged)" in capsys.readouterr().out and not ongoing.exists()


def test_export_copies_byte_for_byte_and_never_overwrites(two_games, tmp_path, capsys):
    _, finished, _ = two_games
    dest = tmp_path / "out" / "mine.jsonl"
    dest.parent.mkdir()
    assert cli.main(["export", finished.stem, str(dest)]) == 0
    assert dest.read_bytes() == finished.read_bytes()
    assert f"Exported {finished.stem} to {dest}." in capsys.readouterr().out
    dest.write_bytes(b"keep me")
    assert cli.main(["export", finished.stem, str(dest)]) == 1
    assert "already exists" in capsys.readouterr().err and dest.read_bytes() == b"keep me"
    assert cli.main(["export", finished.stem, str(dest.parent)]) == 0  # into a folder, under its id
    assert (dest.parent / finished.name).read_bytes() == finished.read_bytes()
    assert cli.main(["export", "20200101-000000-abcdef", str(dest.parent)]) == 1


def test_import_checks_and_adds_a_game_once(two_games, tmp_path, capsys):
    data, finished, _ = two_games
    other = tmp_path / "other-data"
    assert cli.main(["import", str(finished), "--data-dir", str(other)]) == 0
    assert f"Imported {finished.stem}. Resume it with: momiji resume {finished.stem}" in capsys.readouterr().out
    copy = other / "games" / finished.name
    assert load(copy).events == load(finished).events
    assert cli.main(["import", str(finished), "--data-dir", str(other)]) == 1
    assert "already exists" in capsys.readouterr().err
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(finished.read_bytes() + b'{"type":"AcornsPaid","seat":0,"amount":99,"reason":"x"}\n')
    assert cli.main(["import", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "Could not import" in err and "rules reject this save" in err
    assert cli.main(["import", str(tmp_path / "missing.jsonl")]) == 1
    assert "There is no file" in capsys.readouterr().err
    assert bad.exists() and len(describe_saved_games(data)) == 2  # nothing was added or moved
