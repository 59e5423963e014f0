"""RULES §2 — setup, the landscape draft (§2.1) and the display (§2.2)."""

from __future__ import annotations

from collections import Counter

import pytest

from momiji_tui.engine import (
    Collect, DraftPick, EndTurn, IllegalCommand, Reveal, create_game, decide, events as ev, fold,
    legal_commands, run,
)
from momiji_tui.engine.cards import CARD_TYPE, cards_of_types
from momiji_tui.engine.rules_data import LANDSCAPES, LEAF_TYPES

from engine_helpers import NAMES, check_conservation, cs, rejected, table

SEEDS = range(12)


@pytest.mark.parametrize(("seats", "n_types", "deck"), [(2, 4, 56), (3, 5, 70), (4, 6, 84)])
@pytest.mark.parametrize("seed", SEEDS)
def test_rules_2_counts_for_each_number_of_seats(seats, n_types, deck, seed):
    events = create_game(list(NAMES[:seats]), seed=seed)
    created = events[0]
    assert isinstance(created, ev.GameCreated)
    # §2.1 players + 2 types, §2.2 the deck is exactly those types' cards.
    assert len(created.types) == n_types == len(set(created.types))
    assert set(created.types) <= set(LEAF_TYPES)
    assert len(created.deck) == deck
    assert Counter(created.deck) == Counter(cards_of_types(created.types))
    # §1.4 players + 2 objectives, distinct, type-X only for types in play.
    assert len(created.objectives) == seats + 2 == len(set(created.objectives))
    for o in created.objectives:
        if o.startswith("type-"):
            assert o[5:] in created.types
    state = fold(events)
    assert state.phase == "play"
    # §1.3 torii, §2.5 six cards each and four in the display, §2.6 two acorns.
    assert state.torii_left == seats + 2
    assert [len(s.hand) for s in state.seats] == [6] * seats
    assert len(state.display) == 4
    assert [s.acorns for s in state.seats] == [2] * seats
    assert state.deck_size == deck - 6 * seats - 4
    # The deal comes off the top of the deck, then the display.
    for i, s in enumerate(state.seats):
        assert s.hand == list(created.deck[6 * i:6 * i + 6])
        assert s.known == []  # dealt cards are private (§8)
    assert state.display == list(created.deck[6 * seats:6 * seats + 4])
    # §2.7 the first seat starts.
    assert 0 <= created.first_seat < seats
    assert state.current == state.first_seat == created.first_seat
    check_conservation(state)


def test_rules_2_1_types_in_play_are_chosen_at_random():
    type_sets = {fold(create_game(["a", "b"], seed=s)).types for s in range(40)}
    assert len(type_sets) > 3


def test_rules_2_3_only_eligible_type_objectives_are_revealed():
    for seed in range(60):
        state = fold(create_game(["a", "b"], seed=seed))
        out = set(LEAF_TYPES) - set(state.types)
        assert not {f"type-{t}" for t in out} & set(state.objectives)


def test_rules_2_7_the_first_seat_is_chosen_at_random():
    firsts = Counter(fold(create_game(list(NAMES), seed=s)).first_seat for s in range(60))
    assert set(firsts) == {0, 1, 2, 3}


def test_rules_2_same_seed_same_game_and_shuffled_deck():
    assert create_game(["a", "b"], seed=7) == create_game(["a", "b"], seed=7)
    assert create_game(["a", "b"], seed=7) != create_game(["a", "b"], seed=8)
    deck = create_game(["a", "b", "c", "d"], seed=3)[0].deck
    assert list(deck) != sorted(deck)


@pytest.mark.parametrize("names", [["solo"], ["a", "b", "c", "d", "e"], []])
def test_rules_2_two_to_four_seats(names):
    with pytest.raises(ValueError, match="2 to 4 seats"):
        create_game(names, seed=1)


def test_rules_2_unknown_landscape_mode_is_an_error():
    with pytest.raises(ValueError, match="landscape mode"):
        create_game(["a", "b"], seed=1, landscape_mode="chaos")


# ------------------------------------------------------------------- §2.1 draft


