"""RULES §4.2 — play leaf cards: both modes, placement, closing, acorn pairs."""

from __future__ import annotations

import pytest

from momiji_tui.engine import Play, events as ev, legal_commands
from momiji_tui.engine.cards import CARD_KIND

from engine_helpers import check_conservation, cs, play, rejected, row_of, table


def plays(state, seat=0):
    return [x for x in legal_commands(state, seat) if isinstance(x, Play)]


# ----------------------------------------------------------------- the modes


def test_rules_4_2_same_type_play_of_one_card_onto_its_pile():
    state = table(2, hands={0: "M1a G0a"}, rows={0: ["M0a"]})
    state, events = play(state, Play(0, cs("M1a")))
    assert events == [ev.CardsPlayed(0, cs("M1a"), ("",), "same")]
    assert row_of(state, 0) == ["M0a M1a"]
    assert state.turn.main_done
    check_conservation(state)


def test_rules_4_2_same_type_play_of_two_cards():
    state = table(2, hands={0: "M1a M2a"}, rows={0: ["M0a"]})
    state, _ = play(state, Play(0, cs("M1a M2a")))
    assert row_of(state, 0) == ["M0a M1a M2a"]


def test_rules_4_2_same_type_play_is_at_most_two_cards():
    state = table(2, hands={0: "M0a M0b M1a"})
    rejected(state, Play(0, cs("M0a M0b M1a"), ("left",)), "at most 2 cards")
    assert all(len(x.cards) <= 2 for x in plays(state))


def test_rules_4_2_same_type_order_is_lower_first():
    state = table(2, hands={0: "M1a M0a"})
    state, events = play(state, Play(0, cs("M1a M0a"), ("right",)))
    assert events[0] == ev.CardsPlayed(0, cs("M0a M1a"), ("right", ""), "same")
    assert row_of(state, 0) == ["M0a M1a"]
    state = table(2, hands={0: "M2a M1b"}, rows={0: ["M0a M1a"]})
    state, _ = play(state, Play(0, cs("M2a M1b")))
    assert row_of(state, 0) == ["M0a M1a M1b M2a"]


def test_rules_4_2_two_same_type_cards_must_each_follow_the_rule():
    state = table(2, hands={0: "M0a M2a"})
    rejected(state, Play(0, cs("M0a M2a"), ("left",)), "cannot go on a Maple 0")


def test_rules_4_2_mixed_play_one_card_per_pile():
    state = table(2, hands={0: "M1a G1a C0a O2a"}, rows={0: ["M0a", "G0a"]})
    state, events = play(state, Play(0, cs("M1a G1a C0a"), ("right",)))
    assert events[0] == ev.CardsPlayed(0, cs("M1a G1a C0a"), ("", "", "right"), "mixed")
    assert row_of(state, 0) == ["M0a M1a", "G0a G1a", "C0a"]


def test_rules_4_2_a_play_mixing_types_with_a_repeated_type_is_refused():
    state = table(2, hands={0: "M0a M0b G0a"})
    rejected(state, Play(0, cs("M0a M0b G0a"), ("left", "left")), "one per pile")


def test_rules_4_2_a_play_needs_cards_from_the_hand():
    state = table(2, hands={0: "M0a"})
    rejected(state, Play(0, ()), "at least one card")
    rejected(state, Play(0, cs("G0a"), ("left",)), "not in your hand")
    rejected(state, Play(0, cs("M0a M0a"), ("left",)), "named twice")


# -------------------------------------------------------------- placement


@pytest.mark.parametrize("card", ["M1b", "M2a"])
def test_rules_4_2_card_must_equal_top_or_one_higher_accepts(card):
    state = table(2, hands={0: card}, rows={0: ["M0a M1a"]})
    state, _ = play(state, Play(0, cs(card)))
    assert row_of(state, 0) == [f"M0a M1a {card}"]


@pytest.mark.parametrize("card", ["M0b", "M3a"])
def test_rules_4_2_card_must_equal_top_or_one_higher_refuses(card):
    state = table(2, hands={0: card}, rows={0: ["M0a M1a"]})
    rejected(state, Play(0, cs(card)), "must equal the top card or be exactly 1 higher")
    assert plays(state) == []


@pytest.mark.parametrize("card", ["M1a", "M2a", "M3a"])
def test_rules_4_2_a_pile_begins_with_a_zero(card):
    state = table(2, hands={0: card})
    rejected(state, Play(0, cs(card), ("left",)), "A pile begins with a 0")
    assert plays(state) == []


