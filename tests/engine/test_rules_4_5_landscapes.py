"""RULES §4.5 and §1.5 — landscapes: the 18 powers, their cost and timing."""

from __future__ import annotations

import pytest

from momiji_tui.engine import (
    ActivateObjective, Collect, EndTurn, Play, Reveal, UseLandscape, events as ev, legal_commands,
)
from momiji_tui.engine.rules_data import CURRENT_RULES, LANDSCAPES

from engine_helpers import check_conservation, cs, names, play, rejected, row_of, table

ALL = list(LANDSCAPES)
MIDDAY = [k for k, v in LANDSCAPES.items() if v[0] == "midday"]
NOT_MIDDAY = [k for k, v in LANDSCAPES.items() if v[0] != "midday"]


def land(lid: str, **kw):
    """A table where seat 0 owns landscape ``lid`` (plus spring and pier)."""
    pano = [lid] + [x for x in ("spring", "pier") if x != lid]
    kw.setdefault("panoramas", {0: pano})
    return table(kw.pop("seats", 2), **kw)


def use(state, lid, **args):
    return play(state, UseLandscape(0, lid, **args))


def landscapes_offered(state, lid):
    return [x for x in legal_commands(state, 0) if isinstance(x, UseLandscape) and x.landscape == lid]


# ---------------------------------------------------------- cost and timing

# A valid use of every landscape in a table built by ``rich_table``.
ARGS = {
    "spring": {}, "bamboo": {}, "lantern": {"card": cs("O2a")[0]},
    "koi": {"hand_cards": cs("G2a")}, "terrace": {"card": cs("K1a")[0]},
    "bell": {"hand_cards": cs("G2a"), "card": cs("O2a")[0]},
    "bridge": {}, "stones": {}, "pagoda": {}, "teahouse": {}, "waterfall": {}, "moss": {},
    "pier": {}, "crane": {"hand_cards": cs("M1a")}, "pine": {}, "fox": {"hand_cards": cs("G2a C1a")},
    "moongate": {"objective": "zeros"}, "festival": {},
}


def rich_table(lid, acorns=5, display="O2a", **kw):
    return land(lid, types="MGCOK", hands={0: "M1a G2a C1a"}, rows={0: ["M0a"]}, display=display,
                discard="K1a", objectives=["zeros", "ones"], acorns=acorns, **kw)


@pytest.mark.parametrize("lid", ALL)
def test_rules_4_5_every_landscape_costs_its_acorns_from_rules_data(lid):
    state = rich_table(lid)  # the cost is the rules version's: 1 acorn, Tea House 2 (RULES §1.5)
    assert UseLandscape(0, lid, **ARGS[lid]) in landscapes_offered(state, lid)
    after, events = use(state, lid, **ARGS[lid])
    assert events[:2] == [ev.AcornsPaid(0, state.rules.landscape_cost(lid), "landscape"), ev.LandscapeUsed(0, lid)]
    assert after.seats[0].used == [lid]
    assert after.turn.landscape == lid
    check_conservation(after)


@pytest.mark.parametrize("lid", ALL)
def test_rules_4_5_each_landscape_once_per_game(lid):
    state = rich_table(lid, used={0: [lid]})
    rejected(state, UseLandscape(0, lid, **ARGS[lid]), "used already: each power works once per game")
    assert landscapes_offered(state, lid) == []


@pytest.mark.parametrize("lid", ALL)
def test_rules_4_5_one_landscape_per_turn(lid):
    other = "festival" if lid != "festival" else "spring"
    state = rich_table(lid, panoramas={0: [lid, other]})
    state, _ = play(state, UseLandscape(0, other))
    rejected(state, UseLandscape(0, lid, **ARGS[lid]), "only one landscape per turn")
    assert landscapes_offered(state, lid) == []


@pytest.mark.parametrize("lid", ALL)
def test_rules_4_5_a_landscape_needs_an_acorn(lid):
    state = rich_table(lid, acorns=0)
    rejected(state, UseLandscape(0, lid, **ARGS[lid]), f"costs {state.rules.landscape_cost(lid)} acorn")
    assert landscapes_offered(state, lid) == []


@pytest.mark.parametrize("lid", ALL)
def test_rules_4_5_only_landscapes_of_your_panorama(lid):
    state = rich_table(lid, panoramas={0: ["spring"], 1: [lid]})
    if lid != "spring":
        rejected(state, UseLandscape(0, lid, **ARGS[lid]), "not in your panorama")
    rejected(state, UseLandscape(0, "nonsense"), "not in your panorama")


