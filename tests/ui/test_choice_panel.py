"""Choices beside the table, not over it: the landscape,
objective and card choosers are a panel with the table still in view,
keyboard-driven, Esc cancels; the objective chooser shows the standings
(RULES §1.4, §4.3)."""

from __future__ import annotations

from fit_helpers import screen_lines
from helpers import sit, situation, until_screen

from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.screens.choice import ChoiceScreen
from momiji_tui.ui.screens.table import TableScreen


def _table():
    return situation(hand="C2a M1a G3a O2a", row=["C0a", "M0a M1b"], display="K1a K2a Z3a O0a",
                     panorama=("lantern", "crane", "pier"), acorns=5, seats=4,
                     objectives=("zeros", "acorns", "piles", "torii", "longest", "top-sum"), owners={"zeros": 1})


async def test_the_landscape_chooser_leaves_the_row_and_hand_in_view(isolated_dirs):
    app = MomijiApp(isolated_dirs, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await sit(pilot, _table())
        await pilot.press("a")
        await until_screen(pilot, ChoiceScreen)
        shown = "\n".join(screen_lines(app))
        assert "Stone Lantern" in shown and "Sunset Pier" in shown  # the choices
        assert "Display" in shown and "Hand 4/8" in shown and "▶ You" in shown  # the table, still there
        await pilot.press("escape")
        await until_screen(pilot, TableScreen)
        assert app.table is not None and app.table.state.seats[0].acorns == 5  # nothing was used


async def test_rules_4_3_the_objective_chooser_shows_the_standings(isolated_dirs):
    app = MomijiApp(isolated_dirs, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await sit(pilot, _table())
        await pilot.press("o")
        await until_screen(pilot, ChoiceScreen)
        shown = " ".join(" ".join(screen_lines(app)).split())
        # Fallen Seeds (zeros): owned by Bot 1; you have 2 zeros in piles (C0, M0), the best.
        assert "owner Bot 1 · best: you (2) ✓" in shown
        # Your row (what objectives measure) stays in view; at 80×24 with 4 seats,
        # six objectives and the news line, the panel covers the hand.
        assert "▶ You" in shown and "M1•×2=2" in shown
