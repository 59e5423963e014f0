"""The table's prompts and messages as a new player met them; each
reproduced first."""

from __future__ import annotations

import pytest
from helpers import plain, scripted_bot, sit, situation

from momiji_tui.engine.state import TurnState
from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.models.help_text import keys_md
from momiji_tui.ui.widgets.table_regions import MessageLine, PreviewLine


@pytest.fixture
def app(isolated_dirs):
    return MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)


def shown(screen) -> tuple[str, str]:
    """The message line and the preview line, as the player reads them."""
    return plain(screen.query_one(MessageLine)), plain(screen.query_one(PreviewLine))


def footer_keys(screen) -> set[str]:
    return {k.description for k in screen.footer.keys}


async def test_rules_4_1_empty_hand_prompt_offers_no_cards(app):
    """Defect 6: with an empty hand the prompt said "Select cards (1 or click) to play"."""
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await sit(pilot, situation(hand="", display="O1b M1a"))
        _, preview = shown(screen)
        assert "Select cards" not in preview and "Your hand is empty" in preview, preview
        assert "collect" in preview


async def test_rules_4_1_a_lower_case_letter_selects_its_column(app):
    """The prompt says "a column (its letter)": g (lower case) selects column G."""
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await sit(pilot, situation(hand="C1a", display="O1b G1a"))
        await pilot.press("g")
        await pilot.pause()
        assert screen.columns == ["G"]
        await pilot.press("z")  # Zelkova is in play but not in the display: said, not silent
        await pilot.pause()
        message, _ = shown(screen)
        assert screen.columns == ["G"] and message, message


@pytest.mark.parametrize("turn", [TurnState(), TurnState(main_done=True)], ids=["before", "after-main"])
async def test_rules_4_4_x_with_nothing_selected_says_why(app, turn):
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await sit(pilot, situation(hand="C1a M1a", display="O1b", turn=turn))
        await pilot.press("x")
        await pilot.pause()
        message, _ = shown(screen)
        assert "Select exactly 2 cards" in message, message


@pytest.mark.parametrize("keys", [("c",), ("1", "c"), ("C", "c")])
async def test_rules_3_c_after_the_main_action_says_why(app, keys):
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await sit(pilot, situation(hand="C1a M1a", display="O1b", turn=TurnState(main_done=True)))
        await pilot.press(*keys)
        await pilot.pause()
        message, _ = shown(screen)
        assert "main action" in message.lower(), message


async def test_rules_4_2_one_illegal_play_is_told_once(app):
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await sit(pilot, situation(hand="G2a C0a", display="O1b"))
        await pilot.press("1", "enter")
        await pilot.pause()
        message, preview = shown(screen)
        reason = "A pile begins with a 0"
        assert (reason in message) + (reason in preview) == 1, (message, preview)


async def test_rules_4_2_ends_key_is_not_offered_for_an_illegal_play(app):
    async with app.run_test(size=(120, 30)) as pilot:
        screen = await sit(pilot, situation(hand="M0a C0a G2a", display="O1b"))
        await pilot.press("1", "3")  # M0 and C0 (the hand is shown by leaf type: M0 G2 C0)
        await pilot.pause()
        assert "Ends" in footer_keys(screen)  # two new piles: their ends can be chosen
        await pilot.press("2")
        await pilot.pause()
        assert "✗ Not a play" in shown(screen)[1]
        assert "Ends" not in footer_keys(screen)


def test_help_key_table_lists_s_for_the_ends():
    table = keys_md(None, known={"table.ends"})
    assert "| `s` | other ends of the row" in table


async def test_rules_5_1_no_exchange_hint_after_the_hand_limit_discard(app):
    async with app.run_test(size=(120, 30)) as pilot:
        turn = TurnState(main_done=True, limit_discarded=True)
        screen = await sit(pilot, situation(hand="C1a M1a C2a", display="O1b", turn=turn))
        await pilot.press("1", "2")
        await pilot.pause()
        message, preview = shown(screen)
        assert "exchange" not in (message + preview).lower(), (message, preview)