@pytest.mark.parametrize("lid", MIDDAY)
def test_rules_4_5_midday_powers_only_before_the_main_action(lid):
    state = rich_table(lid)
    state, _ = play(state, Collect(0, ("O",)))
    rejected(state, UseLandscape(0, lid), "midday power: use it before your main action")
    assert landscapes_offered(state, lid) == []


@pytest.mark.parametrize("lid", NOT_MIDDAY)
def test_rules_4_5_sunrise_and_dusk_powers_any_time_in_the_turn(lid):
    state = rich_table(lid, display="O2a O1a")
    before, _ = use(state, lid, **ARGS[lid])
    after, _ = play(state, Collect(0, ("O",)))
    args = dict(ARGS[lid])
    if lid in ("lantern", "bell"):
        after.display.extend(cs("O2b"))  # test-only: something left to take
        args["card"] = cs("O2b")[0]
    after, _ = use(after, lid, **args)
    assert after.seats[0].used == [lid] == before.seats[0].used


def test_rules_4_5_powers_refuse_arguments_they_do_not_take():
    state = rich_table("spring")
    rejected(state, UseLandscape(0, "spring", hand_cards=cs("M1a")), "takes no cards from your hand")
    rejected(state, UseLandscape(0, "spring", card=cs("O2a")[0]), "takes no card from the table")
    rejected(state, UseLandscape(0, "spring", objective="zeros"), "takes no objective")


# ----------------------------------------------------------------- sunrise


def test_rules_1_5_mountain_spring_gains_two_acorns():
    state, events = use(land("spring", acorns=1), "spring")
    assert events[-1] == ev.AcornsGained(0, 2, "Mountain Spring")
    assert state.seats[0].acorns == 1 - 1 + 2


def test_rules_1_5_bamboo_grove_draws_two_cards_from_the_deck():
    state = land("bamboo", hands={0: "M0a"}, deck="G1a C2a O0a")
    state, events = use(state, "bamboo")
    assert events[-1] == ev.CardsDrawn(0, cs("G1a C2a"))
    assert names(state.seats[0].hand) == ["M0a", "G1a", "C2a"]
    assert state.seats[0].known == []  # drawn cards stay private (§8)
    check_conservation(state)


def test_rules_1_5_bamboo_grove_with_a_short_deck_draws_what_is_left():
    state = land("bamboo", deck="G1a", deck_rest=False)
    state, events = use(state, "bamboo")
    assert events[-1] == ev.CardsDrawn(0, cs("G1a"))
    assert state.deck_size == 0


def test_rules_1_5_bamboo_grove_refused_with_an_empty_deck():
    state = land("bamboo", deck="", deck_rest=False)
    rejected(state, UseLandscape(0, "bamboo"), "deck is empty")
    assert landscapes_offered(state, "bamboo") == []


def test_rules_1_5_stone_lantern_takes_a_display_card_of_your_choice():
    state = land("lantern", display="O2a G1a O0a")
    state, events = use(state, "lantern", card=cs("O0a")[0])
    assert events[-1] == ev.CardTaken(0, cs("O0a")[0], "display")
    assert names(state.display) == ["O2a", "G1a"]
    assert names(state.seats[0].hand) == names(state.seats[0].known) == ["O0a"]
    assert not state.turn.main_done  # not a collect
    rejected(land("lantern", display="O2a"), UseLandscape(0, "lantern", card=cs("G0a")[0]),
             "choose a card in the display")
    rejected(land("lantern", display="O2a"), UseLandscape(0, "lantern"), "choose a card in the display")
    assert len(landscapes_offered(land("lantern", display="O2a G1a O0a"), "lantern")) == 3


def test_rules_1_5_koi_pond_discards_up_to_three_then_draws_as_many():
    state = land("koi", hands={0: "M0a G2a C1a O1a"}, deck="M3a G3a K0a", types="MGCOK")
    state, events = use(state, "koi", hand_cards=cs("G2a C1a O1a"))
    assert events[2:] == [ev.CardsDiscarded(0, cs("G2a C1a O1a"), "Koi Pond"), ev.CardsDrawn(0, cs("M3a G3a K0a"))]
    assert names(state.seats[0].hand) == ["M0a", "M3a", "G3a", "K0a"]
    assert names(state.discard) == ["G2a", "C1a", "O1a"]
    check_conservation(state)
    state = land("koi", hands={0: "M0a G2a C1a O1a"})
    rejected(state, UseLandscape(0, "koi", hand_cards=cs("M0a G2a C1a O1a")), "choose 1 to 3 card")
    rejected(state, UseLandscape(0, "koi"), "choose 1 to 3 card")
    rejected(state, UseLandscape(0, "koi", hand_cards=cs("K0a")), "not in your hand")
    offered = landscapes_offered(state, "koi")
    assert {len(x.hand_cards) for x in offered} == {1, 2, 3}


