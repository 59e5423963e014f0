"""The ``momiji`` command line: list, simulate, resume errors, --data-dir."""

from __future__ import annotations

import json

import pytest

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


def test_resume_without_games_says_so(capsys, a_terminal):
    assert cli.main(["resume"]) == 1
    assert "no unfinished game" in capsys.readouterr().err


def test_resume_unknown_id_says_so(capsys, a_terminal):
    assert cli.main(["resume", "20200101-000000-abcdef"]) == 1
    assert "No saved game 20200101-000000-abcdef" in capsys.readouterr().err


def test_resume_rejects_a_hostile_id(capsys, a_terminal):
    assert cli.main(["resume", "../../etc/passwd"]) == 1
    assert capsys.readouterr().err


# ------------------------------------------------ seeds and counts


TINY = ["--games", "2", "--mode", "starter", "--bots", "easy,easy:"]  # fast even where it was not refused


def usage_error(capsys, argv: list[str]) -> str:
    """Run ``momiji argv``; assert argparse refused it (exit 2); return stderr."""
    with pytest.raises(SystemExit) as exc:
        cli.main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: momiji") and "Traceback" not in err
    return err


@pytest.mark.parametrize("argv", [
    ["play", "--seed", "-7"], ["--seed", "-7"], ["simulate", "--seed", "-1"],
    ["tournament", "--seed", "-4", "--games", "16", "--bots", "easy,easy:", "--mode", "starter"],
])
def test_rules_2_a_negative_seed_is_a_usage_error(capsys, monkeypatch, argv):
    from momiji_tui.ui.app import MomijiApp

    monkeypatch.setattr(MomijiApp, "run", lambda self: None)  # never open a terminal app in a test
    err = usage_error(capsys, argv)
    assert "--seed" in err and "0 or more" in err


@pytest.mark.parametrize(("argv", "option"), [
    (["simulate", "--games", "-3"], "--games"),
    (["simulate", "--games", "0"], "--games"),
    (["simulate", "--games", "many"], "--games"),
    (["simulate", "--seats", "5"], "--seats"),
    (["tournament", "--games", "0"], "--games"),
    (["tournament", *TINY, "--seats", "5"], "--seats"),
    (["tournament", *TINY, "--seats", "1"], "--seats"),
    (["tournament", *TINY, "--jobs", "0"], "--jobs"),
    (["tournament", *TINY, "--iterations", "0"], "--iterations"),
    (["tournament", *TINY, "--time-limit", "-1"], "--time-limit"),
    (["tournament", *TINY, "--bots", " , "], "--bots"),
    (["tournament", *TINY, "--bots", "nonsense,easy"], "--bots"),
    (["tournament", *TINY, "--bots", "hard:iterations=many"], "--bots"),
])
def test_counts_out_of_range_are_usage_errors(capsys, argv, option):
    err = usage_error(capsys, argv)
    assert option in err


def test_tiny_tournament_from_the_cli_plays_distinct_deals(capsys):
    assert cli.main(["tournament", "--bots", "easy,easy:", "--games", "2", "--seats", "2", "--seed", "0",
                     "--mode", "starter", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 2 and data["deals"] == 1


def test_simulate_refuses_nothing_to_play_and_negative_seeds():
    from momiji_tui.session.simulate import simulate

    with pytest.raises(ValueError, match="at least 1 game"):
        simulate(games=-3, seats=2)
    with pytest.raises(ValueError, match="0 or more"):
        simulate(games=1, seats=2, seed=-1)


@pytest.mark.parametrize(("argv", "usage"), [
    (["export", "only-an-id"], "usage: momiji export "),
    (["import"], "usage: momiji import "),
])
def test_a_misused_command_prints_its_own_usage(capsys, argv, usage):
    assert usage_error(capsys, argv).startswith(usage)
