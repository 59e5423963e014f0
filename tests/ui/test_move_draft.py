"""The move builder without Textual: plain pytest, no App.

Each test sits seat 0 in an exact situation (``helpers.situation``), hands
its view and legal commands to a ``MoveDraft`` and builds a move. Every
refusal a player can meet for a rule is the engine's own sentence:
``engine.explain`` of the command the selection makes.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace

import pytest
from helpers import cards, situation

from rich.text import Text

from momiji_tui import engine
from momiji_tui.engine import (
    ActivateObjective, Collect, DiscardToLimit, DraftPick, EndTurn, Exchange, Pass, Play, Reveal, Undo,
    UseLandscape,
)
from momiji_tui.engine.state import TurnState
from momiji_tui.ui.models.move_draft import (
    POWER_FLOWS, DiscardFlow, LandscapeFlow, MoveDraft, Zone,
)
from momiji_tui.ui.models.table_preview import preview_text


def draft_at(table) -> MoveDraft:
    d = MoveDraft(0, check=table.check)
    d.set_view(table.view(0), table.legal(0))
    return d


def said(table, command) -> str:
    """The engine's reason for ``command`` from seat 0's view."""
    reason = engine.explain(table.view(0), command)
    assert reason is not None and "RULES §" in reason
    return reason


def test_the_move_builder_imports_no_textual():
    code = ("import sys, momiji_tui.ui.models.move_draft, momiji_tui.ui.models.table_preview, "
            "momiji_tui.ui.models.table_text; assert 'textual' not in sys.modules, 'textual imported'")
    subprocess.run([sys.executable, "-c", code], check=True)


# ----------------------------------------------------------------- draft


def test_rules_2_1_draft_pick_is_the_engine_s_command_or_reason():
    events = engine.create_game(["You", "Bot"], seed=4, landscape_mode="draft")
    state = engine.fold(events)
    seat = state.current
    d = MoveDraft(seat)
    d.set_view(engine.view(state, seat), engine.legal_commands(state, seat))
    offered = state.draft_remaining[0]
    assert d.draft_pick(offered) == (DraftPick(seat, offered), None)
    command, reason = d.draft_pick("no-such-landscape")
    assert command is None and reason == engine.explain(d.view, DraftPick(seat, "no-such-landscape"))
    assert "RULES §2.1" in reason


# --------------------------------------------------------------- collect


def test_rules_4_1_collect_a_chosen_column():
    table = situation(hand="M1a", display="C1a C2b O1b")
    d = draft_at(table)
    assert d.reason("collect") is None
    assert d.toggle_column("C") is None
    assert d.columns == ["C"] and d.zone is Zone.DISPLAY
    assert d.reason("confirm") is None and d.collect_command() == Collect(0, ("C",))
    assert d.toggle_column("O") is None and d.columns == ["O"]  # one column: the new one replaces it
    assert d.toggle_column("K") == "The display has no Katsura column."


def test_rules_1_5_tea_house_collects_two_columns():
    table = situation(hand="M1a", display="C1a O1b K2c", turn=TurnState(landscape="teahouse"))
    d = draft_at(table)
    assert d.columns_wanted == 2
    d.toggle_column("C")
    assert d.reason("confirm") == "Tea House: choose one more column."  # a selection reason, no rule
    d.toggle_column("O")
    assert d.columns == ["C", "O"] and d.reason("confirm") is None
    assert d.collect_command() == Collect(0, ("C", "O"))


def test_rules_1_5_the_columns_and_the_objective_price_come_from_the_game_s_rules():
    # RULES §1.5 [house] amounts are per rules version: the builder
    # reads them from the view's rules, as the engine reads them from the state.
    table = situation(hand="M1a", display="C1a O1b K2c", turn=TurnState(landscape="teahouse"))
    table.state.rules = replace(table.state.rules, version="test-amounts", teahouse_columns=3)
    assert draft_at(table).columns_wanted == 3
    table = situation(hand="M1a", acorns=3, turn=TurnState(landscape="pagoda"))
    assert draft_at(table).objective_cost == 2
    table.state.rules = replace(table.state.rules, version="test-amounts", pagoda_objective_cost=1)
    assert draft_at(table).objective_cost == 1


def test_rules_4_1_reveal_refused_without_acorns_says_the_engine_s_sentence():
    table = situation(hand="M1a", display="O1b", deck_top="G0a G1a K2a Z0a", acorns=0)
    d = draft_at(table)
    assert d.reason("reveal") == said(table, Reveal(0))
    table = situation(hand="M1a", display="O1b", deck_top="G0a G1a K2a Z0a", acorns=1)
    assert draft_at(table).reason("reveal") is None


def test_rules_4_1_after_a_reveal_only_a_collect():
    table = situation(hand="M1a", display="O1b", turn=TurnState(revealed=True))
    d = draft_at(table)
    d.toggle_card(0)
    assert d.reason("play") == said(table, Play(0, tuple(cards("M1a"))))


# ------------------------------------------------------------------ play


def test_rules_4_1_a_play_checked_on_a_view_from_before_a_reveal_is_refused_in_words():
    """Found by a new player typing fast: keys read before the table redrew
    after a paid reveal checked a play against the old view; the engine's
    check on the live table raised and the app stopped. The refusal is now
    the engine's sentence (RULES §4.1: after a reveal only a collect)."""
    table = situation(hand="M1a M2b", row=["M0c"], display="O1b", deck_top="G0a G1a K2a Z0a", acorns=1)
    d = draft_at(table)  # the view before the reveal
    table.submit(Reveal(0))  # the table moved on; the draft has not seen it yet
    assert d.toggle_card(0) is None
    preview, reason = d.check_play()
    assert preview is None
    assert reason is not None and "RULES §4.1" in reason, reason