def test_rules_1_5_koi_pond_with_a_short_deck_draws_what_is_left():
    # decision: the discard is the player's choice; the draw takes what the
    # deck still holds ("fewer if the deck holds fewer", as in §4.1).
    state = land("koi", hands={0: "M0a G2a C1a"}, deck="O1a", deck_rest=False)
    state, events = use(state, "koi", hand_cards=cs("M0a G2a"))
    assert events[-1] == ev.CardsDrawn(0, cs("O1a"))
    assert names(state.seats[0].hand) == ["C1a", "O1a"]
    empty = land("koi", hands={0: "M0a"}, deck="", deck_rest=False)
    rejected(empty, UseLandscape(0, "koi", hand_cards=cs("M0a")), "deck is empty")


def test_rules_1_5_rice_terrace_takes_a_discard_pile_card_of_your_choice():
    state = land("terrace", discard="M1a G2a C0a")
    state, events = use(state, "terrace", card=cs("G2a")[0])
    assert events[-1] == ev.CardTaken(0, cs("G2a")[0], "discard")
    assert names(state.discard) == ["M1a", "C0a"]
    assert names(state.seats[0].hand) == names(state.seats[0].known) == ["G2a"]
    rejected(land("terrace", discard="M1a"), UseLandscape(0, "terrace", card=cs("C0a")[0]),
             "choose a card in the discard pile")
    assert landscapes_offered(land("terrace", discard=""), "terrace") == []


def test_rules_1_5_temple_bell_swaps_a_hand_card_with_a_display_card():
    state = land("bell", hands={0: "M0a G2a"}, display="O2a C1a")
    state, events = use(state, "bell", hand_cards=cs("G2a"), card=cs("C1a")[0])
    assert events[-1] == ev.CardsSwapped(0, cs("G2a")[0], cs("C1a")[0])
    assert names(state.seats[0].hand) == ["M0a", "C1a"]
    assert names(state.seats[0].known) == ["C1a"]
    assert sorted(names(state.display)) == ["G2a", "O2a"]
    assert state.column("G") == list(cs("G2a"))  # joins its column
    base = land("bell", hands={0: "M0a G2a"}, display="O2a C1a")
    rejected(base, UseLandscape(0, "bell", hand_cards=cs("G2a"), card=cs("M1a")[0]), "card in the display")
    rejected(base, UseLandscape(0, "bell", hand_cards=cs("M0a G2a"), card=cs("O2a")[0]), "choose 1 card")
    rejected(base, UseLandscape(0, "bell", card=cs("O2a")[0]), "choose 1 card")
    assert len(landscapes_offered(base, "bell")) == 4


# ------------------------------------------------------------------ midday


def test_rules_1_5_red_bridge_allows_a_same_type_play_of_three():
    state = land("bridge", hands={0: "M0a M1a M2a M2b"})
    rejected(state, Play(0, cs("M0a M1a M2a"), ("left",)), "at most 2 cards")
    state, _ = use(state, "bridge")
    assert max(len(x.cards) for x in legal_commands(state, 0) if isinstance(x, Play)) == 3
    rejected(state, Play(0, cs("M0a M1a M2a M2b"), ("left",)), r"at most 3 cards \(RULES §4.2, Red Bridge")
    state, _ = play(state, Play(0, cs("M2a M0a M1a"), ("left",)))
    assert row_of(state, 0) == ["M0a M1a M2a"]


def test_rules_1_5_stepping_stones_one_card_two_higher():
    base = land("stones", hands={0: "M2a"}, rows={0: ["M0a"]})
    rejected(base, Play(0, cs("M2a")), "exactly 1 higher")
    state, _ = use(base, "stones")
    assert Play(0, cs("M2a")) in legal_commands(state, 0)
    state, _ = play(state, Play(0, cs("M2a")))
    assert row_of(state, 0) == ["M0a M2a"]


