"""``legal_commands``: what it lists (ARCHITECTURE "The engine", the note in legal.py)."""

from __future__ import annotations

from momiji_tui.engine import Collect, DiscardToLimit, Exchange, Play, UseLandscape, legal_commands, view

from engine_helpers import cs, play, table


def test_legal_cards_differing_only_by_letter_are_listed_once():
    # M0b and M0d are alike (value 0, left acorn only): one stands for both.
    state = table(2, hands={0: "M0b M0d"})
    singles = [x for x in legal_commands(state, 0) if isinstance(x, Play) and len(x.cards) == 1]
    assert {x.cards for x in singles} == {cs("M0b")}


def test_legal_a_known_copy_and_a_hidden_copy_are_different_choices():
    # Seat 0 collected M0d (everyone saw it) and was dealt M0b (private).
    # Playing or discarding the seen copy keeps the other one secret, so both
    # choices must be offered (RULES §8).
    state = table(2, hands={0: "M0b G1a"}, display="M0d", panoramas={0: ["fox"]}, acorns=3)
    state, _ = play(state, Collect(0, ("M",)))
    assert view(state, 1).seats[0].known == cs("M0d")
    legal = legal_commands(state, 0)
    exchanges = {x.cards for x in legal if isinstance(x, Exchange)}
    assert {cs("M0b M0d"), cs("M0b G1a"), cs("M0d G1a")} == exchanges
    fox = {x.hand_cards for x in legal if isinstance(x, UseLandscape) and len(x.hand_cards) == 1}
    assert fox == {cs("M0b"), cs("M0d"), cs("G1a")}
    state.turn.main_done = False  # test-only: look at the plays too
    singles = {x.cards for x in legal_commands(state, 0) if isinstance(x, Play) and len(x.cards) == 1}
    assert {cs("M0b"), cs("M0d")} <= singles


def test_legal_discard_to_limit_offers_the_known_copy():
    state = table(2, hands={0: "M0b G0a G0b G0c G0e C0a C0b C0c"}, display="M0d")
    state, _ = play(state, Collect(0, ("M",)))
    options = {x.cards for x in legal_commands(state, 0) if isinstance(x, DiscardToLimit)}
    assert cs("M0d") in options and cs("M0b") in options
