"""Every keyboard path of the table, by Pilot, with state assertions.

Each test builds the exact situation it needs (``helpers.situation``: a
fixed seed, then seat 0's hand, row, display… replaced), sits the app at it
and plays by keys only; every command goes through ``MomijiApp.submit``.
"""

from __future__ import annotations

import dataclasses

import pytest
from helpers import cards, plain, scripted_bot, sit, situation, until_screen

from momiji_tui.engine import events as ev
from momiji_tui.engine.rules_data import HAND_LIMIT
from momiji_tui.engine.state import TurnState
from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.screens.choice import ChoiceScreen
from momiji_tui.ui.screens.table import TableScreen


@pytest.fixture
def app(isolated_dirs):
    return MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)


def me(app: MomijiApp):
    return app.table.state.seats[0]


def row_types(app: MomijiApp) -> list[str]:
    return [p.leaf_type for p in me(app).row]


def text(screen, widget_id: str) -> str:
    return plain(screen.query_one(widget_id))


# ---------------------------------------------------------------- collect


async def test_collect_a_column_by_its_letter_then_enter(app):
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, situation(hand="M1a", display="C1a C2b O1b"))
        await pilot.press("C")
        assert screen.columns == ["C"]
        assert "Collect" in text(screen, "#preview") and "Cherry" in text(screen, "#preview")
        assert me(app).hand == cards("M1a")  # nothing happens before ⏎
        await pilot.press("enter")
        assert sorted(me(app).hand) == sorted(cards("M1a C1a C2b"))
        assert app.table.state.display == cards("O1b")
        assert app.table.state.turn.main_done


async def test_collect_with_a_paid_reveal_first(app):
    table = situation(hand="M1a", display="O1b", deck_top="G0a G1a K2a Z0a", acorns=2)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, table)
        await pilot.press("r")
        assert me(app).acorns == 1
        assert sorted(app.table.state.display) == sorted(cards("O1b G0a G1a K2a Z0a"))
        assert "collect a column" in text(screen, "#message")
        await pilot.press("p")  # a play is refused after a reveal (RULES §4.1)
        await pilot.press("G", "enter")
        assert sorted(me(app).hand) == sorted(cards("M1a G0a G1a"))
        assert app.table.state.turn.main_done


async def test_collect_key_opens_a_chooser_with_every_column(app):
    async with app.run_test(size=(80, 24)) as pilot:
        await sit(pilot, situation(hand="M1a", display="C1a O1b"))
        await pilot.press("c")
        await until_screen(pilot, ChoiceScreen)
        await pilot.press("o")
        await until_screen(pilot, TableScreen)
        assert sorted(me(app).hand) == sorted(cards("M1a O1b"))


async def test_click_a_column_then_the_collect_button(app):
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, situation(hand="M1a", display="C1a O1b"))
        shown = text(screen, "#display")
        await pilot.click("#display", offset=(shown.index(" O ") + 1, 0))
        assert screen.columns == ["O"]
        await pilot.click("#preview", offset=(2, 0))  # the ⏎ Collect button
        assert sorted(me(app).hand) == sorted(cards("M1a O1b"))


async def test_click_a_column_twice_collects_it(app):
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, situation(hand="M1a", display="C1a O1b"))
        x = text(screen, "#display").index(" C ") + 1
        await pilot.click("#display", offset=(x, 0))
        assert screen.columns == ["C"] and me(app).hand == cards("M1a")
        await pilot.click("#display", offset=(x, 0))
        assert sorted(me(app).hand) == sorted(cards("M1a C1a"))


async def test_click_hand_cards_to_select_and_unselect(app):
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, situation(hand="M0a C1a"))
        shown = text(screen, "#hand")
        x = shown.index("2", len("Hand 2/8"))
        await pilot.click("#hand", offset=(x, 0))
        assert screen.selected == cards("C1a")
        await pilot.click("#hand", offset=(x + 2, 0))  # on the card itself
        assert screen.selected == []


# ------------------------------------------------------------------- plays


async def test_same_type_play_of_two_cards_on_a_pile(app):
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, situation(hand="M1a M2a", row=["M0c"]))
        await pilot.press("1", "2")
        preview = text(screen, "#preview")
        assert "→Maple" in preview and "×3=6" in preview and "0→6 pts" in preview
        await pilot.press("enter")
        assert me(app).row[0].cards == cards("M0c M1a M2a")
        assert me(app).hand == []


async def test_p_plays_as_well_as_enter(app):
    async with app.run_test(size=(80, 24)) as pilot:
        await sit(pilot, situation(hand="M1a", row=["M0c"]))
        await pilot.press("1", "p")
        assert me(app).row[0].cards == cards("M0c M1a")


