"""RULES §1.5 [house] amounts of the landscape powers come from the game's rules.

A rules version may tune a landscape by its cost *or its amount* (acorns gained, cards
drawn, the +2 of Stepping Stones, the Tea House's second column, …), each
change a new rules version whose old saves keep their values. So the engine
reads every amount from ``GameState.rules`` (a ``HouseRules`` of the game's
version), never from a module constant: each test below plays a power under
a rules value changed from the published one and sees the change.
"""

from __future__ import annotations

from dataclasses import replace

from momiji_tui.engine import ActivateObjective, Collect, Play, UseLandscape, events as ev, legal_commands
from momiji_tui.engine.rules_data import CURRENT_RULES, RULES_BY_VERSION

from engine_helpers import cs, play, rejected, row_of, table


def land(lid: str, **kw):
    """A table where seat 0 owns landscape ``lid`` (plus spring and pier)."""
    pano = [lid] + [x for x in ("spring", "pier") if x != lid]
    kw.setdefault("panoramas", {0: pano})
    return table(kw.pop("seats", 2), **kw)


def under(state, **amounts):
    """``state`` played under the current rules with ``amounts`` changed."""
    state.rules = replace(CURRENT_RULES, version="test-amounts", **amounts)
    return state


def test_rules_1_5_every_published_version_keeps_the_original_amounts():
    # A version that changes an amount must say so (docs/RULES.md); none has yet.
    for rules in RULES_BY_VERSION.values():
        assert (rules.spring_gain, rules.bamboo_draw, rules.koi_max, rules.bridge_same_type_max,
                rules.stones_step, rules.pagoda_objective_cost, rules.teahouse_columns,
                rules.moss_pair_gain, rules.fox_discards_per_acorn, rules.festival_gift) == (
                    2, 2, 3, 3, 2, 2, 2, 3, 2, 1)


def test_rules_1_5_mountain_spring_gains_the_rules_acorns():
    _, events = play(under(land("spring", acorns=1), spring_gain=3), UseLandscape(0, "spring"))
    assert events[-1] == ev.AcornsGained(0, 3, "Mountain Spring")


def test_rules_1_5_bamboo_grove_draws_the_rules_cards():
    state = under(land("bamboo", hands={0: "M0a"}, deck="G1a C2a O0a"), bamboo_draw=3)
    _, events = play(state, UseLandscape(0, "bamboo"))
    assert events[-1] == ev.CardsDrawn(0, cs("G1a C2a O0a"))


def test_rules_1_5_koi_pond_discards_up_to_the_rules_maximum():
    state = under(land("koi", hands={0: "M0a G2a C1a O1a"}, deck="M3a G3a K0a", types="MGCOK"), koi_max=2)
    rejected(state, UseLandscape(0, "koi", hand_cards=cs("G2a C1a O1a")), "choose 1 to 2 card")
    offered = [x for x in legal_commands(state, 0) if isinstance(x, UseLandscape) and x.landscape == "koi"]
    assert {len(x.hand_cards) for x in offered} == {1, 2}


def test_rules_1_5_red_bridge_allows_the_rules_same_type_play():
    state = under(land("bridge", hands={0: "M0a M1a M1b M2a"}), bridge_same_type_max=4)
    state, _ = play(state, UseLandscape(0, "bridge"))
    assert max(len(x.cards) for x in legal_commands(state, 0) if isinstance(x, Play)) == 4
    state, _ = play(state, Play(0, cs("M0a M1a M1b M2a"), ("left",)))
    assert row_of(state, 0) == ["M0a M1a M1b M2a"]


def test_rules_1_5_stepping_stones_jumps_the_rules_step():
    base = under(land("stones", hands={0: "M3a"}, rows={0: ["M0a"]}), stones_step=3)
    state, _ = play(base, UseLandscape(0, "stones"))
    assert Play(0, cs("M3a")) in legal_commands(state, 0)
    state, _ = play(state, Play(0, cs("M3a")))
    assert row_of(state, 0) == ["M0a M3a"]
    # and the published step (2) refuses the same jump
    base = land("stones", hands={0: "M3a"}, rows={0: ["M0a"]})
    state, _ = play(base, UseLandscape(0, "stones"))
    rejected(state, Play(0, cs("M3a")), "exactly 1 higher")


def test_rules_1_5_pagoda_makes_an_objective_cost_the_rules_acorns():
    state = under(land("pagoda", acorns=2, objectives=["zeros", "ones"]), pagoda_objective_cost=1)
    state, events = play(state, UseLandscape(0, "pagoda"), ActivateObjective(0, "ones"))
    assert events[2] == ev.AcornsPaid(0, 1, "objective")
    assert state.seats[0].acorns == 0


def test_rules_1_5_tea_house_collects_the_rules_columns():
    state = under(land("teahouse", display="O2a G1a O0a C1a", acorns=3), teahouse_columns=3)
    state, _ = play(state, UseLandscape(0, "teahouse"))
    rejected(state, Collect(0, ("O", "C")), "collect 3 different columns")
    offered = [x.types for x in legal_commands(state, 0) if isinstance(x, Collect)]
    assert len(offered) == 1 and set(offered[0]) == {"O", "G", "C"}
    _, events = play(state, Collect(0, offered[0]))
    assert len(events) == 3 and all(isinstance(e, ev.ColumnCollected) for e in events)


def test_rules_1_5_moss_garden_pays_the_rules_acorns_per_pair():
    state = under(land("moss", hands={0: "O0a"}, rows={0: ["C0c", "O0e"]}, acorns=1), moss_pair_gain=4)
    _, events = play(state, UseLandscape(0, "moss"), Play(0, cs("O0a")))
    assert events[-1] == ev.AcornsGained(0, 4, "acorn pairs")


def test_rules_1_5_fox_shrine_pays_one_acorn_per_the_rules_discards():
    state = under(land("fox", hands={0: "M0a G2a C1a O1a M1b"}, acorns=1), fox_discards_per_acorn=3)
    _, events = play(state, UseLandscape(0, "fox", hand_cards=cs("M0a G2a C1a O1a M1b")))
    assert events[-1] == ev.AcornsGained(0, 1, "Fox Shrine")


def test_rules_1_5_autumn_festival_takes_the_rules_gift():
    state = under(land("festival", seats=3, acorns={0: 1, 1: 3, 2: 1}), festival_gift=2)
    _, events = play(state, UseLandscape(0, "festival"))
    assert events[2:] == [ev.AcornsPaid(1, 2, "Autumn Festival"), ev.AcornsGained(0, 2, "Autumn Festival")]
