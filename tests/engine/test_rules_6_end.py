"""RULES §6 — the end: deck or torii trigger, then the round is finished."""

from __future__ import annotations

import pytest

from momiji_tui.engine import (
    Collect, EndTurn, Pass, Play, Reveal, UseLandscape, events as ev, legal_commands,
)

from engine_helpers import cs, play, rejected, table


def collect_and_end(state):
    """The current seat collects the first column (or passes) and ends its turn."""
    seat = state.current
    first = Collect(seat, (state.columns()[0],)) if state.columns() else Pass(seat)
    return play(state, first, EndTurn(seat))


def test_rules_6_deck_trigger_finishes_the_round():
    # 3 seats, first seat 0. Seat 1 empties the deck with its top-up; seat 2
    # (the last seat of the round) still plays, then the game ends.
    state = table(3, first_seat=0, current=1, display="O0a O1a M0a G0a", deck="C1a", deck_rest=False)
    state, events = collect_and_end(state)
    assert events[-3:] == [ev.DisplayRevealed(cs("C1a"), "top-up"), ev.EndTriggered(1, "deck"), ev.TurnEnded(1)]
    assert state.phase == "play" and state.end_trigger == "deck" and state.current == 2
    state, events = collect_and_end(state)
    assert events[-2:] == [ev.TurnEnded(2), ev.GameEnded()]
    assert state.phase == "ended"
    assert not [e for e in events if isinstance(e, ev.EndTriggered)]  # triggered once


def test_rules_6_trigger_in_the_last_seats_turn_ends_after_that_turn():
    state = table(3, first_seat=0, current=2, display="O0a M0a", deck="C1a", deck_rest=False)
    state, events = collect_and_end(state)
    assert events[-3:] == [ev.EndTriggered(2, "deck"), ev.TurnEnded(2), ev.GameEnded()]
    assert state.phase == "ended"


@pytest.mark.parametrize("first_seat", [0, 1, 2, 3])
def test_rules_6_every_seat_has_had_the_same_number_of_turns(first_seat):
    # 4 seats; the trigger comes in the first seat's turn: the three others still play.
    state = table(4, first_seat=first_seat, display="O0a M0a G0a C0a", deck="Z1a", deck_rest=False)
    for seat in state.seats:
        seat.turns = 3  # test-only: three full rounds already played
    state, events = collect_and_end(state)
    assert ev.EndTriggered(first_seat, "deck") in events
    order = [first_seat]
    while state.phase != "ended":
        order.append(state.current)
        state, _ = collect_and_end(state)
    assert order == [(first_seat + k) % 4 for k in range(4)]
    assert [s.turns for s in state.seats] == [4, 4, 4, 4]
    assert state.current == first_seat


def test_rules_6_deck_emptied_by_a_reveal_triggers_at_the_end_of_that_turn():
    state = table(2, first_seat=0, display="O0a", deck="M0a G0a", deck_rest=False, acorns=1)
    state, events = play(state, Reveal(0), Collect(0, ("M",)))
    assert state.deck_size == 0 and state.end_trigger is None
    state, events = play(state, EndTurn(0))
    assert events == [ev.EndTriggered(0, "deck"), ev.TurnEnded(0)]


def test_rules_6_torii_trigger_when_the_supply_is_used_up():
    state = table(2, first_seat=0, hands={0: "M3a"}, rows={0: ["M0a M1a M2a"]}, display="O0a G0a C0a O1a",
                  torii_left=1)
    state, events = play(state, Play(0, cs("M3a")))
    assert state.torii_left == 0 and state.end_trigger is None  # checked at the end of the turn
    state, events = play(state, EndTurn(0))
    assert events == [ev.EndTriggered(0, "torii"), ev.TurnEnded(0)]
    state, events = collect_and_end(state)
    assert events[-1] == ev.GameEnded()


def test_rules_6_torii_trigger_counts_piles_closed_by_all_seats():
    # 2 seats: 4 torii. Three piles are closed already (two by seat 1); seat 0
    # closes the fourth with the Crane Island after its main action.
    state = table(2, first_seat=1, current=0, hands={0: "G3a"},
                  rows={0: ["M0a M1a M2a M3a", "G0a G1a G2a"], 1: ["C0a C1a C2a C3a", "O0a O1a O2a O3a"]},
                  display="M0b", panoramas={0: ["crane"]})
    assert state.torii_left == 1
    state, events = play(state, Collect(0, ("M",)), UseLandscape(0, "crane", hand_cards=cs("G3a")), EndTurn(0))
    assert events[-3:] == [ev.EndTriggered(0, "torii"), ev.TurnEnded(0), ev.GameEnded()]


def test_rules_6_no_trigger_while_deck_and_torii_remain():
    state = table(2, display="O0a")
    state, events = collect_and_end(state)
    assert not [e for e in events if isinstance(e, (ev.EndTriggered, ev.GameEnded))]


def test_rules_6_after_the_end_nothing_more_happens():
    state = table(2, first_seat=0, current=1, display="O0a", deck="", deck_rest=False)
    state, _events = collect_and_end(state)
    assert state.phase == "ended"
    for seat in (0, 1):
        assert legal_commands(state, seat) == []
        rejected(state, EndTurn(seat), "The game is over")
        rejected(state, Collect(seat, ("O",)), "The game is over")
