"""A score-like evaluation of a state for one seat (used by Normal and Hard).

``seat_value`` estimates what a seat's position is worth in end-of-game
points (RULES §7). Tempo is the heart of Momiji: a game lasts a dozen or so
turns and each turn has one main action, so a card in hand is only worth
what the seat can still play of it. The evaluation therefore

* estimates the seat's remaining turns (deck size and torii left, RULES §6),
* plays the hand out in a quick greedy plan of the play actions it can
  afford (about ``play_share`` of those turns; same-type pairs or a mixed
  play of one card per pile, RULES §4.2), and
* values the resulting piles at top × cards plus their progress toward a 3
  (which closes the pile) while there are turns left to get there,

then adds acorns, the objectives it is likely to meet (RULES §1.4, §7),
acorn pairs that later mixed plays pay again, and the option value of its
unused landscapes. At the end of the game it is the real score.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import pairwise

from ..engine.cards import CARD_LEFT_ACORN, CARD_RIGHT_ACORN, CARD_TYPE, CARD_VALUE, Card
from ..engine.rules_data import (
    HAND_LIMIT, LANDSCAPES, MIDDAY, OBJECTIVE_OTHER_POINTS, OBJECTIVE_OWNER_POINTS,
)
from ..engine.scoring import objective_measure, score
from ..engine.state import ENDED, GameState, SeatState
from .plan import plan_outcome


@dataclass(frozen=True, slots=True)
class Weights:
    """Tunable weights of the evaluation (defaults chosen by tournaments)."""

    acorn: float = 1.0            # an acorn is 1 point at the end ...
    acorn_early: float = 0.3      # ... and worth more while it can still buy things
    play_share: float = 0.55      # share of the remaining turns the plan spends playing
    growth: float = 0.5           # share of an open pile's way to a 3 counted now
    growth_turns: float = 7.0     # turns left at which that share is fully counted
    leftover: float = 0.25        # a hand card the plan does not play
    pair_future: float = 1.0      # an acorn pair in the row, per future mixed play
    landscape_option: float = 1.0  # an unused landscape, per unit of time left
    opponent: float = 0.5         # weight of the best opponent's value in ``relative_value``
    burn: float = 1.0             # deck cards used per seat-turn (to estimate turns left)


DEFAULT_WEIGHTS = Weights()

_CARDS_BY_TV: dict[tuple[str, int], tuple[Card, ...]] = {}
for _c in range(84):
    _CARDS_BY_TV[(CARD_TYPE[_c], CARD_VALUE[_c])] = _CARDS_BY_TV.get((CARD_TYPE[_c], CARD_VALUE[_c]), ()) + (_c,)


def turns_left(state: GameState, seat: int, burn: float = 1.0) -> float:
    """Main actions ``seat`` can still expect, counting this turn's if unused."""
    if state.phase == ENDED:
        return 0.0
    n = len(state.seats)
    current = state.current
    # seats still to act in this round: from the current seat (k = 0) to the
    # last seat of the round (k = last), k counted on from the current seat
    last = (state.first_seat - 1 - current) % n
    this_round = (seat - current) % n <= last and not (seat == current and state.turn.main_done)
    if state.end_trigger is not None:
        return 1.0 if this_round else 0.0
    rounds = (len(state.deck) - state.deck_pos) / (burn * n)
    torii_rounds = 2.5 * state.torii_left + 1.0  # closing piles also ends the game
    return (1.0 if this_round else 0.0) + min(rounds, torii_rounds)


def time_left(state: GameState) -> float:
    """Roughly how much of the game is left, from 1 (start) to 0 (end)."""
    if state.phase == ENDED:
        return 0.0
    return min(1.0, turns_left(state, state.current) / 14.0)


def objective_chances(state: GameState, t_left: float) -> dict[str, tuple[float, ...]]:
    """For each activated objective (RULES §4.3), each seat's chance to meet
    it at the end (RULES §7), from the seats' measures now (RULES §1.4) and
    ``t_left`` (``time_left``). Raises ``KeyError`` for an unknown objective."""
    out: dict[str, tuple[float, ...]] = {}
    if not state.owners:
        return out
    for o in state.owners:
        out[o] = _chances(tuple([objective_measure(o, s) for s in state.seats]), t_left)
    return out


_CHANCES: dict[tuple[tuple[int, ...], float], tuple[float, ...]] = {}


