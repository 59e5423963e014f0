"""RULES §5.1 at the table: after the hand-limit discard (key ``d``) the turn
is ending; exchange and landscapes are refused with the rule, ``e`` ends it
and ``u`` undoes, the discard included."""

from __future__ import annotations

import pytest
from helpers import plain, scripted_bot, sit, situation

from momiji_tui.engine import events as ev
from momiji_tui.engine.rules_data import HAND_LIMIT
from momiji_tui.engine.state import TurnState
from momiji_tui.ui.app import MomijiApp

TEN = "M0a M0b M1a M1b C0a C0b C1a O0a O1a O2a"


@pytest.fixture
def app(isolated_dirs):
    return MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)


async def test_rules_5_1_after_the_discard_key_only_the_end_of_turn_is_offered(app):
    table = situation(hand=TEN, acorns=2, turn=TurnState(main_done=True))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, table)
        await pilot.press("d", "1", "2", "d")
        seat = app.table.state.seats[0]
        assert len(seat.hand) == HAND_LIMIT and app.table.state.current == 0
        assert "Discarded down to the hand limit" in plain(screen.query_one("#preview"))
        before = app.table.state.clone()
        await pilot.press("1", "2", "x")
        await pilot.pause()
        assert "your turn is ending (RULES §5.1)" in plain(screen.query_one("#message"))
        await pilot.press("a")
        await pilot.pause()
        assert app.table.state == before
        await pilot.press("e")
        assert any(isinstance(e, ev.TurnEnded) and e.seat == 0 for e in app.table.events)
        assert len(app.table.state.seats[0].hand) == HAND_LIMIT
