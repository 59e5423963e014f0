"""RULES §4.3 — activate an objective: pay 3 acorns, become its owner."""

from __future__ import annotations

from momiji_tui.engine import ActivateObjective, EndTurn, events as ev, legal_commands

from engine_helpers import play, rejected, table


def test_rules_4_3_activate_pays_three_acorns_and_makes_the_owner():
    state = table(2, acorns=4, objectives=["zeros", "ones", "piles", "type-M"])
    state, events = play(state, ActivateObjective(0, "ones"))
    assert events == [ev.AcornsPaid(0, 3, "objective"), ev.ObjectiveActivated(0, "ones")]
    assert state.owners == {"ones": 0}
    assert state.seats[0].acorns == 1
    assert state.turn.main_done  # it is the main action


def test_rules_4_3_only_a_revealed_not_yet_activated_objective():
    state = table(2, acorns=5, objectives=["zeros", "ones"], owners={"zeros": 1})
    rejected(state, ActivateObjective(0, "zeros"), "already activated by Basho")
    rejected(state, ActivateObjective(0, "twos"), "not one of this game's revealed objectives")
    rejected(state, ActivateObjective(0, "bogus"), "not one of this game's revealed objectives")
    legal = [x for x in legal_commands(state, 0) if isinstance(x, ActivateObjective)]
    assert legal == [ActivateObjective(0, "ones")]


def test_rules_4_3_needs_three_acorns():
    state = table(2, acorns=2, objectives=["zeros", "ones"])
    rejected(state, ActivateObjective(0, "zeros"), "costs 3 acorns; you have 2")
    assert not [x for x in legal_commands(state, 0) if isinstance(x, ActivateObjective)]


def test_rules_4_3_an_owner_keeps_the_objective_for_the_game():
    state = table(2, acorns=6, objectives=["zeros", "ones"])
    state, _ = play(state, ActivateObjective(0, "zeros"), EndTurn(0))
    rejected(state, ActivateObjective(1, "zeros"), "already activated by Ada")
    state, _ = play(state, ActivateObjective(1, "ones"))
    assert state.owners == {"zeros": 0, "ones": 1}