async def test_mixed_play_pays_for_its_acorn_pair(app):
    # Row M (top M0c: acorn right). C0b has an acorn left: M|C pays 2 (RULES §4.2).
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, situation(hand="C0b O0e", row=["M0c"], acorns=2))
        await pilot.press("1", "2")
        preview = text(screen, "#preview")
        assert "+2● (1 acorn pair)" in preview
        assert "new, right end" in preview
        await pilot.press("enter")
        assert row_types(app) == ["M", "C", "O"]
        assert me(app).acorns == 4
        gained = [e for e in app.table.events if isinstance(e, ev.AcornsGained) and e.reason == "acorn pairs"]
        assert gained and gained[-1].amount == 2


async def test_new_pile_at_the_right_end_by_default(app):
    async with app.run_test(size=(80, 24)) as pilot:
        await sit(pilot, situation(hand="C0e", row=["M0c"]))
        await pilot.press("1", "enter")
        assert row_types(app) == ["M", "C"]


async def test_new_pile_at_the_left_end_with_s(app):
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, situation(hand="C0e", row=["M0c"]))
        await pilot.press("1")
        assert "new, right end" in text(screen, "#preview")
        await pilot.press("s")
        assert "new, left end" in text(screen, "#preview")
        await pilot.press("enter")
        assert row_types(app) == ["C", "M"]


async def test_each_new_pile_of_a_mixed_play_gets_its_own_end(app):
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, situation(hand="C0e O0e", row=["M0c"]))
        await pilot.press("1", "2")
        assert "(1/4)" in text(screen, "#preview")
        await pilot.press("s", "s")  # Cherry to the left end, Oak to the right end
        preview = text(screen, "#preview")
        assert "C0 →new, left end" in preview and "O0 →new, right end" in preview
        await pilot.press("enter")
        assert row_types(app) == ["C", "M", "O"]


async def test_closing_a_pile_shows_the_torii_in_the_preview(app):
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, situation(hand="M3a", row=["M0c M1b M2b"]))
        torii = app.table.state.torii_left
        await pilot.press("1")
        assert "closes Maple Π" in text(screen, "#preview")
        await pilot.press("enter")
        assert me(app).row[0].closed and app.table.state.torii_left == torii - 1


async def test_a_pile_key_adds_the_card_that_fits(app):
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, situation(hand="M0a M1a C1a", row=["M0c"]))
        await pilot.press("M")  # no Maple column in the display: the Maple pile
        assert screen.selected == cards("M0a")
        await pilot.press("M")
        assert screen.selected == cards("M0a M1a")
        await pilot.press("enter")
        assert me(app).row[0].cards == cards("M0c M0a M1a")


async def test_arrows_and_space_select_without_digits(app):
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, situation(hand="M0a C1a", display="O1b"))
        await pilot.press("down", "right", "space")
        assert screen.selected == cards("C1a")
        await pilot.press("escape", "up", "space")
        assert screen.columns == ["O"]
        await pilot.press("j", "l", "space")  # vim keys too: the cursor wraps to the first card
        assert screen.selected == cards("M0a") and screen.columns == []


# ----------------------------------------------------- objective, exchange


async def test_activate_an_objective(app):
    async with app.run_test(size=(80, 24)) as pilot:
        await sit(pilot, situation(hand="M1a", acorns=3))
        await pilot.press("o")
        await until_screen(pilot, ChoiceScreen)
        await pilot.press("1")
        await until_screen(pilot, TableScreen)
        assert app.table.state.owners == {"zeros": 0}
        assert me(app).acorns == 0


async def test_objective_refused_without_acorns_says_why(app):
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, situation(hand="M1a", acorns=2))
        await pilot.press("o")
        assert isinstance(app.screen, TableScreen)
        assert "objective costs 3 acorns; you have 2 (RULES §4.3)" in text(screen, "#message")  # the engine's sentence
        assert app.table.state.owners == {}


async def test_exchange_two_cards_for_an_acorn(app):
    async with app.run_test(size=(80, 24)) as pilot:
        await sit(pilot, situation(hand="M1a C1a O1b", acorns=2))
        await pilot.press("1", "2", "x")
        assert me(app).acorns == 3
        assert sorted(app.table.state.discard) == sorted(cards("M1a C1a"))
        assert app.table.state.turn.exchanged


# --------------------------------------------------------------- landscapes


async def test_sunrise_power_mountain_spring(app):
    async with app.run_test(size=(80, 24)) as pilot:
        await sit(pilot, situation(hand="M1a", acorns=2))
        await pilot.press("a")
        await until_screen(pilot, ChoiceScreen)
        await pilot.press("1")
        await until_screen(pilot, TableScreen)
        assert me(app).acorns == 3  # paid 1, gained 2
        assert me(app).used == ["spring"]


