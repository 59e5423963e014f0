"""The 11th and later hand cards have keys too: ``b f n v w``
after ``1``–``0``, drawn before each card and named in help."""

from __future__ import annotations

import re

from helpers import scripted_bot, sit, situation

from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.models.help_text import keys_md

HAND = "G0d C0b O3a Z2c K1a M0a M1b C1a G1b K0b Z0a Z1c"  # 12 cards


async def test_the_11th_and_12th_hand_cards_have_keys_rules_5_1(isolated_dirs):
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, situation(hand=HAND, display="G1a G2b Z0b K3b", seats=2))
        hand = screen.query_one("#hand").content.plain
        assert re.search(r" b[• ][MGCOZK]\d.* f[• ][MGCOZK]\d", hand), hand
        await pilot.press("b", "f")
        await pilot.pause()
        assert screen.draft.selected == [screen.draft.hand[10], screen.draft.hand[11]]


def test_help_names_the_keys_after_0():
    assert "then b f n v w" in keys_md()
