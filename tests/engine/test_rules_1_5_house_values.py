"""RULES §1.5 [house] values per rules version (docs/BALANCE.md).

A game keeps the rules version of its ``GameCreated`` (``GameState.rules``);
the values that changed between versions are read from
``rules_data.RULES_BY_VERSION``, never from a constant.
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from momiji_tui.engine import UseLandscape, create_game, fold, legal_commands, view
from momiji_tui.engine import events as ev
from momiji_tui.engine.rules_data import (
    CURRENT_RULES, LANDSCAPE_COST, LANDSCAPES, RULES_BY_VERSION, RULES_VERSION, landscape_cost_text, rules_for,
)

from engine_helpers import play, rejected, table


def tea_house(acorns: int, version: str = RULES_VERSION):
    """Seat 0 to move with the Tea House, under rules ``version``."""
    state = table(2, panoramas={0: ["teahouse", "spring", "pier"]}, display="M1a G2a", acorns=acorns)
    state.rules = rules_for(version)
    return state


def test_rules_1_5_tea_house_costs_two_acorns_since_2026_11_2():
    """RULES §1.5 [house] (2026.11-2): the Tea House costs 2 acorns, every
    other landscape LANDSCAPE_COST (1)."""
    assert CURRENT_RULES.landscape_cost("teahouse") == 2
    assert {lid for lid in LANDSCAPES if CURRENT_RULES.landscape_cost(lid) != LANDSCAPE_COST} == {"teahouse"}
    assert RULES_BY_VERSION["2026.11-1"].landscape_cost("teahouse") == 1


def test_rules_1_5_tea_house_with_one_acorn_is_refused_and_not_offered():
    state = tea_house(1)
    rejected(state, UseLandscape(0, "teahouse"),
             re.escape("Using Tea House costs 2 acorns; you have 1 (RULES §4.5)."))
    assert UseLandscape(0, "teahouse") not in legal_commands(state, 0)
    assert UseLandscape(0, "spring") in legal_commands(state, 0)


def test_rules_1_5_tea_house_pays_its_cost_from_rules_data():
    state = tea_house(2)
    after, events = play(state, UseLandscape(0, "teahouse"))
    assert events[:2] == [ev.AcornsPaid(0, state.rules.landscape_cost("teahouse"), "landscape"),
                          ev.LandscapeUsed(0, "teahouse")]
    assert after.seats[0].acorns == 0


def test_rules_1_5_an_old_version_game_keeps_its_tea_house_cost():
    state = tea_house(1, "2026.11-1")
    _, events = play(state, UseLandscape(0, "teahouse"))
    assert events[0] == ev.AcornsPaid(0, 1, "landscape")


def test_rules_version_is_read_from_game_created_and_shown_in_views():
    old = fold(create_game(["Ada", "Basho"], seed=3, rules_version="2026.11-1"))
    new = fold(create_game(["Ada", "Basho"], seed=3))
    assert old.rules.version == "2026.11-1" and new.rules.version == RULES_VERSION
    assert view(old, 0).rules == old.rules and old.clone().rules == old.rules


def test_an_unknown_rules_version_is_refused():
    with pytest.raises(ValueError, match=re.escape("unknown rules version '1999.01-1'")):
        create_game(["Ada", "Basho"], seed=3, rules_version="1999.01-1")
    created = create_game(["Ada", "Basho"], seed=3)[0]
    assert isinstance(created, ev.GameCreated)
    with pytest.raises(ValueError, match="unknown rules version"):
        fold([replace(created, rules_version="1999.01-1")])


def test_rules_4_5_cost_words_for_the_ui_come_from_rules_data():
    assert landscape_cost_text(CURRENT_RULES, ["spring", "pier"]) == "1 acorn"
    assert landscape_cost_text(CURRENT_RULES, ["bridge", "teahouse"]) == "1 acorn; Tea House 2 acorns"
    assert landscape_cost_text(CURRENT_RULES, ["teahouse"]) == "2 acorns"  # the palette's line for it
    assert landscape_cost_text(CURRENT_RULES, ["bridge"]) == "1 acorn"
    assert landscape_cost_text(rules_for("2026.11-1"), LANDSCAPES) == "1 acorn"


def test_rules_4_5_a_free_landscape_is_offered_and_used_with_no_acorn():
    """A landscape that costs nothing (the candidate rules measured in
    docs/BALANCE.md: the Red Bridge free) is offered and used with no acorn,
    and nothing is paid (no AcornsPaid event); the others still cost theirs
    (the shortcut 'fewer acorns than any landscape costs' is per rules)."""
    state = table(2, panoramas={0: ["spring", "bridge", "pier"]}, display="M1a G2a", acorns=0)
    state.rules = rules_for("candidate-tea3-bridge0")
    assert state.rules.cheapest_landscape == 0 and CURRENT_RULES.cheapest_landscape == 1
    assert UseLandscape(0, "bridge") in legal_commands(state, 0)
    assert UseLandscape(0, "spring") not in legal_commands(state, 0)
    after, events = play(state, UseLandscape(0, "bridge"))
    assert events == [ev.LandscapeUsed(0, "bridge")]
    assert after.seats[0].acorns == 0
    assert landscape_cost_text(state.rules, ["bridge"]) == "free"
    assert landscape_cost_text(state.rules, ["spring", "bridge", "teahouse"]) == (
        "1 acorn; Red Bridge free; Tea House 3 acorns")