def test_rules_4_2_new_pile_at_the_left_or_the_right_end():
    state = table(2, hands={0: "C0a"}, rows={0: ["M0a", "G0a"]})
    left, _ = play(state, Play(0, cs("C0a"), ("left",)))
    right, _ = play(state, Play(0, cs("C0a"), ("right",)))
    assert row_of(left, 0) == ["C0a", "M0a", "G0a"]
    assert row_of(right, 0) == ["M0a", "G0a", "C0a"]
    assert {x.new_pile_sides for x in plays(state)} == {("left",), ("right",)}


def test_rules_4_2_the_side_of_a_new_pile_must_be_named():
    state = table(2, hands={0: "C0a G0a"}, rows={0: ["M0a"]})
    rejected(state, Play(0, cs("C0a")), "left or right")
    rejected(state, Play(0, cs("C0a"), ("middle",)), "left or right")
    rejected(state, Play(0, cs("C0a G0a"), ("left",)), "left or right")
    rejected(state, Play(0, cs("C0a"), ("left", "right")), "More new-pile sides")


def test_rules_4_2_piles_never_move():
    state = table(2, hands={0: "C0a O0a M1a"}, rows={0: ["M0a", "G0a"]})
    state, _ = play(state, Play(0, cs("C0a M1a O0a"), ("left", "right")))
    assert row_of(state, 0) == ["C0a", "M0a M1a", "G0a", "O0a"]


def test_rules_4_2_mixed_new_piles_go_in_the_order_given_each_at_its_end():
    state = table(2, hands={0: "G0e C0e"}, rows={0: ["M0e"]})
    a, _ = play(state, Play(0, cs("G0e C0e"), ("left", "left")))
    b, _ = play(state, Play(0, cs("C0e G0e"), ("left", "left")))
    c, _ = play(state, Play(0, cs("C0e G0e"), ("right", "left")))
    assert row_of(a, 0) == ["C0e", "G0e", "M0e"]
    assert row_of(b, 0) == ["G0e", "C0e", "M0e"]
    assert row_of(c, 0) == ["G0e", "M0e", "C0e"]


def test_rules_4_2_legal_commands_offer_every_arrangement_of_new_piles():
    # Two new piles beside one old pile can end in 3! = 6 different rows;
    # the order matters (e.g. for acorn pairs), so each must be offered.
    state = table(2, hands={0: "G0e C0e"}, rows={0: ["M0e"]})
    rows = set()
    for command in plays(state):
        if len(command.cards) == 2:
            after, _ = play(state, command)
            rows.add(tuple(row_of(after, 0)))
    assert len(rows) == 6
    # With an empty row the two piles can still stand in either order.
    state = table(2, hands={0: "G0e C0e"})
    rows = {tuple(row_of(play(state, x)[0], 0)) for x in plays(state) if len(x.cards) == 2}
    assert rows == {("G0e", "C0e"), ("C0e", "G0e")}


def test_rules_4_2_at_most_one_pile_per_leaf_type():
    state = table(2, hands={0: "M0b M0c"}, rows={0: ["M0a"]})
    # a 0 of a type you already pile goes onto that pile, never a second one
    rejected(state, Play(0, cs("M0b"), ("left",)), "More new-pile sides")
    state, _ = play(state, Play(0, cs("M0b M0c")))
    assert row_of(state, 0) == ["M0a M0b M0c"]
    # two zeros of a new type start one pile, not two
    state = table(2, hands={0: "G0b G0c"})
    state, _ = play(state, Play(0, cs("G0b G0c"), ("right",)))
    assert row_of(state, 0) == ["G0b G0c"]


# -------------------------------------------------------- closing, torii


def test_rules_4_2_placing_a_three_closes_the_pile_with_a_torii():
    state = table(2, hands={0: "M3a"}, rows={0: ["M0a M1a M2a"]})
    assert state.torii_left == 4
    state, events = play(state, Play(0, cs("M3a")))
    assert events == [ev.CardsPlayed(0, cs("M3a"), ("",), "same"), ev.PileClosed(0, "M", True)]
    assert state.seats[0].row[0].closed and state.torii_left == 3


def test_rules_4_2_a_closed_pile_takes_no_more_cards_and_no_second_pile():
    state = table(2, hands={0: "M3b M0b"}, rows={0: ["M0a M1a M2a M3a"]})
    rejected(state, Play(0, cs("M3b")), "closed by a torii")
    rejected(state, Play(0, cs("M0b"), ("left",)), "closed by a torii")
    assert plays(state) == []


def test_rules_4_2_two_threes_in_one_same_type_play_cannot_follow_each_other():
    state = table(2, hands={0: "M3a M3b"}, rows={0: ["M0a M1a M2a"]})
    rejected(state, Play(0, cs("M3a M3b")), "closed by a torii")