def test_rules_1_5_stepping_stones_in_a_two_card_same_type_play():
    # Top M0a: M2a jumps (0→2), then M3a follows normally (2→3) and closes.
    state = land("stones", hands={0: "M2a M3a"}, rows={0: ["M0a"]})
    state, events = play(state, UseLandscape(0, "stones"), Play(0, cs("M3a M2a")))
    assert row_of(state, 0) == ["M0a M2a M3a"]
    assert events[-1] == ev.PileClosed(0, "M", True)
    # A new pile: M0a starts it, M2a jumps onto it.
    state = land("stones", hands={0: "M0a M2a"})
    state, _ = play(state, UseLandscape(0, "stones"), Play(0, cs("M0a M2a"), ("left",)))
    assert row_of(state, 0) == ["M0a M2a"]


def test_rules_1_5_stepping_stones_only_one_card_jumps():
    state = land("stones", hands={0: "M2a G2a"}, rows={0: ["M0a", "G0a"]})
    state, _ = use(state, "stones")
    rejected(state, Play(0, cs("M2a G2a")), "exactly 1 higher")
    assert Play(0, cs("M2a G2a")) not in legal_commands(state, 0)
    state, _ = play(state, Play(0, cs("M2a")))
    assert row_of(state, 0) == ["M0a M2a", "G0a"]


def test_rules_1_5_stepping_stones_keeps_the_other_placement_rules():
    state = land("stones", hands={0: "M2a G1a C3a"}, rows={0: ["C1a C2a"]})
    state, _ = use(state, "stones")
    rejected(state, Play(0, cs("G1a"), ("left",)), "A pile begins with a 0")
    rejected(state, Play(0, cs("M2a"), ("left",)), "A pile begins with a 0")
    state2 = land("stones", hands={0: "M1a"}, rows={0: ["M0a M1b M2a"]})
    state2, _ = use(state2, "stones")
    rejected(state2, Play(0, cs("M1a")), "exactly 1 higher")  # never lower


def test_rules_1_5_pagoda_makes_an_objective_cost_two():
    state = land("pagoda", acorns=3, objectives=["zeros", "ones"])
    state, events = play(state, UseLandscape(0, "pagoda"), ActivateObjective(0, "ones"))
    assert events[2] == ev.AcornsPaid(0, 2, "objective")
    assert state.seats[0].acorns == 0 and state.owners == {"ones": 0}


def test_rules_1_5_tea_house_collects_two_columns():
    state = land("teahouse", display="O2a G1a O0a C1a")
    state, _ = use(state, "teahouse")
    rejected(state, Collect(0, ("O",)), "collect 2 different columns")
    rejected(state, Collect(0, ("O", "O")), "collect 2 different columns")
    offered = [x.types for x in legal_commands(state, 0) if isinstance(x, Collect)]
    assert set(offered) == {("G", "C"), ("G", "O"), ("C", "O")}
    state, events = play(state, Collect(0, ("O", "C")))
    assert events == [ev.ColumnCollected(0, "O", cs("O2a O0a")), ev.ColumnCollected(0, "C", cs("C1a"))]
    assert names(state.display) == ["G1a"]
    assert sorted(names(state.seats[0].hand)) == ["C1a", "O0a", "O2a"]


def test_rules_1_5_tea_house_with_one_column_collects_one():
    state = land("teahouse", display="O2a O0a")
    state, _ = use(state, "teahouse")
    rejected(state, Collect(0, ("O", "G")), "exactly one column")
    state, _ = play(state, Collect(0, ("O",)))
    assert names(state.seats[0].hand) == ["O2a", "O0a"]


def test_rules_1_5_tea_house_after_a_paid_reveal():
    state = land("teahouse", display="O2a", deck="G1a G2a C0a C3a", acorns=CURRENT_RULES.landscape_cost("teahouse") + 1)
    state, _ = play(state, UseLandscape(0, "teahouse"), Reveal(0), Collect(0, ("G", "C")))
    assert sorted(names(state.seats[0].hand)) == ["C0a", "C3a", "G1a", "G2a"]
    assert state.seats[0].acorns == 0


