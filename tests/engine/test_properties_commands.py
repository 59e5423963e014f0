"""Property test: commands that ``legal_commands`` does not list (random
ones, wrong seats, wrong timing, mutated legal ones) are refused with the state
unchanged, or are equivalent to a listed command (see the note in legal.py)."""

from __future__ import annotations

import dataclasses
import random

from momiji_tui.engine import (
    ActivateObjective, Collect, DiscardToLimit, DraftPick, EndTurn, Exchange, GameState,
    IllegalCommand, Pass, Play, Reveal, UseLandscape, legal_commands, run,
)
from momiji_tui.engine.cards import ALL_CARDS, CARD_KIND, CARD_TYPE
from momiji_tui.engine.rules_data import LANDSCAPES, LEAF_TYPES, OBJECTIVE_NAMES

from engine_games import games, walk
from engine_helpers import by_kind


def random_command(state: GameState, rng: random.Random):
    """Any well-typed command: random class, seat, cards, types, ids."""
    seat = state.current if rng.random() < 0.8 else rng.randrange(-1, state.n_seats + 1)
    hand = state.seats[state.current].hand
    pool = list(hand) if hand and rng.random() < 0.8 else list(ALL_CARDS)

    def some(k: int) -> tuple[int, ...]:
        return tuple(rng.choice(pool) for _ in range(k)) if rng.random() < 0.1 else tuple(
            rng.sample(pool, min(k, len(pool))))

    def table_card():
        zone = rng.choice([state.display, state.discard, ALL_CARDS])
        return rng.choice(zone) if zone else rng.choice(ALL_CARDS)

    sides = ("left", "right", "left", "right", "up")
    objective_ids = [*OBJECTIVE_NAMES, "nope"]
    k = rng.randrange(10)
    if k == 0:
        return DraftPick(seat, rng.choice(list(LANDSCAPES)))
    if k == 1:
        return Reveal(seat)
    if k == 2:
        return Collect(seat, tuple(rng.sample(LEAF_TYPES, rng.choice([0, 1, 1, 1, 2, 3]))))
    if k == 3:
        return Play(seat, some(rng.randint(0, 4)), tuple(rng.choice(sides) for _ in range(rng.randint(0, 3))))
    if k == 4:
        return ActivateObjective(seat, rng.choice(objective_ids))
    if k == 5:
        return Pass(seat)
    if k == 6:
        return Exchange(seat, some(rng.choice([1, 2, 2, 3])))
    if k == 7:
        return UseLandscape(
            seat, rng.choice(list(LANDSCAPES)), hand_cards=some(rng.choice([0, 0, 1, 2, 3])),
            card=rng.choice([None, table_card()]), objective=rng.choice([None, rng.choice(objective_ids)]),
        )
    if k == 8:
        return DiscardToLimit(seat, some(rng.randint(0, 3)))
    return EndTurn(seat)


def mutate(command, state: GameState, rng: random.Random):
    """A legal command with one field changed a little."""
    fields = [f.name for f in dataclasses.fields(command)]
    name = rng.choice(fields)
    value = getattr(command, name)
    hand = state.seats[state.current].hand
    if name == "seat":
        new = rng.choice([s for s in range(-1, state.n_seats + 1) if s != value])
    elif name in ("cards", "hand_cards"):
        op = rng.randrange(4)
        cards = list(value)
        if op == 0 and cards:
            cards.pop(rng.randrange(len(cards)))
        elif op == 1:
            cards.append(rng.choice(hand or ALL_CARDS))
        elif op == 2:
            rng.shuffle(cards)
        elif cards:  # swap in another card of the same type (or any)
            i = rng.randrange(len(cards))
            same = [x for x in hand if CARD_TYPE[x] == CARD_TYPE[cards[i]] and x not in cards]
            cards[i] = rng.choice(same or hand or ALL_CARDS)
        new = tuple(cards)
    elif name in ("new_pile_sides", "types"):
        items = list(value)
        op = rng.randrange(3)
        if op == 0 and items:
            items.pop()
        elif op == 1:
            items.append(rng.choice(["left", "right"] if name != "types" else list(LEAF_TYPES)))
        else:
            items = [("right" if x == "left" else "left") if name != "types" else rng.choice(LEAF_TYPES)
                     for x in items]
            rng.shuffle(items)
        new = tuple(items)
    elif name in ("landscape",):
        new = rng.choice(list(LANDSCAPES))
    elif name == "objective":
        new = rng.choice([None, *OBJECTIVE_NAMES])
    elif name == "card":
        zone = rng.choice([state.display, state.discard, hand])
        new = rng.choice(zone) if zone else None
    else:
        return command
    return dataclasses.replace(command, **{name: new})


def _kinds(command) -> tuple:
    cards = getattr(command, "cards", None) or getattr(command, "hand_cards", ())
    return tuple(sorted(CARD_KIND[c] for c in cards))


def _same_shape(a, b) -> bool:
    if type(a) is not type(b) or _kinds(a) != _kinds(b):
        return False
    if isinstance(a, UseLandscape):
        return (a.landscape, a.objective) == (b.landscape, b.objective) and (
            (a.card is None) == (b.card is None) and (a.card is None or CARD_KIND[a.card] == CARD_KIND[b.card]))
    if isinstance(a, Collect):
        return set(a.types) == set(b.types)
    return True


def check_rejected_or_equivalent(state: GameState, command, legal: list) -> None:
    snapshot = state.clone()
    try:
        outcome, _ = run(state, command)
    except IllegalCommand as exc:
        assert state == snapshot, "a refused command changed the state"
        assert str(exc).endswith("."), str(exc)
        return
    assert state == snapshot
    target = by_kind(outcome)
    candidates = [x for x in legal if _same_shape(x, command)]
    assert any(by_kind(run(state, x)[0]) == target for x in candidates), (
        f"{command!r} was accepted but matches no listed command")


@games
def test_property_other_commands_are_rejected_or_equivalent_to_a_listed_one(seed, seats, mode):
    rng = random.Random(seed + 2)
    for before, _command, _new, _after, _events in walk(seed, seats, mode):
        legal = legal_commands(before, before.current)
        for _ in range(2):
            check_rejected_or_equivalent(before, random_command(before, rng), legal)
        for _ in range(2):
            check_rejected_or_equivalent(before, mutate(rng.choice(legal), before, rng), legal)