async def test_midday_power_before_the_main_action_makes_the_reveal_free(app):
    table = situation(hand="M1a", display="O1b", deck_top="G0a G1a K2a Z0a", acorns=2)
    async with app.run_test(size=(80, 24)) as pilot:
        await sit(pilot, table)
        await pilot.press("a")
        await until_screen(pilot, ChoiceScreen)
        await pilot.press("2")  # Waterfall
        await until_screen(pilot, TableScreen)
        assert app.table.state.turn.landscape == "waterfall" and me(app).acorns == 1
        await pilot.press("r")
        assert me(app).acorns == 1  # the reveal was free
        assert len(app.table.state.display) == 5


async def test_midday_power_is_refused_after_the_main_action(app):
    table = situation(hand="M1a", acorns=2, turn=TurnState(main_done=True))
    async with app.run_test(size=(80, 24)) as pilot:
        await sit(pilot, table)
        before = app.table.state.clone()
        await pilot.press("a")
        chooser = app.screen
        assert isinstance(chooser, ChoiceScreen)
        await pilot.press("2")  # Waterfall, midday
        assert app.screen is chooser
        assert "before your main action (RULES §4.5)" in str(chooser.query_one("#choice-message").render())
        await pilot.press("escape")
        await until_screen(pilot, TableScreen)
        assert app.table.state == before


async def test_dusk_power_sunset_pier(app):
    table = situation(hand="M1a", row=["M0c M1b M2b M3a"], closed=["M"], acorns=2,
                      turn=TurnState(main_done=True))
    async with app.run_test(size=(80, 24)) as pilot:
        await sit(pilot, table)
        await pilot.press("a")
        await until_screen(pilot, ChoiceScreen)
        await pilot.press("3")
        await until_screen(pilot, TableScreen)
        assert me(app).acorns == 2  # paid 1, 1 per closed pile
        assert me(app).used == ["pier"]


async def test_a_power_with_hand_cards_is_built_then_confirmed(app):
    table = situation(hand="M1a C1a O1b Z1c", acorns=2, panorama=("spring", "waterfall", "fox"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, table)
        await pilot.press("a")
        await until_screen(pilot, ChoiceScreen)
        await pilot.press("3")
        await until_screen(pilot, TableScreen)
        assert screen.pending == ("landscape", "fox")
        await pilot.press("1", "2")
        assert "Fox Shrine" in text(screen, "#preview") and "+1●" in text(screen, "#preview")
        await pilot.press("enter")
        assert me(app).acorns == 2 and len(me(app).hand) == 2 and "fox" in me(app).used


# ------------------------------------------------------- end of the turn


async def test_hand_limit_asks_for_discards_when_ending_the_turn(app):
    table = situation(hand="M0a M0b M1a M1b C0a C0b C1a O0a O1a O2a", turn=TurnState(main_done=True))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, table)
        await pilot.press("e")
        assert screen.pending == ("discard", "end")
        assert "select 2 cards to discard" in text(screen, "#preview")
        await pilot.press("1", "2", "enter")
        assert len(me(app).hand) == HAND_LIMIT
        assert any(isinstance(e, ev.TurnEnded) and e.seat == 0 for e in app.table.events)


async def test_end_turn_without_a_main_action_is_explained(app):
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, situation(hand="M1a", display="O1b"))
        await pilot.press("e")
        assert "Take your main action first" in text(screen, "#message")
        assert app.table.state.current == 0


# ------------------------------------------------------- cancel, refusals


async def test_escape_steps_back_and_changes_nothing(app):
    table = situation(hand="M0a C0b", row=["M0c"], panorama=("spring", "waterfall", "fox"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, table)
        before = app.table.state.clone()
        await pilot.press("1", "2")
        assert "Play" in text(screen, "#preview")
        await pilot.press("escape")
        assert screen.selected == []
        await pilot.press("a")
        await until_screen(pilot, ChoiceScreen)
        await pilot.press("escape")  # out of the chooser
        await until_screen(pilot, TableScreen)
        await pilot.press("a", "3")
        await until_screen(pilot, TableScreen)
        assert screen.pending == ("landscape", "fox")
        await pilot.press("escape")  # cancel the power
        assert screen.pending is None
        assert app.table.state == before


async def test_an_illegal_play_is_explained_and_changes_nothing(app):
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, situation(hand="M1a C0b"))
        before = app.table.state.clone()
        await pilot.press("1")
        assert "✗ Not a play: A pile begins with a 0" in text(screen, "#preview")
        assert "enter" not in screen.active_bindings  # ⏎ is not offered
        await pilot.press("p")
        told = text(screen, "#message") + text(screen, "#preview")  # told once
        assert told.count("A pile begins with a 0") == 1 and "RULES §4.2" in told
        await pilot.press("enter")
        assert app.table.state == before


