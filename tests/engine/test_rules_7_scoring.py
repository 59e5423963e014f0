"""RULES §7 — scoring; RULES §1.4 — how each objective kind is measured."""

from __future__ import annotations

import pytest

from momiji_tui.engine import EndTurn, Pass, score
from momiji_tui.engine.scoring import ObjectiveScore, PileScore, objective_measure, objective_winners

from engine_helpers import play, table


def test_rules_7_full_scoring_example_with_ties_and_an_owner_who_misses():
    # Three seats, types M G C O Z. Seat 2 (Chiyo) is the last seat of the
    # round; it must pass (nothing to collect, nothing placeable, 2 acorns)
    # and its turn, with the deck empty, triggers and ends the game.
    state = table(
        3, types="MGCOZ", first_seat=0, current=2, display="", deck="", deck_rest=False,
        rows={
            0: ["M0a M1a M2a M3a", "G0a G0b G1a", "C0a"],
            1: ["O0a O1a O2a", "G0c G1b G2a G3a"],
            2: ["Z0a Z0b Z0c Z1a Z2a", "M0b M1b"],
        },
        hands={2: "C3a O3a"},
        acorns={0: 4, 1: 4, 2: 2},
        objectives=["zeros", "torii", "longest", "type-G", "ones"],
        owners={"zeros": 0, "torii": 2, "longest": 1, "type-G": 1},
    )
    state, _ = play(state, Pass(2), EndTurn(2))
    assert state.phase == "ended"
    sheet = score(state)
    ada, basho, chiyo = sheet.seats
    # Piles: top value × cards.
    assert ada.piles == (
        PileScore("M", 3, 4, True, 12), PileScore("G", 1, 3, False, 3), PileScore("C", 0, 1, False, 0))
    assert [p.points for p in basho.piles] == [2 * 3, 3 * 4]
    assert [p.points for p in chiyo.piles] == [2 * 5, 1 * 2]
    # Objectives (only activated ones score; "ones" is revealed but not activated):
    #   zeros (owner Ada):   Ada 4, Basho 2, Chiyo 4 -> tie: Ada 10, Chiyo 3
    #   torii (owner Chiyo): Ada 1, Basho 1, Chiyo 0 -> owner misses: 0; Ada 3, Basho 3
    #   longest (owner Basho): Ada 4, Basho 4, Chiyo 5 -> Chiyo 3; owner misses: 0
    #   type-G (owner Basho): Ada 3, Basho 4, Chiyo 0 -> Basho 10
    points = {o.objective: o.points for o in ada.objectives}
    assert points == {"zeros": 10, "torii": 3, "longest": 0, "type-G": 0}
    assert {o.objective: o.points for o in basho.objectives} == {
        "zeros": 0, "torii": 3, "longest": 0, "type-G": 10}
    assert {o.objective: o.points for o in chiyo.objectives} == {
        "zeros": 3, "torii": 0, "longest": 3, "type-G": 0}
    assert ObjectiveScore("torii", 2, 0, False, 0) in chiyo.objectives
    assert ObjectiveScore("longest", 1, 4, False, 0) in basho.objectives
    assert ObjectiveScore("zeros", 0, 4, True, 10) in ada.objectives
    # Totals: piles + acorns + objectives; cards in hand (Chiyo's C3a O3a) score nothing.
    assert ada.total == 15 + 4 + 13 == 32
    assert basho.total == 18 + 4 + 13 == 35
    assert chiyo.total == 12 + 2 + 6 == 20
    assert sheet.winners == (1,) and sheet.tiebreak_used is False


def test_rules_7_cards_in_hand_score_nothing():
    state = table(2, hands={0: "M3a M3b G3a G3b"}, rows={0: ["C0a C1a"]}, acorns={0: 0, 1: 0})
    assert score(state).seats[0].total == 1 * 2


def test_rules_7_each_acorn_scores_one():
    state = table(2, acorns={0: 7, 1: 0})
    assert [s.total for s in score(state).seats] == [7, 0]