def _chances(ms: tuple[int, ...], t_left: float) -> tuple[float, ...]:
    """Each seat's chance to meet an objective, from the seats' measures
    ``ms``: a pure function of ``(ms, t_left)``, memoized (bounded)."""
    probs = _CHANCES.get((ms, t_left))
    if probs is not None:
        return probs
    scale = 0.35 + 2.5 * t_left
    # the best measure of the other seats: the top one, or for the seat
    # holding it alone, the second (all ints: the same as a max per seat)
    top = max(ms)
    second = max((m for m in ms if m != top), default=top) if ms.count(top) == 1 else top
    out = []
    for m in ms:
        best_other = second if m == top else top
        if t_left <= 0.0:
            out.append(1.0 if (m >= 1 and m >= best_other) else 0.0)
            continue
        d = m - best_other + 0.5 - (1.0 if m < 1 else 0.0)
        out.append(1.0 / (1.0 + math.exp(-d / scale)))
    if len(_CHANCES) >= 4096:
        _CHANCES.clear()
    probs = _CHANCES[(ms, t_left)] = tuple(out)
    return probs


_TV_TOTAL = {v: len(_CARDS_BY_TV[("M", v)]) for v in range(4)}  # copies of each value per type


_TV_OF_CARD: tuple[tuple[str, int] | None, ...] = tuple(
    (CARD_TYPE[c], CARD_VALUE[c]) if CARD_VALUE[c] else None for c in range(len(CARD_VALUE))
)  # each card's (type, value), None for a 0 (never dead: nothing waits for it)


def _dead_values(state: GameState) -> set[tuple[str, int]]:
    """(type, value) pairs of which every card is played or discarded."""
    gone: dict[tuple[str, int], int] = {}
    tv = _TV_OF_CARD
    for c in state.discard:
        k = tv[c]
        if k is not None:
            gone[k] = gone.get(k, 0) + 1
    for s in state.seats:
        for p in s.row:
            for c in p.cards:
                k = tv[c]
                if k is not None:
                    gone[k] = gone.get(k, 0) + 1
    return {k for k, n in gone.items() if n >= _TV_TOTAL[k[1]]}


def acorn_pairs_in_row(seat: SeatState) -> int:
    """Neighbouring pile pairs showing an acorn pair now (RULES §4.2)."""
    row = seat.row
    return sum(1 for a, b in pairwise(row) if CARD_RIGHT_ACORN[a.cards[-1]] and CARD_LEFT_ACORN[b.cards[-1]])


def landscape_option(seat: SeatState, t_left: float, w: Weights) -> float:
    """The option value of the seat's unused landscapes."""
    unused = [lid for lid in seat.panorama if lid not in seat.used]
    return sum(w.landscape_option * (1.2 if LANDSCAPES[lid][0] == MIDDAY else 1.0) for lid in unused) * t_left


class StateContext:
    """Per-state work shared by every seat's evaluation of one ``state``
    (``GameState`` of the play phase): ``t_left`` (``time_left``), each
    activated objective's ``chances`` per seat (``objective_chances``), and
    the ``dead`` (type, value) pairs (all their cards played or discarded)
    with ``dead_key``, the same as a frozenset. Used by ``seat_value`` and
    by ``learned_value.features``."""

    __slots__ = ("t_left", "chances", "dead", "dead_key")

    def __init__(self, state: GameState) -> None:
        self.t_left = time_left(state)
        self.chances = objective_chances(state, self.t_left)
        self.dead = _dead_values(state)
        self.dead_key = frozenset(self.dead)


SEAT_CACHE_SIZE = 1 << 15
"""Seat values remembered per weights (``seat_value``); emptied when full."""
_SEAT_CACHES: dict[int, tuple[Weights, dict[tuple[object, ...], float]]] = {}


def _seat_cache(w: Weights) -> dict[tuple[object, ...], float]:
    """The seat-value memo of the weights ``w`` (by identity: the entry holds
    ``w``, so its id is not reused while the entry lives)."""
    entry = _SEAT_CACHES.get(id(w))
    if entry is None or entry[0] is not w:
        if len(_SEAT_CACHES) >= 64:
            _SEAT_CACHES.clear()
        entry = _SEAT_CACHES[id(w)] = (w, {})
    return entry[1]