async def test_keys_typed_faster_than_the_screen_redraws_still_work(app):
    from textual import events

    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, situation(hand="M1a", row=["M0c"]))
        for key in "1p":  # queued together, as a fast typist or a paste sends them
            app.post_message(events.Key(key, key))
        await pilot.pause()
        await pilot.pause()
        assert me(app).row[0].cards == cards("M0c M1a")
        assert "✗" not in text(screen, "#message")


async def test_keys_that_do_not_apply_are_hidden_and_say_why(app):
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, situation(hand="M1a C1a", display="O1b", acorns=0))
        keys = set(screen.active_bindings)
        assert {"c", "question_mark", "q"} <= keys
        assert not {"p", "x", "r", "o", "a", "e", "enter"} & keys
        await pilot.press("x")
        assert "Select exactly 2 cards" in text(screen, "#message")
        await pilot.press("1", "2")
        assert "x" in screen.active_bindings
        await pilot.press("r")
        assert "building a play" in text(screen, "#message")


async def test_not_your_turn(isolated_dirs):
    app = MomijiApp(isolated_dirs, bot_delay=3600, make_bot=scripted_bot)
    table = situation(hand="M1a", display="O1b")
    table.state.current = 1
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, table)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "Bot 1 is thinking" in text(screen, "#status")
        await pilot.press("O")
        assert "It is Bot 1's turn." in text(screen, "#message")


# ------------------------------------------------------------ memory mode


async def test_memory_mode_shows_only_top_cards_and_hides_plays_in_the_log(app):
    table = situation(hand="M2a", row=["M0c M1b"], other_row=["C0a C1a"])
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, table)
        assert "×2=2 (0)" in text(screen, "#you")
        await pilot.press("m")
        assert app.memory_mode
        assert "×2=2" in text(screen, "#you") and "(0)" not in text(screen, "#you")
        assert "(0)" not in text(screen, "#opponents")
        await pilot.press("1", "enter")
        log = "\n".join(line.text for line in screen.query_one("#log").lines)
        assert "You played 1 card: onto the Maple pile." in log
        assert "M2" not in log.splitlines()[-1]


# ------------------------------------------------------------ more paths


async def test_a_turn_with_no_possible_main_action_passes_on_e(app):
    table = situation(hand="M1a", display="", deck_size=0, acorns=0)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, table)
        assert "No main action is possible" in text(screen, "#preview")
        await pilot.press("e")
        assert any(isinstance(e, ev.MainActionPassed) for e in app.table.events)
        assert any(isinstance(e, ev.TurnEnded) and e.seat == 0 for e in app.table.events)


async def test_tea_house_collects_two_columns(app):
    table = situation(hand="M1a", display="C1a O1b G0a", panorama=("spring", "teahouse", "pier"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, table)
        await pilot.press("a")
        await until_screen(pilot, ChoiceScreen)
        await pilot.press("2")
        await until_screen(pilot, TableScreen)
        await pilot.press("C")
        assert "choose 1 more column" in text(screen, "#preview")
        await pilot.press("O", "enter")
        assert sorted(me(app).hand) == sorted(cards("M1a C1a O1b"))
        assert app.table.state.display == cards("G0a")


async def test_undo_takes_back_the_turn_so_far(app):
    async with app.run_test(size=(80, 24)) as pilot:
        await sit(pilot, situation(hand="M1a C1a O1b", row=["M0c"], acorns=2))
        before = app.table.view(0)
        await pilot.press("1", "enter")
        assert me(app).row[0].cards == cards("M0c M1a")
        await pilot.press("2", "3", "x")
        await pilot.press("u")
        after = app.table.view(0)
        # M1a went back to the hand in every seat's sight: it is known now (RULES §8).
        assert after.me == dataclasses.replace(before.me, known=tuple(cards("M1a")))
        assert after.turn.main_done is False


async def test_the_other_seats_last_move_shows_while_it_plays(isolated_dirs):
    app = MomijiApp(isolated_dirs, bot_delay=3600, make_bot=scripted_bot)
    table = situation(hand="M1a", display="O1b")
    table.state.current = 1  # Bot 1's turn; its chosen move waits an hour on screen
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, table)
        await app.workers.wait_for_complete()
        await pilot.pause()
        # What the table publishes after a move of Bot 1 (as the session would).
        screen.refresh_table([ev.ColumnCollected(1, "O", tuple(cards("O1b"))),
                              ev.AcornsGained(1, 2, "Mountain Spring")])
        preview = text(screen, "#preview")
        assert preview.startswith("Last move: Bot 1 collected the Oak column: O1.")
        assert "Bot 1 gained 2 acorns" in preview
