"""The info key and the live score's breakdown: one
key away from the table, nothing left."""

from __future__ import annotations

import io

from rich.console import Console

from helpers import plain, scripted_bot, sit, situation, until_screen

from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.screens.table import TableScreen
from momiji_tui.ui.screens.table_score import LiveScoreScreen


def board():
    return situation(hand="M3a C0b", row=["M0c M1a M2a"], display="G1a G2b Z0a K3b", acorns=4, seats=3,
                     objectives=("zeros", "acorns"), owners={"acorns": 1}, other_row=["K0a K1b"])


async def test_info_key_explains_the_card_then_each_objective_and_landscape_rules_4_2_and_7(isolated_dirs):
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, board())
        said = []
        for _ in range(7):  # card, 2 objectives, 3 landscapes, then the card again
            await pilot.press("i")
            said.append(" ".join(plain(screen.query_one("#message")).split()))
        assert isinstance(app.screen, TableScreen)
        assert "closing it with a torii" in said[0] and "§4.2" in said[0]  # M3: the hand card under the cursor
        assert said[1].startswith("Objective 1 Fallen Seeds: most 0s in your piles.")
        assert "Unowned (3● to activate, §4.3)." in said[1]
        assert "Owner Bot 1." in said[2] and "Leads: you (4), you meet it. Met: owner 10, others 3 (§7)." in said[2]
        assert said[3].startswith("Landscape 1 Mountain Spring (sunrise): gain 2 acorns")
        assert said[6] == said[0]


async def test_equals_shows_the_live_score_breakdown_and_any_key_closes_it_rules_7(isolated_dirs):
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, board())
        you = plain(screen.query_one("#you"))
        assert "score 13 ★" in you  # M2×3 = 6, 4 acorns, and 3 for meeting Bot 1's Squirrel's Store
        await pilot.press("equals_sign")
        await until_screen(pilot, LiveScoreScreen)
        console = Console(width=80, file=io.StringIO(), record=True)
        console.print(app.screen.query_one("#live-score-table").content)
        sheet = console.export_text()
        assert "obj 2" in sheet and "total" in sheet and "3 ✓(4)" in sheet
        assert "You would win with 13 points." in plain(app.screen.query_one("#live-score-result"))
        await pilot.press("escape")
        await until_screen(pilot, TableScreen)