def seat_value(state: GameState, i: int, *, with_hand: bool = True, w: Weights = DEFAULT_WEIGHTS,
               ctx: StateContext | None = None) -> float:
    """What seat ``i``'s position is worth in end-of-game points (estimate).

    ``with_hand=False`` counts only the hand's known cards (RULES §8): for a
    seat whose hand the evaluator cannot see.

    The value is a pure function of the seat's counted hand, its row (type,
    top card, cards, closed), acorns, panorama and used landscapes, its turns
    left, the state's time left, the seat's objective chances (and whether it
    owns each), the dead values, the types and ``w``: for an opponent's seat
    (``with_hand=False``), mostly unchanged between the commands a bot
    compares, it is memoized on exactly those (a speed-up only: the same
    inputs give the same floats).
    """
    if state.phase == ENDED:
        return float(score(state).seats[i].total)
    if ctx is None:
        ctx = StateContext(state)
    s = state.seats[i]
    hand = s.hand if with_hand else s.known
    if len(hand) > HAND_LIMIT:
        hand = hand[:HAND_LIMIT] if with_hand else hand
    turns = turns_left(state, i, w.burn)
    if with_hand:  # the own seat: its hand and row change with every command compared, rarely seen twice
        return _seat_value(state, s, i, hand, turns, w, ctx)
    owners = state.owners
    key = (
        state.types, tuple(hand), tuple([(p.leaf_type, p.cards[-1], len(p.cards), p.closed) for p in s.row]),
        s.acorns, tuple(s.panorama), tuple(s.used), turns, ctx.t_left,
        tuple([(owners[o] == i, probs[i]) for o, probs in ctx.chances.items()]), ctx.dead_key,
    )
    cache = _seat_cache(w)
    v = cache.get(key)
    if v is None:
        v = _seat_value(state, s, i, hand, turns, w, ctx)
        if len(cache) >= SEAT_CACHE_SIZE:
            cache.clear()
        cache[key] = v
    return v


def _seat_value(state: GameState, s: SeatState, i: int, hand: list[Card] | tuple[Card, ...], turns: float,
                w: Weights, ctx: StateContext) -> float:
    """``seat_value`` of seat ``i`` (``s``) counting ``hand``, worked out."""
    growth = w.growth * min(1.0, max(0.0, (turns - 1.0) / w.growth_turns))
    total, leftover = plan_outcome(s, hand, state.types, growth, ctx.dead, ctx.dead_key,
                                   math.ceil(w.play_share * turns))
    v = total + w.leftover * leftover * min(1.0, turns / 3.0)
    tl = ctx.t_left
    v += s.acorns * (w.acorn + w.acorn_early * tl)
    for o, probs in ctx.chances.items():
        pts = OBJECTIVE_OWNER_POINTS if state.owners[o] == i else OBJECTIVE_OTHER_POINTS
        v += pts * probs[i]
    if turns > 0:
        v += w.pair_future * acorn_pairs_in_row(s) * min(1.0, turns / 5.0)
        v += landscape_option(s, tl, w)
    return v


def all_values(state: GameState, w: Weights = DEFAULT_WEIGHTS, hands: bool = True) -> list[float]:
    """``seat_value`` of every seat (sharing the per-state work)."""
    if state.phase == ENDED:
        return [float(s.total) for s in score(state).seats]
    ctx = StateContext(state)
    return [seat_value(state, i, with_hand=hands, w=w, ctx=ctx) for i in range(state.n_seats)]


def relative_value(state: GameState, seat: int, w: Weights = DEFAULT_WEIGHTS) -> float:
    """The seat's value minus a share of its best opponent's (whose hand is
    counted by its known cards only, as the seat sees it)."""
    if state.phase == ENDED:
        totals = [s.total for s in score(state).seats]
        return totals[seat] - w.opponent * max(t for j, t in enumerate(totals) if j != seat)
    ctx = StateContext(state)
    mine = seat_value(state, seat, w=w, ctx=ctx)
    others = [seat_value(state, j, with_hand=False, w=w, ctx=ctx) for j in range(state.n_seats) if j != seat]
    return mine - w.opponent * max(others)


def best_collect_value(state: GameState, seat: int, w: Weights = DEFAULT_WEIGHTS) -> float:
    """The seat's value if it collected the best column of the display now
    (RULES §4.1; no Tea House), the column's cards simply moved to its hand."""
    best = -math.inf
    ctx = StateContext(state)
    for t in state.columns():
        s2 = state.clone()
        s2.turn.main_done = True
        col = [c for c in s2.display if CARD_TYPE[c] == t]
        s2.display = [c for c in s2.display if CARD_TYPE[c] != t]
        s2.seats[seat].hand.extend(col)
        best = max(best, seat_value(s2, seat, w=w, ctx=ctx))
    return best
