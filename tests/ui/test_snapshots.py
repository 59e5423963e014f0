"""Layout snapshots: new game, draft, table (your turn, a bot's turn, a play
being built, 4 seats mid-game with live scores and the objective race),
help and scoring at 80×24 and 120×40; the table with
``NO_COLOR=1``, in the high-contrast theme, at 200×60 and too small.

Game flow is tested with Pilot elsewhere; these guard what the player sees.
Update after checking the report: ``pytest tests/ui/test_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

import pytest
from helpers import ScriptedBot, scripted_bot, sit, situation, steady_cursors, until_human_or_end, until_screen
from test_fit_table import mid_game

from momiji_tui.session.table import BOT, HUMAN, SeatConfig, Table
from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.models.new_game import NewGameOptions
from momiji_tui.ui.screens.help import HelpScreen
from momiji_tui.ui.screens.menu import MenuScreen
from momiji_tui.ui.screens.new_game import NewGameScreen

SIZES = [(80, 24), (120, 40)]
size_ids = pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")


def finished_game(data_dir) -> str:
    """A finished 3-seat game saved in ``data_dir``; returns its path."""
    seats = [SeatConfig("You", HUMAN), SeatConfig("Kaede", BOT, "easy"), SeatConfig("Ginnan", BOT, "easy")]
    table = Table.new(seats, seed=21, data_dir=data_dir)
    step = 0
    while not table.finished:
        seat = table.current
        table.submit(ScriptedBot(step).choose(table.view(seat)))
        step += 1
    table.close()
    return str(table.log.path)


def game_app(data_dir, **options) -> MomijiApp:
    """A 3-seat starter game (seed 8) against scripted bots."""
    settings = {"seats": 3, "bot_level": "easy", "seed": 8, **options}
    return MomijiApp(data_dir, bot_delay=0, make_bot=scripted_bot, new_game=NewGameOptions(**settings))


def preview_table() -> Table:
    """Seat 0 builds a mixed play: O3 closes Oak (torii), C0 starts Cherry at
    the right end, where it pairs acorns with Maple."""
    return situation(
        hand="G0d C0b O3a Z2c K1a", row=["O0a O1a O2a", "M0c"], display="G1a G2b Z0a K3b",
        discard="C2c", acorns=3, other_row=["K0a K1b", "Z0b"], seats=3,
        owners={"acorns": 1}, used=("spring",),
    )


@size_ids
def test_snapshot_new_game(snap_compare, isolated_dirs, size):
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)

    async def run_before(pilot):
        await until_screen(pilot, MenuScreen)
        await pilot.press("n")
        await until_screen(pilot, NewGameScreen)
        await steady_cursors(pilot)  # the name field has the focus: its cursor shown, however late the shot

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@size_ids
def test_snapshot_draft(snap_compare, isolated_dirs, size):
    app = game_app(isolated_dirs, landscape_mode="draft")

    async def run_before(pilot):
        await until_human_or_end(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@size_ids
def test_snapshot_table_your_turn(snap_compare, isolated_dirs, size):
    app = game_app(isolated_dirs)

    async def run_before(pilot):
        await until_human_or_end(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@size_ids
def test_snapshot_table_bot_turn(snap_compare, isolated_dirs, size):
    app = game_app(isolated_dirs)

    async def run_before(pilot):
        await until_human_or_end(pilot)
        await pilot.press("G", "enter")  # collect the Ginkgo column
        pilot.app.bot_delay = 3600  # the bot's first move waits: its turn stays on screen
        await pilot.press("e")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@size_ids
def test_snapshot_table_play_preview(snap_compare, isolated_dirs, size):
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)

    async def run_before(pilot):
        await sit(pilot, preview_table())
        await pilot.press("2", "3")

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@size_ids
def test_snapshot_help(snap_compare, isolated_dirs, size):
    app = game_app(isolated_dirs)

    async def run_before(pilot):
        await until_human_or_end(pilot)
        await pilot.press("question_mark")
        await until_screen(pilot, HelpScreen)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@size_ids
def test_snapshot_scoring(snap_compare, isolated_dirs, size):
    path = finished_game(isolated_dirs)
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot, resume_path=path)

    async def run_before(pilot):
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@size_ids
def test_snapshot_table_4_seats_live_score_and_objective_race(snap_compare, isolated_dirs, size):
    """Every seat's live score (the leader starred), piles with
    their points and the cards beneath, the race for each objective."""
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)

    async def run_before(pilot):
        await sit(pilot, mid_game(("Ayu", "Kaede", "Ginnan", "Sakura")))

    assert snap_compare(app, terminal_size=size, run_before=run_before)


def test_snapshot_table_no_color(snap_compare, isolated_dirs, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
    assert app.no_color

    async def run_before(pilot):
        await sit(pilot, preview_table())
        await pilot.press("2", "3")

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_snapshot_table_high_contrast(snap_compare, isolated_dirs):
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)

    async def run_before(pilot):
        pilot.app.theme = "momiji-high-contrast"
        await sit(pilot, preview_table())
        await pilot.press("2", "3")

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_snapshot_table_200x60(snap_compare, isolated_dirs):
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)

    async def run_before(pilot):
        await sit(pilot, preview_table())
        await pilot.press("2", "3")

    assert snap_compare(app, terminal_size=(200, 60), run_before=run_before)


def test_snapshot_too_small(snap_compare, isolated_dirs):
    app = game_app(isolated_dirs)

    async def run_before(pilot):
        await until_human_or_end(pilot)

    assert snap_compare(app, terminal_size=(50, 14), run_before=run_before)


@size_ids
def test_snapshot_table_last_round_banner(snap_compare, isolated_dirs, size):
    """4 seats in the last round (RULES §6): the banner above the message line."""
    table = situation(hand="G0d C0b O3a", row=["O0a O1a O2a"], display="G1a Z0a K3b", seats=4, deck_size=0)
    table.state.end_trigger = "deck"
    table.state.first_seat = 2  # the game ends after seat 1's turn
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)

    async def run_before(pilot):
        await sit(pilot, table)

    assert snap_compare(app, terminal_size=size, run_before=run_before)
