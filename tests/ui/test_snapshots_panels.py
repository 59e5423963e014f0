"""Layout snapshots of the panels, 4 seats at 80×24 and 120×40: a
choice panel beside the table (the objective chooser with its standings)
and the final score sheet with the longest names.

Update after checking the report: ``pytest tests/ui/test_snapshots_panels.py --snapshot-update``.
"""

from __future__ import annotations

import pytest
from fit_helpers import LONG_SEATS
from helpers import ScriptedBot, scripted_bot, sit, situation, until_screen

from momiji_tui.session.table import Table
from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.screens.choice import ChoiceScreen

SIZES = [(80, 24), (120, 40)]
size_ids = pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")


@size_ids
def test_snapshot_objective_panel_beside_the_table(snap_compare, isolated_dirs, size):
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
    table = situation(hand="C2a M1a G3a O2a", row=["C0a", "M0a M1b"], display="K1a K2a Z3a O0a", acorns=5,
                      other_row=["Z0b Z1b"], seats=4, owners={"zeros": 1})

    async def run_before(pilot):
        await sit(pilot, table)
        await pilot.press("o")
        await until_screen(pilot, ChoiceScreen)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@size_ids
def test_snapshot_score_sheet_4_long_names(snap_compare, isolated_dirs, size):
    table = Table.new(list(LONG_SEATS), seed=21, data_dir=isolated_dirs)
    step = 0
    while not table.finished:
        table.submit(ScriptedBot(step).choose(table.view(table.current)))
        step += 1
    table.close()
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot, resume_path=table.log.path)

    async def run_before(pilot):
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run_before)