def test_rules_1_5_waterfall_makes_the_reveal_free():
    state = land("waterfall", display="", deck="O2a O1a G0a M1a", acorns=1)
    state, events = play(state, UseLandscape(0, "waterfall"))
    assert state.seats[0].acorns == 0
    assert Reveal(0) in legal_commands(state, 0)
    state, events = play(state, Reveal(0))
    assert events == [ev.DisplayRevealed(cs("O2a O1a G0a M1a"), "collect")]
    state, _ = play(state, Collect(0, ("O",)))
    assert state.seats[0].acorns == 0


def test_rules_1_5_moss_pairs_pay_three_in_same_type_play():
    # C0c (right acorn) | O0e; play O0a (left acorn) onto O: a same-type play
    # that, with the Moss Garden, checks pairs: 1 pair × 3 acorns.
    state = land("moss", hands={0: "O0a"}, rows={0: ["C0c", "O0e"]}, acorns=1)
    state, events = play(state, UseLandscape(0, "moss"), Play(0, cs("O0a")))
    assert events[-1] == ev.AcornsGained(0, 3, "acorn pairs")
    assert state.seats[0].acorns == 3


def test_rules_1_5_moss_pairs_pay_three_in_mixed_play():
    # C0c | O0a | M0e | G0e, play M0a and G1a: 3 pairs × 3 acorns.
    state = land("moss", hands={0: "M0a G1a"}, rows={0: ["C0c", "O0a", "M0e", "G0e"]}, acorns=1)
    state, events = play(state, UseLandscape(0, "moss"), Play(0, cs("M0a G1a")))
    assert events[-1] == ev.AcornsGained(0, 9, "acorn pairs")


# -------------------------------------------------------------------- dusk


def test_rules_1_5_sunset_pier_gains_one_per_closed_pile():
    state = land("pier", rows={0: ["M0a M1a M2a M3a", "G0a", "C0a C1a C2a C3b"]}, acorns=1)
    state, events = use(state, "pier")
    assert events[-1] == ev.AcornsGained(0, 2, "Sunset Pier")
    assert state.seats[0].acorns == 2
    nothing, events = use(land("pier", rows={0: ["M0a"]}, acorns=1), "pier")
    assert nothing.seats[0].acorns == 0 and len(events) == 2


def test_rules_1_5_crane_island_plays_one_card_onto_an_existing_pile():
    state = land("crane", hands={0: "M1a G0a"}, rows={0: ["M0a"]}, display="O1a")
    state, events = use(state, "crane", hand_cards=cs("M1a"))
    assert events[-1] == ev.CardsPlayed(0, cs("M1a"), ("",), "crane")
    assert row_of(state, 0) == ["M0a M1a"]
    assert not state.turn.main_done  # in addition to the main action
    state, _ = play(state, Play(0, cs("G0a"), ("right",)))
    assert row_of(state, 0) == ["M0a M1a", "G0a"]


def test_rules_1_5_crane_island_after_the_main_action():
    state = land("crane", hands={0: "M1a"}, rows={0: ["M0a"]}, display="O1a")
    state, _ = play(state, Collect(0, ("O",)), UseLandscape(0, "crane", hand_cards=cs("M1a")), EndTurn(0))
    assert row_of(state, 0) == ["M0a M1a"]


def test_rules_1_5_crane_island_follows_normal_placement_and_no_new_pile():
    state = land("crane", hands={0: "M2a G0a M1a"}, rows={0: ["M0a", "C0a C1a C2a C3a"]})
    rejected(state, UseLandscape(0, "crane", hand_cards=cs("M2a")), "exactly 1 higher")
    rejected(state, UseLandscape(0, "crane", hand_cards=cs("G0a")), "plays onto an existing pile")
    rejected(state, UseLandscape(0, "crane", hand_cards=cs("M1a G0a")), "choose 1 card")
    offered = landscapes_offered(state, "crane")
    assert offered == [UseLandscape(0, "crane", hand_cards=cs("M1a"))]


def test_rules_1_5_crane_island_closing_a_pile_takes_a_torii():
    state = land("crane", hands={0: "M3a"}, rows={0: ["M0a M1a M2a"]})
    state, events = use(state, "crane", hand_cards=cs("M3a"))
    assert events[-1] == ev.PileClosed(0, "M", True)
    assert state.torii_left == 3 and state.seats[0].row[0].closed
    rejected(land("crane", hands={0: "M3b"}, rows={0: ["M0a M1a M2a M3a"]}),
             UseLandscape(0, "crane", hand_cards=cs("M3b")), "closed by a torii")


