"""Events: stable JSON form, ``fold``/``apply`` (ARCHITECTURE "The engine")."""

from __future__ import annotations

import json

import pytest

from momiji_tui.engine import (
    Collect, EndTurn, apply, create_game, events as ev, fold, from_dict, run, to_dict,
)
from momiji_tui.engine.events import EVENT_TYPES

from engine_helpers import cs, table

EXAMPLES = [
    ev.GameCreated("g1", "2026.11-1", 7, ("Ada", "Bot"), ("M", "G", "C", "O"), ("zeros", "type-M"), 1,
                   cs("M0a G3b"), "draft",
                   (("spring", "koi", "bell"), ("moss", "bridge", "stones"), ("pier", "fox", "pine"))),
    ev.GameCreated("g2", "2026.11-1", None, ("a", "b"), ("M",), (), 0, (), "starter"),
    ev.LandscapeDrafted(0, "koi"),
    ev.CardsDealt(1, cs("M0a M1b")),
    ev.PlayStarted(1),
    ev.DisplayRevealed(cs("C2a"), "top-up"),
    ev.AcornsGained(0, 2, "setup"),
    ev.AcornsPaid(0, 1, "reveal"),
    ev.ColumnCollected(0, "C", cs("C2a C0b")),
    ev.CardsPlayed(0, cs("M0a G1a"), ("left", ""), "mixed"),
    ev.PileClosed(0, "M", False),
    ev.ObjectiveActivated(1, "zeros", main_action=False),
    ev.CardsDiscarded(0, cs("K3a"), "exchange"),
    ev.CardsDrawn(1, ()),
    ev.CardTaken(0, cs("Z2b")[0], "discard"),
    ev.CardsSwapped(0, cs("M0a")[0], cs("G0a")[0]),
    ev.LandscapeUsed(0, "moongate"),
    ev.MainActionPassed(1),
    ev.EndTriggered(0, "torii"),
    ev.TurnEnded(0),
    ev.ActionsUndone(1, 3),
    ev.GameEnded(),
    ev.SeatControlChanged(1, "bot", "key-a", "bot after a wait"),
    ev.HintShown(0, 61),
]


def test_every_event_type_has_an_example():
    assert {type(e).__name__ for e in EXAMPLES} == set(EVENT_TYPES)


@pytest.mark.parametrize("event", EXAMPLES, ids=lambda e: type(e).__name__)
def test_event_to_dict_from_dict_and_json_text_round_trip(event):
    data = to_dict(event)
    assert data["type"] == type(event).__name__
    assert from_dict(data) == event
    assert from_dict(json.loads(json.dumps(data))) == event


def test_event_json_form_writes_cards_by_name():
    assert to_dict(ev.ColumnCollected(0, "C", cs("C2a C0b"))) == {
        "type": "ColumnCollected", "seat": 0, "leaf_type": "C", "cards": ["C2a", "C0b"]}
    assert to_dict(ev.CardTaken(1, cs("Z2b")[0], "display"))["card"] == "Z2b"
    assert to_dict(ev.GameEnded()) == {"type": "GameEnded"}


@pytest.mark.parametrize("data", [
    {"type": "Nope"},
    {"seat": 0},
    {"type": "TurnEnded"},
    {"type": "TurnEnded", "seat": 0, "extra": 1},
    {"type": "CardsDrawn", "seat": 0, "cards": ["X9z"]},
])
def test_from_dict_rejects_bad_data_with_value_error(data):
    with pytest.raises(ValueError):
        from_dict(data)


def test_fold_needs_a_log_beginning_with_game_created():
    with pytest.raises(ValueError, match="begin with GameCreated"):
        fold([])
    with pytest.raises(ValueError, match="begin with GameCreated"):
        fold([ev.TurnEnded(0)])
    events = create_game(["a", "b"], seed=1)
    with pytest.raises(ValueError, match="GameCreated can only begin"):
        fold(events + [events[0]])


def test_fold_rejects_an_event_that_cannot_follow():
    events = create_game(["a", "b"], seed=1)
    state = fold(events)
    wrong = [c for c in state.deck if c not in state.deck[state.deck_pos:state.deck_pos + 2]][:2]
    with pytest.raises(ValueError, match="not on top of the deck"):
        fold(events + [ev.CardsDrawn(0, tuple(wrong))])
    with pytest.raises(ValueError, match="more acorns"):
        fold(events + [ev.AcornsPaid(0, 5, "objective")])


def test_apply_returns_a_new_state_and_leaves_the_old_one():
    state = table(2, display="C1a")
    before = state.clone()
    after = apply(state, ev.ColumnCollected(0, "C", cs("C1a")))
    assert state == before and after != before
    assert after.seats[0].hand == list(cs("C1a"))


def test_run_equals_fold_of_the_log():
    events = create_game(["a", "b", "c"], seed=9)
    state = fold(events)
    seat = state.current
    state, new = run(state, Collect(seat, (state.columns()[0],)))
    events += new
    state, new = run(state, EndTurn(seat))
    events += new
    assert fold(events) == state