def test_rules_7_ties_go_to_the_seat_with_more_acorns():
    # Ada: M pile 0 1 2 (2×3 = 6) + 1 acorn = 7; Basho: 0 + 7 acorns = 7.
    state = table(2, rows={0: ["M0a M1a M2a"]}, acorns={0: 1, 1: 7})
    sheet = score(state)
    assert [s.total for s in sheet.seats] == [7, 7]
    assert sheet.winners == (1,) and sheet.tiebreak_used


def test_rules_7_still_tied_seats_share_the_victory():
    # Ada and Chiyo: 6 points + 3 acorns; Basho 3 acorns only.
    state = table(3, rows={0: ["M0a M1a M2a"], 2: ["G0a G0b G1a G1b G1c G1d"]}, acorns=3)
    sheet = score(state)
    assert [s.total for s in sheet.seats] == [9, 3, 9]
    assert sheet.winners == (0, 2) and sheet.tiebreak_used


# --------------------------------------------------- §1.4 objective measures

# One seat's piles: M 0 1 2 3 (closed), G 0 1, C 0 0; O cards in hand; 5 acorns.
MEASURES = {
    "zeros": 4,       # M0a G0a C0a C0b
    "type-M": 4,
    "type-G": 2,
    "type-C": 2,
    "type-O": 0,      # cards in hand never count
    "top-sum": 4,     # 3 + 1 + 0
    "ones": 2,        # M1a G1a
    "twos": 1,        # M2a
    "torii": 1,
    "piles": 3,
    "longest": 4,
    "acorns": 5,
}


@pytest.mark.parametrize(("objective", "expected"), list(MEASURES.items()))
def test_rules_1_4_objective_measures(objective, expected):
    state = table(2, rows={0: ["M0a M1a M2a M3a", "G0a G1a", "C0a C0b"]}, hands={0: "O1a O2a O0a"},
                  acorns={0: 5, 1: 0})
    assert objective_measure(objective, state.seats[0]) == expected
    assert objective_measure(objective, state.seats[1]) == 0


def test_rules_1_4_unknown_objective_is_an_error():
    state = table(2)
    with pytest.raises(KeyError):
        objective_measure("bogus", state.seats[0])


# Per objective kind: rows of three seats and who meets it (best and ≥ 1, ties all meet).
KINDS = [
    ("zeros", {0: ["M0a M0b"], 1: ["G0a G0b"], 2: ["C0a C1a"]}, {0, 1}),
    ("type-G", {0: ["M0a"], 1: ["G0a G1a"], 2: ["G0b"]}, {1}),
    ("top-sum", {0: ["M0a M1a", "G0a G1a"], 1: ["C0a C1a C2a"], 2: ["O0a"]}, {0, 1}),
    ("ones", {0: ["M0a M1a M1b"], 1: ["G0a G1a"], 2: []}, {0}),
    ("twos", {0: ["M0a M1a"], 1: ["G0a G1a"], 2: []}, set()),  # best is 0: nobody
    ("torii", {0: ["M0a M1a M2a M3a"], 1: ["G0a G1a G2a G3a", "C0a"], 2: []}, {0, 1}),
    ("piles", {0: ["M0a", "G0a"], 1: ["C0a"], 2: ["O0a", "Z0a"]}, {0, 2}),
    ("longest", {0: ["M0a M0b M0c"], 1: ["G0a G0b", "C0a C0b"], 2: ["O0a O1a O1b"]}, {0, 2}),
    ("acorns", {}, {2}),
]


@pytest.mark.parametrize(("objective", "rows", "winners"), KINDS, ids=[k[0] for k in KINDS])
def test_rules_1_4_every_objective_kind_best_and_at_least_one(objective, rows, winners):
    state = table(3, types="MGCOZ", rows=rows, acorns={0: 1, 1: 2, 2: 4})
    assert objective_winners(objective, state.seats) == winners
    # scored as activated by seat 0: the owner 10 if met, the others 3 if met.
    state.owners = {objective: 0}
    points = [next(o.points for o in s.objectives) for s in score(state).seats]
    assert points == [(10 if i == 0 else 3) if i in winners else 0 for i in range(3)]


def test_rules_1_4_nobody_meets_an_objective_at_zero():
    state = table(2, acorns=0, owners={"acorns": 0})
    assert objective_winners("acorns", state.seats) == set()
    assert [s.total for s in score(state).seats] == [0, 0]
