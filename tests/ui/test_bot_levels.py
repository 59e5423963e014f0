"""Per-seat bot levels: the new-game form, ``momiji play --bots
hard,normal`` and the saved-games list."""

from __future__ import annotations

import pytest
from fit_helpers import long_game
from textual.widgets import Select, Static

from momiji_tui import cli
from momiji_tui.session.saves import describe_saved_games
from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.models.new_game import NewGameOptions
from momiji_tui.ui.screens.new_game import NewGameScreen
from momiji_tui.ui.screens.replay import ReplayScreen

from helpers import plain, scripted_bot, settle, until_screen


def test_each_bot_seat_gets_its_own_level():
    options = NewGameOptions(seats=3, bot_levels=("normal", "hard"))
    assert [(s.name, s.level) for s in options.seat_configs()[1:]] == [("Kaede", "normal"), ("Ginnan", "hard")]
    assert [s.level for s in NewGameOptions(seats=4, bot_level="easy").seat_configs()[1:]] == ["easy"] * 3
    with pytest.raises(ValueError, match="3 seats need 2 bot level"):
        NewGameOptions(seats=3, bot_levels=("hard",)).seat_configs()


def _captured_app(monkeypatch) -> list[MomijiApp]:
    apps: list[MomijiApp] = []
    monkeypatch.setattr(cli, "_refuse_without_terminal", lambda: False)
    monkeypatch.setattr(cli, "_run_app", lambda app: apps.append(app) or 0)
    return apps


def test_cli_bots_takes_one_level_per_bot_seat(monkeypatch):
    apps = _captured_app(monkeypatch)
    assert cli.main(["play", "--bots", "hard,normal", "--seed", "3"]) == 0
    assert cli.main(["play", "--bots", "easy", "--seats", "4"]) == 0
    first, second = (app._start_new for app in apps)
    assert first is not None and second is not None
    assert [s.level for s in first.seat_configs()] == [None, "hard", "normal"]
    assert [s.level for s in second.seat_configs()] == [None, "easy", "easy", "easy"]


@pytest.mark.parametrize("argv", [["--bots", "hard,normal", "--seats", "4"], ["--bots", "hard,mega"],
                                  ["--bots", "hard,normal,easy,easy"]])
def test_cli_bots_wrong_count_or_name_is_a_usage_error_naming_the_choices(monkeypatch, capsys, argv):
    apps = _captured_app(monkeypatch)
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["play", *argv])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "--bots" in err and "easy, normal, hard" in err
    assert err.startswith("usage: momiji play ")  # play's usage, not the list of commands
    assert apps == []


async def test_new_game_form_sets_a_level_per_bot_seat(isolated_dirs):
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await until_screen(pilot, NewGameScreen)
        form = app.screen
        form.query_one("#seats", Select).value = 3
        await pilot.pause()
        assert [s.display for s in form.query(".bot-level-field")] == [True, True, False]
        form.query_one("#level-1", Select).value = "hard"
        form.query_one("#level-2", Select).value = "easy"
        await pilot.pause()
        assert form.options().seat_configs()[1:] == [
            *NewGameOptions(seats=3, bot_levels=("hard", "easy")).seat_configs()[1:]]
        form.action_start()
        await settle(pilot)
        rows = describe_saved_games(isolated_dirs)
        assert rows[0].seats == "You, Kaede (hard), Ginnan (easy)"


async def test_replay_shows_each_bot_seats_level(isolated_dirs):
    path = long_game(isolated_dirs, commands=4)
    app = MomijiApp(isolated_dirs, bot_delay=0, replay_path=path)
    async with app.run_test(size=(120, 45)) as pilot:
        await until_screen(pilot, ReplayScreen)
        shown = plain(app.screen.query_one("#replay-table", Static))
        assert "Mmmmmmmmmmmmmmmm (hard)" in shown and "Ginnan-Momijigar (easy)" in shown
        assert "Kaede (normal)" in shown and "Kaede (normal) (normal)" not in shown
