"""A score-like evaluation of a state for one seat (used by Normal and Hard).

``seat_value`` estimates what a seat's position is worth in end-of-game
points (RULES §7): its piles (top × cards) plus their progress toward a 3,
the cards in hand that extend them, acorns, objectives it is likely to meet,
acorn pairs that later mixed plays will pay again, and the option value of
unused landscapes. Progress and options fade as the game nears its end
(``time_left`` goes from 1 to 0); at the end the value is the real score.

Everything here reads a ``GameState``; bots only ever pass states they
determinized from their own view.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..engine.cards import CARD_LEFT_ACORN, CARD_RIGHT_ACORN, CARD_TYPE, CARD_VALUE, Card
from ..engine.rules_data import (
    DISPLAY_SIZE, HAND_SIZE_AT_SETUP, LANDSCAPES, MIDDAY, OBJECTIVE_OTHER_POINTS,
    OBJECTIVE_OWNER_POINTS, torii_supply,
)
from ..engine.scoring import objective_measure, score
from ..engine.state import ENDED, GameState, SeatState


@dataclass(frozen=True, slots=True)
class Weights:
    """Tunable weights of the evaluation (defaults measured by tournaments)."""

    acorn: float = 1.0            # an acorn is 1 point at the end ...
    acorn_early: float = 0.35     # ... and worth more while it can still buy things
    hand_chain: float = 0.6       # a hand card that extends a pile, per point it adds
    hand_loose: float = 0.35      # a hand card of an open type that does not fit yet
    growth: float = 0.45          # share of an open pile's way to a 3 counted now
    pair_future: float = 1.0      # an acorn pair in the row, per future mixed play
    landscape_option: float = 1.2  # an unused landscape (midday ones count a bit more)
    opponent: float = 0.5         # weight of the best opponent's value in ``relative_value``


DEFAULT_WEIGHTS = Weights()
_TOP_NEEDED = {0: (1, 2, 3), 1: (2, 3), 2: (3,), 3: ()}


def initial_deck_size(state: GameState) -> int:
    """Cards in the deck right after setup (RULES §2.2, §2.5)."""
    return 14 * len(state.types) - HAND_SIZE_AT_SETUP * state.n_seats - DISPLAY_SIZE


def time_left(state: GameState) -> float:
    """Roughly how much of the game is left, 1.0 at the start and 0.0 at the end
    (the deck running out or the torii supply, RULES §6)."""
    if state.phase == ENDED or state.end_trigger is not None:
        return 0.0
    deck = state.deck_size / max(1, initial_deck_size(state))
    torii = state.torii_left / torii_supply(state.n_seats)
    return max(0.0, min(1.0, deck, 0.25 + 0.75 * torii))


def _used_cards(state: GameState) -> set[Card]:
    """Cards that can no longer reach anyone's pile: played or discarded."""
    gone = set(state.discard)
    for s in state.seats:
        for p in s.row:
            gone.update(p.cards)
    return gone


def objective_chances(state: GameState, t_left: float) -> dict[str, list[float]]:
    """For each activated objective, each seat's chance to meet it at the end."""
    out: dict[str, list[float]] = {}
    if not state.owners:
        return out
    scale = 0.45 + 3.0 * t_left
    for o in state.owners:
        ms = [objective_measure(o, s) for s in state.seats]
        probs = []
        for i, m in enumerate(ms):
            best_other = max(ms[j] for j in range(len(ms)) if j != i)
            if t_left <= 0.0:
                probs.append(1.0 if (m >= 1 and m >= best_other) else 0.0)
                continue
            d = m - best_other + 0.5 - (1.0 if m < 1 else 0.0)
            probs.append(1.0 / (1.0 + math.exp(-d / scale)))
        out[o] = probs
    return out


