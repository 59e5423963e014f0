"""The ``momiji`` command line: list, simulate, resume errors, --data-dir."""

from __future__ import annotations

from momiji_tui import cli
from momiji_tui.session.table import BOT, HUMAN, SeatConfig, Table


def test_simulate_prints_a_summary(capsys):
    assert cli.main(["simulate", "--games", "2", "--seats", "3", "--seed", "4", "--bots", "easy"]) == 0
    out = capsys.readouterr().out
    assert "games: 2  seats: 3" in out
    assert "mean scores: seat 1:" in out and "seat 3:" in out
    assert "games/s:" in out


def test_list_shows_games_and_damaged_files_without_stopping(tmp_path, capsys):
    data = tmp_path / "elsewhere"
    table = Table.new([SeatConfig("Ada", HUMAN), SeatConfig("Bot", BOT, "easy")], seed=1, data_dir=data)
    table.close()
    games = data / "games"
    (games / "20200101-000000-abcdef.jsonl").write_text("{not json\n{}\n")
    assert cli.main(["list", "--data-dir", str(data)]) == 0
    out = capsys.readouterr().out
    assert table.game_id in out and "in progress" in out and "Ada, Bot" in out
    assert "20200101-000000-abcdef" in out and "damaged" in out
    # The damaged file was moved aside, never overwritten or deleted.
    assert any(p.name.startswith("20200101-000000-abcdef.jsonl.damaged-") for p in games.iterdir())


def test_data_dir_comes_from_the_environment(isolated_dirs, capsys):
    Table.new([SeatConfig("Ada", HUMAN), SeatConfig("Bot", BOT, "easy")], seed=2, data_dir=isolated_dirs).close()
    assert cli.main(["list"]) == 0
    assert "Ada, Bot" in capsys.readouterr().out


def test_resume_without_games_says_so(capsys):
    assert cli.main(["resume"]) == 1
    assert "no unfinished game" in capsys.readouterr().err


def test_resume_unknown_id_says_so(capsys):
    assert cli.main(["resume", "20200101-000000-abcdef"]) == 1
    assert "No saved game 20200101-000000-abcdef" in capsys.readouterr().err


def test_resume_rejects_a_hostile_id(capsys):
    assert cli.main(["resume", "../../etc/passwd"]) == 1
    assert capsys.readouterr().err
