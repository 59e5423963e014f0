"""RULES §1 — components: leaf cards, acorn corners, tokens, objectives, landscapes."""

from __future__ import annotations

from collections import Counter

import pytest

from momiji_tui.engine import CARD_NAME, CARD_TYPE, CARD_VALUE, card_by_name, describe_card
from momiji_tui.engine.cards import ALL_CARDS, CARD_LEFT_ACORN, CARD_RIGHT_ACORN, cards_of_types
from momiji_tui.engine.rules_data import (
    LANDSCAPES, LEAF_NAMES, LEAF_TYPES, OBJECTIVE_NAMES, OBJECTIVE_TEXT, PARTS, STARTER_PANORAMA,
    torii_supply,
)

from engine_helpers import new_game


def test_rules_1_1_eighty_four_cards_six_types_of_fourteen():
    assert len(ALL_CARDS) == 84
    assert LEAF_TYPES == ("M", "G", "C", "O", "Z", "K")
    assert Counter(CARD_TYPE) == {t: 14 for t in LEAF_TYPES}


@pytest.mark.parametrize("leaf_type", LEAF_TYPES)
def test_rules_1_1_values_five_zeros_four_ones_three_twos_two_threes(leaf_type):
    values = Counter(CARD_VALUE[c] for c in cards_of_types([leaf_type]))
    assert values == {0: 5, 1: 4, 2: 3, 3: 2}


def test_rules_1_1_every_type_has_a_letter_and_a_name():
    assert LEAF_NAMES == {
        "M": "Maple", "G": "Ginkgo", "C": "Cherry", "O": "Oak", "Z": "Zelkova", "K": "Katsura",
    }


# RULES §1.2 table: (value, letter) -> (left acorn, right acorn).
CORNERS = {
    "0a": (True, True), "0b": (True, False), "0c": (False, True), "0d": (True, False),
    "0e": (False, False), "1a": (True, False), "1b": (False, True), "1c": (False, False),
    "1d": (False, True), "2a": (True, False), "2b": (False, True), "2c": (False, False),
    "3a": (False, True), "3b": (False, False),
}


@pytest.mark.parametrize("leaf_type", LEAF_TYPES)
def test_rules_1_2_acorn_corners_follow_the_table_for_every_type(leaf_type):
    for suffix, (left, right) in CORNERS.items():
        card = card_by_name(leaf_type + suffix)
        assert CARD_TYPE[card] == leaf_type
        assert CARD_VALUE[card] == int(suffix[0])
        assert (CARD_LEFT_ACORN[card], CARD_RIGHT_ACORN[card]) == (left, right), leaf_type + suffix


def test_rules_1_2_card_names_are_stable_and_unique():
    assert len(set(CARD_NAME)) == 84
    assert CARD_NAME[0] == "M0a" and CARD_NAME[13] == "M3b" and CARD_NAME[83] == "K3b"
    for card in ALL_CARDS:
        assert card_by_name(CARD_NAME[card]) == card
    assert describe_card(card_by_name("G2b")) == "Ginkgo 2"
    with pytest.raises(KeyError):
        card_by_name("M4a")


@pytest.mark.parametrize(("seats", "supply"), [(2, 4), (3, 5), (4, 6)])
def test_rules_1_3_torii_supply_holds_players_plus_two(seats, supply):
    assert torii_supply(seats) == supply
    assert new_game(seats).torii_left == supply


def test_rules_1_4_nine_objective_kinds_with_one_grove_per_leaf_type():
    kinds = {o if not o.startswith("type-") else "type-X" for o in OBJECTIVE_NAMES}
    assert kinds == {"zeros", "type-X", "top-sum", "ones", "twos", "torii", "piles", "longest", "acorns"}
    assert sorted(o[5:] for o in OBJECTIVE_NAMES if o.startswith("type-")) == sorted(LEAF_TYPES)
    assert len(OBJECTIVE_NAMES) == 14
    assert OBJECTIVE_NAMES["zeros"] == "Fallen Seeds"
    assert OBJECTIVE_NAMES["type-K"] == "Grove of Katsura"
    assert set(OBJECTIVE_TEXT) == set(OBJECTIVE_NAMES)


def test_rules_1_5_eighteen_landscapes_six_in_each_part():
    assert len(LANDSCAPES) == 18
    assert PARTS == ("sunrise", "midday", "dusk")
    by_part = Counter(part for part, _name, _text in LANDSCAPES.values())
    assert by_part == {"sunrise": 6, "midday": 6, "dusk": 6}
    assert {k for k, v in LANDSCAPES.items() if v[0] == "sunrise"} == {
        "spring", "bamboo", "lantern", "koi", "terrace", "bell"}
    assert {k for k, v in LANDSCAPES.items() if v[0] == "midday"} == {
        "bridge", "stones", "pagoda", "teahouse", "waterfall", "moss"}
    assert {k for k, v in LANDSCAPES.items() if v[0] == "dusk"} == {
        "pier", "crane", "pine", "fox", "moongate", "festival"}


def test_rules_1_5_starter_panorama_is_spring_waterfall_pier_for_every_seat():
    assert STARTER_PANORAMA == ("spring", "waterfall", "pier")
    assert [LANDSCAPES[x][0] for x in STARTER_PANORAMA] == ["sunrise", "midday", "dusk"]
    state = new_game(4)
    assert all(s.panorama == ["spring", "waterfall", "pier"] for s in state.seats)
    assert all(s.used == [] for s in state.seats)