def test_rules_4_2_an_empty_torii_supply_still_closes_the_pile():
    state = table(2, hands={0: "M3a"}, rows={0: ["M0a M1a M2a"]}, torii_left=0)
    state, events = play(state, Play(0, cs("M3a")))
    assert events[-1] == ev.PileClosed(0, "M", False)
    assert state.seats[0].row[0].closed and state.torii_left == 0


def test_rules_4_2_a_mixed_play_closing_two_piles_with_one_torii_left():
    state = table(2, hands={0: "M3a G3a"}, rows={0: ["M0a M1a M2a", "G0a G1a G2a"]}, torii_left=1)
    state, events = play(state, Play(0, cs("M3a G3a")))
    assert events[1:] == [ev.PileClosed(0, "M", True), ev.PileClosed(0, "G", False)]
    assert state.torii_left == 0
    assert all(p.closed for p in state.seats[0].row)


# ------------------------------------------------------------ acorn pairs


def test_rules_4_2_acorn_pairs_pay_two_each_after_a_mixed_play_for_all_neighbouring_pairs():
    # Row before: C0c(right acorn) | O0a(both) | M0e(none) | G0e(none)
    # Play M0a (both) onto M and G1a (left acorn) onto G, a mixed play.
    # Row after:  C0c | O0a | M0a | G1a
    #   C0c→O0a: right ✓ left ✓  (a pair the play did not touch: it counts)
    #   O0a→M0a: right ✓ left ✓
    #   M0a→G1a: right ✓ left ✓           3 pairs × 2 = 6 acorns
    state = table(2, hands={0: "M0a G1a"}, rows={0: ["C0c", "O0a", "M0e", "G0e"]}, acorns=1)
    state, events = play(state, Play(0, cs("M0a G1a")))
    assert events[-1] == ev.AcornsGained(0, 6, "acorn pairs")
    assert state.seats[0].acorns == 7


def test_rules_4_2_acorn_pair_needs_right_corner_of_left_pile_and_left_corner_of_right_pile():
    # G1a has only a left acorn, M1b only a right one: M1b | G1a is a pair,
    # G1a | M1b would not be.
    state = table(2, hands={0: "M1b G1a"}, rows={0: ["M0e", "G0e"]})
    after, events = play(state, Play(0, cs("M1b G1a")))
    assert events[-1] == ev.AcornsGained(0, 2, "acorn pairs")
    state = table(2, hands={0: "M1b G1a"}, rows={0: ["G0e", "M0e"]})
    after, events = play(state, Play(0, cs("M1b G1a")))
    assert not [e for e in events if isinstance(e, ev.AcornsGained)]
    assert after.seats[0].acorns == 2


def test_rules_4_2_no_acorn_pairs_after_a_same_type_play():
    # C0c | O0e, play O0a onto O: C0c→O0a would be a pair, but the play is same-type.
    state = table(2, hands={0: "O0a"}, rows={0: ["C0c", "O0e"]})
    state, events = play(state, Play(0, cs("O0a")))
    assert not [e for e in events if isinstance(e, ev.AcornsGained)]
    assert state.seats[0].acorns == 2


def test_rules_4_2_a_mixed_play_of_new_piles_counts_pairs_too():
    # Empty row; G0c (right acorn) then C0b (left acorn) both to the right: G0c | C0b.
    state = table(2, hands={0: "G0c C0b"})
    state, events = play(state, Play(0, cs("G0c C0b"), ("right", "right")))
    assert events[-1] == ev.AcornsGained(0, 2, "acorn pairs")
    # The other order gives C0b | G0c: no pair.
    state = table(2, hands={0: "G0c C0b"})
    state, events = play(state, Play(0, cs("C0b G0c"), ("right", "right")))
    assert not [e for e in events if isinstance(e, ev.AcornsGained)]


def test_rules_4_2_same_type_play_of_equal_values_tops_by_kind_not_by_copy():
    # RULES §4.2: a same-type play goes lower first; between equal values the
    # engine orders by kind (RULES §1.2 corners), so the copies chosen never
    # change the top card's corners: M0c+M0d ends like M0b+M0c (M0b and M0d
    # have the same corners).
    tops = []
    for pair in ("M0b M0c", "M0c M0d"):
        state = table(2, hands={0: "M0b M0c M0d"})
        state, _ = play(state, Play(0, cs(pair), ("left",)))
        tops.append(CARD_KIND[state.seats[0].row[0].top])
    assert tops[0] == tops[1]