def test_rules_1_5_crane_island_gives_no_acorn_pairs():
    # C0c | O0e; Crane puts O0a on O: a pair shows, but Crane is not a mixed play.
    state = land("crane", hands={0: "O0a"}, rows={0: ["C0c", "O0e"]}, acorns=1)
    state, events = use(state, "crane", hand_cards=cs("O0a"))
    assert not [e for e in events if isinstance(e, ev.AcornsGained)]


def test_rules_1_5_pine_ridge_gains_one_per_pile_topped_by_a_zero():
    state = land("pine", rows={0: ["M0a", "G0a G0b", "C0a C1a", "O0c"]}, acorns=1)
    state, events = use(state, "pine")
    assert events[-1] == ev.AcornsGained(0, 3, "Pine Ridge")
    assert state.seats[0].acorns == 3


def test_rules_1_5_fox_shrine_one_acorn_per_two_discarded():
    state = land("fox", hands={0: "M0a G2a C1a O1a M1b"}, acorns=1)
    after, events = use(state, "fox", hand_cards=cs("M0a G2a C1a O1a M1b"))
    assert events[2:] == [
        ev.CardsDiscarded(0, cs("M0a G2a C1a O1a M1b"), "Fox Shrine"), ev.AcornsGained(0, 2, "Fox Shrine"),
    ]
    assert after.seats[0].hand == [] and after.seats[0].acorns == 2
    one, events = use(state, "fox", hand_cards=cs("G2a"))
    assert one.seats[0].acorns == 0 and len(events) == 3
    rejected(state, UseLandscape(0, "fox"), "choose 1 to 5 card")


def test_rules_1_5_moon_gate_activates_an_objective_in_addition_to_the_main_action():
    state = land("moongate", acorns=7, objectives=["zeros", "ones", "piles"])
    state, events = use(state, "moongate", objective="ones")
    assert events == [
        ev.AcornsPaid(0, 1, "landscape"), ev.LandscapeUsed(0, "moongate"),
        ev.AcornsPaid(0, 3, "objective"), ev.ObjectiveActivated(0, "ones", main_action=False),
    ]
    assert state.seats[0].acorns == 3 and state.owners == {"ones": 0}
    assert not state.turn.main_done
    state, _ = play(state, ActivateObjective(0, "zeros"))
    assert state.owners == {"ones": 0, "zeros": 0} and state.seats[0].acorns == 0


def test_rules_1_5_moon_gate_costs_the_landscape_acorn_plus_the_normal_cost():
    state = land("moongate", acorns=3, objectives=["zeros", "ones"])
    rejected(state, UseLandscape(0, "moongate", objective="ones"), "costs 4 acorns; you have 3")
    assert landscapes_offered(state, "moongate") == []
    state = land("moongate", acorns=4, objectives=["zeros", "ones"], owners={"zeros": 1}, display="M1a")
    assert landscapes_offered(state, "moongate") == [UseLandscape(0, "moongate", objective="ones")]
    rejected(state, UseLandscape(0, "moongate", objective="zeros"), "already activated")
    rejected(state, UseLandscape(0, "moongate", objective="twos"), "not one of this game's revealed objectives")
    after, _ = play(state, Collect(0, tuple(state.columns()[:1])), UseLandscape(0, "moongate", objective="ones"))
    assert after.seats[0].acorns == 0


def test_rules_1_5_autumn_festival_every_other_player_with_an_acorn_gives_one():
    state = land("festival", seats=4, acorns={0: 1, 1: 3, 2: 0, 3: 1})
    state, events = use(state, "festival")
    assert events[2:] == [
        ev.AcornsPaid(1, 1, "Autumn Festival"), ev.AcornsPaid(3, 1, "Autumn Festival"),
        ev.AcornsGained(0, 2, "Autumn Festival"),
    ]
    assert [s.acorns for s in state.seats] == [2, 2, 0, 0]


def test_rules_4_5_refusals_explain_what_to_choose():
    state = land("fox", hands={}, panoramas={0: ["fox", "moongate", "koi"]}, objectives=["zeros"], acorns=5)
    rejected(state, UseLandscape(0, "fox"), r"^Fox Shrine: your hand is empty \(RULES §1.5\)\.$")
    rejected(state, UseLandscape(0, "koi"), r"^Koi Pond: your hand is empty \(RULES §1.5\)\.$")
    rejected(state, UseLandscape(0, "moongate"), r"^Moon Gate: choose an objective to activate \(RULES §1.5\)\.$")
