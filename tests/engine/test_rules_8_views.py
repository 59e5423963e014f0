"""RULES §8 — information: what each seat's view shows and hides."""

from __future__ import annotations

import random

import pytest

from momiji_tui.engine import (
    Collect, DraftPick, EndTurn, Pass, UseLandscape, create_game, determinize, fold, run, view,
)
from momiji_tui.engine.rules_data import LANDSCAPES
from momiji_tui.engine.view import unseen_cards

from engine_helpers import check_conservation, cs, play, table


def test_rules_8_own_hand_shown_other_hands_hidden_but_counted():
    state = table(3, hands={0: "M0a M1a", 1: "G0a G1a G2a", 2: ""})
    v = view(state, 0)
    assert v.seat == 0 and v.me.hand == cs("M0a M1a")
    assert v.seats[1].hand is None and v.seats[1].hand_size == 3
    assert v.seats[2].hand is None and v.seats[2].hand_size == 0
    assert view(state, 1).seats[1].hand == cs("G0a G1a G2a")
    assert view(state, 1).seats[0].hand is None


def test_rules_8_dealt_cards_are_seen_by_their_holder_only():
    state = fold(create_game(["a", "b"], seed=5))
    v = view(state, 1)
    assert v.seats[0].hand is None and v.seats[0].known == ()
    assert set(state.seats[0].hand) <= set(unseen_cards(v))


def test_rules_8_cards_seen_collected_stay_known_in_the_hand():
    state = table(2, hands={0: "M0a"}, display="C1a C2a O0a")
    state, _ = play(state, Collect(0, ("C",)))
    other = view(state, 1)
    assert other.seats[0].hand is None and other.seats[0].hand_size == 3
    assert other.seats[0].known == cs("C1a C2a")
    assert not set(cs("C1a C2a")) & set(unseen_cards(other))
    assert cs("M0a")[0] in unseen_cards(other)


def test_rules_8_drawn_cards_are_private():
    state = table(2, deck="G1a G2a", panoramas={0: ["bamboo"]})
    state, _ = play(state, UseLandscape(0, "bamboo"))
    assert view(state, 1).seats[0].known == ()
    assert view(state, 1).seats[0].hand_size == 2
    assert view(state, 0).me.hand == cs("G1a G2a")


def test_rules_8_a_known_card_leaves_the_known_list_when_it_leaves_the_hand():
    state = table(2, display="C0a C1a", panoramas={0: ["fox"]})
    state, _ = play(state, Collect(0, ("C",)), UseLandscape(0, "fox", hand_cards=cs("C1a")))
    assert view(state, 1).seats[0].known == cs("C0a")
    assert view(state, 1).discard == cs("C1a")


def test_rules_8_public_facts_are_in_every_view():
    state = table(2, rows={1: ["M0a M1a M2a M3a", "G0a"]}, display="C1a", discard="O2a",
                  acorns={0: 3, 1: 5}, objectives=["zeros", "ones"], owners={"ones": 1},
                  used={1: ["spring"]})
    for seat in (0, 1, None):
        v = view(state, seat)
        assert v.seats[1].row[0].cards == cs("M0a M1a M2a M3a") and v.seats[1].row[0].closed
        assert v.display == cs("C1a") and v.discard == cs("O2a")
        assert [s.acorns for s in v.seats] == [3, 5]
        assert v.seats[1].used == ("spring",) and v.seats[0].panorama == ("spring", "waterfall", "pier")
        assert v.objectives == ("zeros", "ones") and v.owner_of("ones") == 1 and v.owner_of("zeros") is None
        assert v.deck_size == state.deck_size and v.torii_left == 3


def test_rules_8_the_deck_order_is_hidden():
    a = table(2, hands={0: "M0a"}, deck="G1a G2a C0a", deck_rest=False)
    b = table(2, hands={0: "M0a"}, deck="C0a G2a G1a", deck_rest=False)
    assert a != b
    for seat in (0, 1, None):
        assert view(a, seat) == view(b, seat)
    assert not hasattr(view(a, 0), "deck")


def test_rules_8_a_spectator_sees_no_hand():
    state = table(2, hands={0: "M0a", 1: "G0a"})
    v = view(state, None)
    assert v.me is None and all(s.hand is None for s in v.seats)


def test_rules_8_everything_is_shown_at_the_end_of_the_game():
    state = table(2, first_seat=0, current=1, hands={0: "M2a", 1: "G2a"}, display="", deck="",
                  deck_rest=False, acorns=0)
    state, _ = play(state, Pass(1), EndTurn(1))
    assert state.phase == "ended"
    for seat in (0, 1, None):
        v = view(state, seat)
        assert v.seats[0].hand == cs("M2a") and v.seats[1].hand == cs("G2a")


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_rules_8_draft_offers_of_later_rounds_stay_hidden(seats):
    # RULES §2.1: each round reveals its offer when it starts.
    state = fold(create_game(["a", "b", "c", "d"][:seats], seed=3, landscape_mode="draft"))
    for rnd in range(3):
        for _ in range(seats):
            for seat in (*range(seats), None):
                v = view(state, seat)
                assert v.draft_offers == state.draft_offers[:rnd + 1]
                assert v.draft_remaining == tuple(state.draft_remaining)
            state, _ = run(state, DraftPick(state.current, state.draft_remaining[0]))
    assert view(state, 0).draft_offers == state.draft_offers  # all revealed by now


@pytest.mark.parametrize("seed", range(6))
def test_rules_8_determinize_keeps_every_public_fact(seed):
    state = table(3, hands={0: "M0a M1a", 1: "G0a G1a G2a", 2: "C0a"}, display="O0a O1a Z0a",
                  types="MGCOZ", discard="M3a", rows={2: ["Z0b Z1a"]})
    state, _ = play(state, Collect(0, ("O",)), EndTurn(0))
    v = view(state, 1)
    world = determinize(v, random.Random(seed))
    check_conservation(world)
    assert view(world, 1) == v
    assert world.seats[1].hand == state.seats[1].hand
    assert set(cs("O0a O1a")) <= set(world.seats[0].hand)
    assert [len(s.hand) for s in world.seats] == [len(s.hand) for s in state.seats]
    assert world.deck_size == state.deck_size


@pytest.mark.parametrize("seed", range(4))
def test_rules_8_determinize_during_the_draft_invents_only_hidden_offers(seed):
    state = fold(create_game(["a", "b", "c"], seed=seed, landscape_mode="draft"))
    state, _ = run(state, DraftPick(state.current, state.draft_remaining[0]))
    v = view(state, state.current)
    world = determinize(v, random.Random(seed))
    assert view(world, state.current) == v
    assert world.draft_offers[0] == state.draft_offers[0]
    for rnd, part in ((1, "midday"), (2, "dusk")):
        offer = world.draft_offers[rnd]
        assert len(offer) == 4 == len(set(offer)) and all(LANDSCAPES[x][0] == part for x in offer)
    # the world plays on through the draft
    while world.phase == "draft":
        world, _ = run(world, DraftPick(world.current, world.draft_remaining[-1]))
    assert world.phase == "play"
    check_conservation(world)
    assert len(world.display) == 4 and [len(s.hand) for s in world.seats] == [6, 6, 6]