def pile_values(seat: SeatState, hand: list[Card] | None, state: GameState, t_left: float,
                gone: set[Card], w: Weights) -> float:
    """Piles now, their progress toward a 3, and the hand cards that extend them."""
    by_type: dict[str, list[int]] = {}
    if hand:
        for c in hand:
            by_type.setdefault(CARD_TYPE[c], []).append(CARD_VALUE[c])
    total = 0.0
    piles = {p.leaf_type: p for p in seat.row}
    for t in state.types:
        p = piles.get(t)
        vals = sorted(by_type.get(t, ()))
        if p is not None and p.closed:
            total += 3 * len(p.cards)
            total += w.hand_loose * 0.0 * len(vals)
            continue
        if p is None:
            n, top = 0, -1
        else:
            n, top = len(p.cards), CARD_VALUE[p.cards[-1]]
            total += top * n
        # the hand's chain onto this pile (a new pile needs a 0 first)
        k, new_top = 0, top
        loose = 0
        for v in vals:
            if (new_top < 0 and v == 0) or (new_top >= 0 and v in (new_top, new_top + 1)):
                k += 1
                new_top = v
            else:
                loose += 1
        if k:
            gain = new_top * (n + k) - (max(top, 0) * n)
            total += w.hand_chain * (gain + 0.6 * k)
        total += w.hand_loose * 0.5 * loose
        n2, top2 = n + k, new_top
        if n2 == 0 or top2 >= 3:
            if top2 >= 3:
                # a 3 in the chain will close the pile: count it as closed
                total += w.hand_chain * 0.0
            continue
        # growth: the way to a 3 (which closes the pile at 3 × cards)
        steps = 3 - top2
        if any(all(x in gone for x in _cards_of(t, v)) for v in _TOP_NEEDED[top2]):
            continue  # a needed value is gone for good
        reach = max(0.0, min(1.0, 1.3 * t_left - 0.12 * steps))
        total += w.growth * reach * (3 * (n2 + steps) - top2 * n2)
    return total


_CARDS_BY_TV: dict[tuple[str, int], tuple[Card, ...]] = {}
for _c in range(84):
    _CARDS_BY_TV.setdefault((CARD_TYPE[_c], CARD_VALUE[_c]), ())
    _CARDS_BY_TV[(CARD_TYPE[_c], CARD_VALUE[_c])] += (_c,)


def _cards_of(t: str, v: int) -> tuple[Card, ...]:
    return _CARDS_BY_TV[(t, v)]


def acorn_pairs_in_row(seat: SeatState) -> int:
    """Neighbouring pile pairs showing an acorn pair now (RULES §4.2)."""
    row = seat.row
    return sum(1 for a, b in zip(row, row[1:]) if CARD_RIGHT_ACORN[a.cards[-1]] and CARD_LEFT_ACORN[b.cards[-1]])


def landscape_option(seat: SeatState, t_left: float, w: Weights) -> float:
    """The option value of the seat's unused landscapes."""
    unused = [lid for lid in seat.panorama if lid not in seat.used]
    return sum(w.landscape_option * (1.2 if LANDSCAPES[lid][0] == MIDDAY else 1.0) for lid in unused) * t_left


def seat_value(state: GameState, i: int, *, with_hand: bool = True, w: Weights = DEFAULT_WEIGHTS,
               t_left: float | None = None, chances: dict[str, list[float]] | None = None,
               gone: set[Card] | None = None) -> float:
    """What seat ``i``'s position is worth in end-of-game points (estimate).

    ``with_hand=False`` ignores the hand's unknown cards (for a seat whose hand
    the evaluator cannot see, only its known cards count).
    """
    if state.phase == ENDED:
        return float(score(state).seats[i].total)
    tl = time_left(state) if t_left is None else t_left
    if gone is None:
        gone = _used_cards(state)
    if chances is None:
        chances = objective_chances(state, tl)
    s = state.seats[i]
    hand = s.hand if with_hand else s.known
    v = pile_values(s, hand, state, tl, gone, w)
    v += s.acorns * (w.acorn + w.acorn_early * tl)
    for o, probs in chances.items():
        pts = OBJECTIVE_OWNER_POINTS if state.owners[o] == i else OBJECTIVE_OTHER_POINTS
        v += pts * probs[i]
    if tl > 0:
        v += w.pair_future * acorn_pairs_in_row(s) * min(1.0, 2.0 * tl)
        v += landscape_option(s, tl, w)
    return v


def all_values(state: GameState, w: Weights = DEFAULT_WEIGHTS, hands: bool = True) -> list[float]:
    """``seat_value`` of every seat (sharing the per-state work)."""
    if state.phase == ENDED:
        sheet = score(state)
        return [float(s.total) for s in sheet.seats]
    tl = time_left(state)
    gone = _used_cards(state)
    chances = objective_chances(state, tl)
    return [seat_value(state, i, with_hand=hands, w=w, t_left=tl, chances=chances, gone=gone)
            for i in range(state.n_seats)]


def relative_value(state: GameState, seat: int, w: Weights = DEFAULT_WEIGHTS) -> float:
    """The seat's value minus a share of its best opponent's (whose hand is
    counted by its known cards only, as the seat sees it)."""
    tl = time_left(state)
    gone = _used_cards(state)
    chances = objective_chances(state, tl)
    mine = seat_value(state, seat, w=w, t_left=tl, chances=chances, gone=gone)
    others = [seat_value(state, j, with_hand=False, w=w, t_left=tl, chances=chances, gone=gone)
              for j in range(state.n_seats) if j != seat]
    return mine - w.opponent * max(others)