def test_rules_4_2_play_with_its_preview():
    table = situation(hand="M1a M2b", row=["M0c"])
    d = draft_at(table)
    assert d.toggle_card(0) is None and d.toggle_card(1) is None
    assert d.play_command() == Play(0, tuple(cards("M1a M2b")), ())
    preview, reason = d.check_play()
    assert reason is None and preview is not None
    assert [p.leaf_type for p in preview.row] == ["M"] and preview.points == 6
    shown = preview_text(d, lambda binding_id: binding_id, Text("")).plain
    assert "→Maple" in shown and "0→6 pts" in shown


def test_rules_4_2_new_piles_and_their_ends():
    table = situation(hand="C0b O0a", row=["M0c"])
    d = draft_at(table)
    d.toggle_card(0)
    d.toggle_card(1)
    options = d.arrangements()
    assert len(options) == 4 and d.reason("ends") is None
    seen = set()
    for _ in options:
        command = d.play_command()
        seen.add(command.new_pile_sides)
        assert d.check_play()[1] is None
        d.ends += 1
    assert seen == set(options)


def test_rules_4_2_an_illegal_play_is_refused_with_the_engine_s_sentence():
    table = situation(hand="M1a C0b")
    d = draft_at(table)
    d.toggle_card(0)
    preview, reason = d.check_play()
    assert preview is None and reason == said(table, Play(0, tuple(cards("M1a")), ()))
    assert d.reason("play") == reason and d.reason("confirm") == reason


def test_a_pile_key_adds_the_card_that_fits():
    table = situation(hand="M1a M2b C3a", row=["M0c"])
    d = draft_at(table)
    assert d.type_key("M") == "pile"
    assert d.add_for_pile("M") is None and d.selected == cards("M1a")
    assert d.add_for_pile("M") is None and d.selected == cards("M1a M2b")
    assert d.add_for_pile("M") is None and d.selected == []  # none fits any more: unselect the type


# ------------------------------------------------------------- objective


def test_rules_4_3_objective_refusal_is_the_engine_s():
    table = situation(hand="M1a", acorns=2)
    d = draft_at(table)
    assert d.reason("objective") == said(table, ActivateObjective(0, "zeros"))
    assert d.objective_reason("zeros") == d.reason("objective")
    table = situation(hand="M1a", acorns=3)
    d = draft_at(table)
    assert d.reason("objective") is None and d.objective_reason("zeros") is None


# --------------------------------------------------------- pass, end turn


def test_rules_3_pass_when_no_main_action_is_possible():
    table = situation(hand="M1a", display="", deck_size=0, acorns=0)
    d = draft_at(table)
    assert d.can(Pass) and d.reason("end_turn") is None


def test_rules_3_end_turn_before_the_main_action_is_refused_by_the_engine():
    table = situation(hand="M1a", display="O1b")
    d = draft_at(table)
    assert d.reason("end_turn") == said(table, EndTurn(0))


# ------------------------------------------------------------- free actions


