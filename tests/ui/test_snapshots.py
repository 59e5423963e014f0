"""Layout snapshots of the draft, table and scoring screens at 80×24 and 120×40.

Game flow is tested with Pilot elsewhere; these only guard the layout.
Update after checking the report: ``pytest tests/ui/test_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

import pytest
from helpers import ScriptedBot, scripted_bot, until_human_or_end

from momiji_tui.session.table import BOT, HUMAN, SeatConfig, Table
from momiji_tui.ui.app import MomijiApp, NewGameOptions

SIZES = [(80, 24), (120, 40)]


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


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_snapshot_draft(snap_compare, isolated_dirs, size):
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot,
                    new_game=NewGameOptions(seats=3, bot_level="easy", landscape_mode="draft", seed=8))

    async def run_before(pilot):
        await until_human_or_end(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_snapshot_table(snap_compare, isolated_dirs, size):
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot,
                    new_game=NewGameOptions(seats=3, bot_level="easy", seed=8))

    async def run_before(pilot):
        await until_human_or_end(pilot)
        await pilot.press("1", "2")  # a selection shows the play preview
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_snapshot_scoring(snap_compare, isolated_dirs, size):
    path = finished_game(isolated_dirs)
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot, resume_path=path)

    async def run_before(pilot):
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run_before)
