"""RULES §4.4 — free action: exchange 2 cards for 1 acorn."""

from __future__ import annotations

from momiji_tui.engine import Collect, Exchange, events as ev, legal_commands

from engine_helpers import check_conservation, cs, names, play, rejected, table


def test_rules_4_4_exchange_discards_two_face_up_and_gains_one_acorn():
    state = table(2, hands={0: "M0a G2a C1a"}, display="O0a", discard="K0a", types="MGCOK")
    state, events = play(state, Exchange(0, cs("M0a C1a")))
    assert events == [ev.CardsDiscarded(0, cs("M0a C1a"), "exchange"), ev.AcornsGained(0, 1, "exchange")]
    assert names(state.seats[0].hand) == ["G2a"]
    assert names(state.discard) == ["K0a", "M0a", "C1a"]  # face up, on top
    assert state.seats[0].acorns == 3
    assert not state.turn.main_done  # a free action
    check_conservation(state)


def test_rules_4_4_exchange_is_exactly_two_cards_from_the_hand():
    state = table(2, hands={0: "M0a G2a C1a"})
    rejected(state, Exchange(0, cs("M0a")), "exactly 2 cards")
    rejected(state, Exchange(0, cs("M0a G2a C1a")), "exactly 2 cards")
    rejected(state, Exchange(0, cs("M0a O1a")), "not in your hand")
    rejected(state, Exchange(0, cs("M0a M0a")), "named twice")
    short = table(2, hands={0: "M0a"}, display="G0a")
    assert not [x for x in legal_commands(short, 0) if isinstance(x, Exchange)]


def test_rules_4_4_exchange_once_per_turn_before_or_after_the_main_action():
    state = table(2, hands={0: "M0a G2a C1a O1a"}, display="G0b")
    after, _ = play(state, Collect(0, ("G",)), Exchange(0, cs("M0a G2a")))
    assert after.seats[0].acorns == 3
    before, _ = play(state, Exchange(0, cs("M0a G2a")))
    rejected(before, Exchange(0, cs("C1a O1a")), "only once per turn")
    assert not [x for x in legal_commands(before, 0) if isinstance(x, Exchange)]
