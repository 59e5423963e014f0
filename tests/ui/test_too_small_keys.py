"""Below a screen's minimum size only the 'window too small' notice shows
(ARCHITECTURE "The UI": nothing crashes on a tiny terminal; the notice says "The game is
saved; ctrl+q quits."). Keys must not act on the hidden screen: a newcomer
at 30×8 pressing 1 1 1 had drafted all three landscapes blind (RULES §2.1),
and the table already refused its keys while too small."""

from __future__ import annotations

from helpers import scripted_bot, settle, until_screen

from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.models.new_game import NewGameOptions
from momiji_tui.ui.screens.draft import DraftScreen


async def test_rules_2_1_a_draft_pick_key_does_nothing_while_the_window_is_too_small(isolated_dirs):
    options = NewGameOptions(seats=2, bot_level="easy", seed=4, landscape_mode="draft")
    app = MomijiApp(isolated_dirs, new_game=options, bot_delay=0, make_bot=scripted_bot)
    async with app.run_test(size=(30, 8)) as pilot:
        await until_screen(pilot, DraftScreen)
        await settle(pilot)
        assert app.screen.too_small
        picks = len(app.table.events)
        await pilot.press("1")
        await settle(pilot)
        assert len(app.table.events) == picks, "a landscape was drafted behind the 'too small' notice"
        assert not app.table.state.seats[0].panorama