def test_rules_4_4_exchange_two_selected_cards():
    table = situation(hand="M1a C1a O1b", acorns=2)
    d = draft_at(table)
    assert d.reason("exchange") == "Select exactly 2 cards to exchange for 1 acorn."  # selection reason
    d.toggle_card(0)
    d.toggle_card(1)
    assert d.exchange_command() == Exchange(0, (d.selected[0], d.selected[1]))
    assert d.reason("exchange") is None
    table = situation(hand="M1a C1a O1b", acorns=2, turn=TurnState(exchanged=True))
    d = draft_at(table)
    d.toggle_card(0)
    d.toggle_card(1)
    assert d.reason("exchange") == said(table, d.exchange_command())


TEN = "M0a M0b M1a M1b C0a C0b C1a O0a O1a O2a"


def test_rules_5_1_discard_down_to_the_hand_limit():
    table = situation(hand=TEN, turn=TurnState(main_done=True))
    d = draft_at(table)
    assert d.reason("end_turn") is None and d.reason("discard") is None
    d.start_discard(then_end=True)
    assert d.flow == DiscardFlow(then_end=True)
    d.toggle_card(0)
    assert d.reason("confirm") == said(table, DiscardToLimit(0, (d.selected[0],)))
    d.toggle_card(1)
    assert d.reason("confirm") is None and d.discard_command() == DiscardToLimit(0, tuple(d.selected))
    assert d.back() == "Cancelled." and d.flow is None


def test_rules_5_1_after_the_discard_only_the_end_of_the_turn():
    table = situation(hand="M0a M0b", turn=TurnState(main_done=True, limit_discarded=True))
    d = draft_at(table)
    d.toggle_card(0)
    d.toggle_card(1)
    assert d.reason("exchange") == said(table, d.exchange_command())
    assert "your turn is ending (RULES §5.1)" in d.reason("exchange")
    assert d.reason("end_turn") is None


def test_undo_refused_by_the_engine_when_nothing_to_undo():
    table = situation(hand="M1a")
    d = draft_at(table)
    assert d.reason("undo") == engine.explain(table.view(0), Undo(0))
    assert d.reason("undo") is not None


# ------------------------------------------------------------- landscapes


@pytest.mark.parametrize("landscape", sorted(POWER_FLOWS))
def test_rules_1_5_each_landscape_flow(landscape):
    flow = POWER_FLOWS[landscape]
    table = situation(hand="M1a C1a O1b", row=["M0c"], display="K1a", discard="G2b", acorns=5,
                      panorama=("spring", landscape, "pier"))
    d = draft_at(table)
    assert d.start_landscape(landscape) is flow.hand
    if flow.hand:
        assert d.flow == LandscapeFlow(landscape)
        if flow.needs_hand:
            assert d.reason("confirm") == "Select the cards for this power first."
        d.toggle_card(0)  # M1a (crane: it fits the Maple pile)
    card = {"display": cards("K1a")[0], "discard": cards("G2b")[0]}.get(flow.table_card or "")
    objective = "zeros" if flow.objective else None
    command = d.landscape_command(landscape, card=card, objective=objective)
    assert command == UseLandscape(0, landscape, tuple(d.selected) if flow.hand else (), card, objective)
    assert d.landscape_reason(landscape) is None
    assert engine.explain(table.view(0), command) is None  # the command the flow builds is legal here


def test_rules_4_5_a_used_landscape_is_refused_by_the_engine():
    table = situation(hand="M1a", acorns=2, used=("spring",))
    d = draft_at(table)
    assert d.landscape_reason("spring") == said(table, UseLandscape(0, "spring"))
    table = situation(hand="M1a", acorns=2, turn=TurnState(main_done=True))
    d = draft_at(table)
    assert d.landscape_reason("waterfall") == said(table, UseLandscape(0, "waterfall"))


# -------------------------------------------------------------- the turn


def test_not_your_turn_and_selections_pruned_with_a_new_view():
    table = situation(hand="M1a C1a", display="O1b")
    d = draft_at(table)
    d.toggle_card(0)
    table.state.current = 1
    d.set_view(table.view(0), table.legal(0))
    assert d.reason("play") == "It is Bot 1's turn."
    table.state.current = 0
    table.state.seats[0].hand = cards("C1a")
    d.set_view(table.view(0), table.legal(0))
    assert d.selected == []  # M1a left the hand