def drafted(seats: int, seed: int):
    events = create_game(list(NAMES[:seats]), seed=seed, landscape_mode="draft")
    assert len(events) == 1
    return events, fold(events)


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("seed", [0, 1, 2, 5])
def test_rules_2_1_draft_offers_players_plus_one_of_each_part(seats, seed):
    events, state = drafted(seats, seed)
    offers = events[0].draft_offers
    assert len(offers) == 3
    for part, offer in zip(("sunrise", "midday", "dusk"), offers, strict=True):
        assert len(offer) == seats + 1 == len(set(offer))
        assert all(LANDSCAPES[x][0] == part for x in offer)
    assert state.phase == "draft"
    assert state.draft_remaining == list(offers[0])
    assert all(s.hand == [] for s in state.seats)  # no deal before the draft ends
    assert state.deck_size == len(events[0].deck)


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("seed", [0, 3, 4])
def test_rules_2_1_draft_order_seat_order_then_reverse_then_seat_order(seats, seed):
    events, state = drafted(seats, seed)
    f = state.first_seat
    forward = [(f + k) % seats for k in range(seats)]
    expected = forward + forward[::-1] + forward
    offers = events[0].draft_offers
    order = []
    for pick in range(3 * seats):
        rnd = pick // seats
        # players + 1 offered, one fewer per pick; unpicked cards of earlier rounds are gone.
        assert len(state.draft_remaining) == seats + 1 - pick % seats
        assert set(state.draft_remaining) <= set(offers[rnd])
        order.append(state.current)
        legal = legal_commands(state, state.current)
        assert sorted(x.landscape for x in legal) == sorted(state.draft_remaining)
        choice = sorted(state.draft_remaining)[pick % 2]
        state, new = run(state, DraftPick(state.current, choice))
        assert new[0] == ev.LandscapeDrafted(order[-1], choice)
    assert order == expected
    # Each seat ends with one landscape of each part, in part order.
    for s in state.seats:
        assert [LANDSCAPES[x][0] for x in s.panorama] == ["sunrise", "midday", "dusk"]
    every = [x for s in state.seats for x in s.panorama]
    assert len(every) == len(set(every)) == 3 * seats
    # Then setup continues (§2 steps 5-7).
    assert state.phase == "play" and state.current == f
    assert [len(s.hand) for s in state.seats] == [6] * seats
    assert len(state.display) == 4 and [s.acorns for s in state.seats] == [2] * seats
    assert state.draft_remaining == []
    check_conservation(state)


def test_rules_2_1_unpicked_cards_leave_the_game():
    events, state = drafted(2, 11)
    offers = events[0].draft_offers
    for _ in range(2):
        state, _ = run(state, DraftPick(state.current, state.draft_remaining[0]))
    left_over = set(offers[0]) - {x for s in state.seats for x in s.panorama}
    assert len(left_over) == 1
    assert state.draft_remaining == list(offers[1])
    assert not left_over & set(state.draft_remaining)
    rejected(state, DraftPick(state.current, left_over.pop()), "not in this round's draft offer")


def test_rules_2_1_draft_wrong_seat_wrong_card_and_other_commands_are_rejected():
    _, state = drafted(3, 2)
    other = (state.current + 1) % 3
    rejected(state, DraftPick(other, state.draft_remaining[0]), "turn, not yours")
    rejected(state, DraftPick(state.current, "bridge"), "not in this round's draft offer")
    rejected(state, DraftPick(state.current, "nonsense"), "not in this round's draft offer")
    rejected(state, Collect(state.current, ("M",)), "Finish the landscape draft first")
    rejected(state, EndTurn(state.current), "Finish the landscape draft first")


def test_rules_2_1_draft_pick_after_the_draft_is_rejected():
    state = table(2)
    rejected(state, DraftPick(0, "spring"), "draft is over")


def test_rules_2_2_display_is_sorted_into_columns_by_type():
    state = table(2, display="O1a M0a O0b C2a M3b")
    assert state.columns() == ["M", "C", "O"]  # type order
    assert state.column("M") == list(cs("M0a M3b"))
    assert state.column("O") == list(cs("O1a O0b"))
    assert state.column("G") == []
    # A revealed card joins its type's column.
    state, _ = run(state, Reveal(0))
    assert set(state.columns()) >= {"M", "C", "O"}
    for t in state.columns():
        assert all(CARD_TYPE[x] == t for x in state.column(t))


def test_rules_2_decide_never_changes_the_state_it_is_given():
    state = fold(create_game(["a", "b"], seed=4))
    before = state.clone()
    for command in legal_commands(state, state.current)[:50]:
        decide(state, command)
        assert state == before
    with pytest.raises(IllegalCommand):
        decide(state, EndTurn(state.current))
    assert state == before


def test_rules_2_a_negative_seed_is_refused_not_folded_onto_its_positive():
    """random.Random(-7) is random.Random(7): a negative seed would silently
    deal the game of its positive twin, so the engine refuses it."""
    assert create_game(list(NAMES[:2]), seed=0)[0].seed == 0
    with pytest.raises(ValueError, match="0 or more"):
        create_game(list(NAMES[:2]), seed=-7)
