"""The evaluation's quick greedy plan of a seat's hand (used by ``evaluate``).

The plan plays the hand out over the play actions the seat can afford: each
action takes the best same-type play of 1–2 cards or the best mixed play of
one card per pile (RULES §4.2), and values the piles at top × cards plus a
share of their way to a 3 (which closes the pile), unless a value on the way
is dead (every copy played or discarded). ``plan_outcome`` memoizes it.
"""

from __future__ import annotations

from ..engine.cards import CARD_TYPE, CARD_VALUE, Card
from ..engine.state import SeatState


class _Plan:
    """A seat's piles as (top, cards, closed) per type, and its playable hand."""

    __slots__ = ("tops", "counts", "closed", "hand", "growth", "dead")

    def __init__(self, row: tuple[tuple[str, int, int, bool], ...], hand: dict[str, list[int]],
                 types: tuple[str, ...], growth: float, dead: set[tuple[str, int]]) -> None:
        """``row``: the piles as ``_row_key`` gives them; ``hand``: the
        playable hand as ``_hand_by_type`` gives it (the plan takes it over)."""
        self.tops: dict[str, int] = {t: -1 for t in types}
        self.counts: dict[str, int] = {t: 0 for t in types}
        self.closed: set[str] = set()
        for t, top, n, closed in row:
            self.tops[t] = top
            self.counts[t] = n
            if closed:
                self.closed.add(t)
        self.hand = hand
        self.growth = growth
        self.dead = dead

    def pile_value(self, t: str, top: int, n: int) -> float:
        """top × n, plus the share of the way to a 3 that is counted now."""
        if n == 0:
            return 0.0
        base = top * n
        if top >= 3 or self.growth <= 0.0:
            return float(base)
        for v in range(top + 1, 4):
            if (t, v) in self.dead:
                return float(base)
        steps = 3 - top
        return base + self.growth * (3 * (n + steps) - base) / (1 + 0.35 * steps)

    def best_same(self, t: str) -> tuple[float, list[int]]:
        """Best gain from a same-type play of 1–2 cards of ``t``."""
        vals = self.hand.get(t)
        if not vals:
            return 0.0, []
        top, n = self.tops[t], self.counts[t]
        before = self.pile_value(t, top, n)
        best, best_cards = 0.0, []
        fits1 = [v for v in dict.fromkeys(vals) if (v == 0 if top < 0 else v in (top, top + 1))]
        for a in fits1:
            g1 = self.pile_value(t, a, n + 1) - before
            if g1 > best:
                best, best_cards = g1, [a]
            if a >= 3:
                continue
            rest = list(vals)
            rest.remove(a)
            for b in dict.fromkeys(rest):
                if b in (a, a + 1):
                    g2 = self.pile_value(t, b, n + 2) - before
                    if g2 > best:
                        best, best_cards = g2, [a, b]
        return best, best_cards

    def best_single(self, t: str) -> tuple[float, int]:
        vals = self.hand.get(t)
        if not vals:
            return 0.0, -1
        top, n = self.tops[t], self.counts[t]
        before = self.pile_value(t, top, n)
        best, card = 0.0, -1
        for a in dict.fromkeys(vals):
            if (a == 0) if top < 0 else a in (top, top + 1):
                g = self.pile_value(t, a, n + 1) - before
                if g > best:
                    best, card = g, a
        return best, card

    def place(self, t: str, values: list[int]) -> None:
        for v in values:
            self.hand[t].remove(v)
            self.tops[t] = v
            self.counts[t] += 1
            if v >= 3:
                self.closed.add(t)
                self.hand.pop(t, None)
                break

    def run(self, actions: int) -> None:
        """Greedy: each action takes the best same-type or mixed play.

        A type's best plays depend only on its pile and its hand cards: they
        are worked out again only for the types the last action played on."""
        best: dict[str, tuple[float, list[int], float, int]] = {}
        for _ in range(actions):
            best_same, same_t, same_cards = 0.0, "", []
            mixed_gain, mixed = 0.0, []
            for t in list(self.hand):
                known = best.get(t)
                if known is None:
                    known = best[t] = (*self.best_same(t), *self.best_single(t))
                g, cards, g1, c1 = known
                if g > best_same:
                    best_same, same_t, same_cards = g, t, cards
                if g1 > 0:
                    mixed_gain += g1
                    mixed.append((t, c1))
            if len(mixed) >= 2 and mixed_gain > best_same:
                for t, c in mixed:
                    self.place(t, [c])
                    del best[t]
            elif best_same > 0:
                self.place(same_t, same_cards)
                del best[same_t]
            else:
                return

    def total(self) -> float:
        return sum(self.pile_value(t, self.tops[t], self.counts[t]) for t in self.tops)

    def leftover(self) -> int:
        return sum(len(v) for v in self.hand.values())


def _row_key(seat: SeatState) -> tuple[tuple[str, int, int, bool], ...]:
    """The seat's piles as (leaf type, top value, cards, closed), in row order."""
    return tuple((p.leaf_type, CARD_VALUE[p.cards[-1]], len(p.cards), p.closed) for p in seat.row)


def _hand_by_type(row: tuple[tuple[str, int, int, bool], ...], hand: list[Card] | tuple[Card, ...]
                  ) -> dict[str, list[int]]:
    """The hand's values by leaf type (types in hand order, values rising),
    leaving out the types whose pile is closed (RULES §4.2)."""
    closed = {t for t, _, _, c in row if c}
    out: dict[str, list[int]] = {}
    for c in hand:
        t = CARD_TYPE[c]
        if t not in closed:
            out.setdefault(t, []).append(CARD_VALUE[c])
    for vals in out.values():
        vals.sort()
    return out


PLAN_CACHE_SIZE = 1 << 15
"""Plans remembered (``_plan_outcome``); the memo is emptied when full."""
_PLAN_CACHE: dict[tuple[object, ...], tuple[float, int]] = {}


def plan_outcome(seat: SeatState, hand: list[Card] | tuple[Card, ...], types: tuple[str, ...], growth: float,
                 dead: set[tuple[str, int]], dead_key: frozenset[tuple[str, int]], actions: int
                 ) -> tuple[float, int]:
    """``(total, leftover)`` of the greedy plan of ``actions`` play actions.

    The plan is a pure function of the row's (type, top, cards, closed), the
    playable hand's values by type (in hand order), ``types``, ``growth``,
    the dead values (``dead``; ``dead_key``: the same as a frozenset) and
    ``actions``: its outcome is memoized on exactly those (a speed-up only:
    the same inputs give the same floats). Raises nothing.
    """
    row = _row_key(seat)
    by_type = _hand_by_type(row, hand)
    key = (types, row, tuple((t, tuple(v)) for t, v in by_type.items()), growth, actions, dead_key)
    out = _PLAN_CACHE.get(key)
    if out is None:
        plan = _Plan(row, by_type, types, growth, dead)
        plan.run(actions)
        out = (plan.total(), plan.leftover())
        if len(_PLAN_CACHE) >= PLAN_CACHE_SIZE:
            _PLAN_CACHE.clear()
        _PLAN_CACHE[key] = out
    return out
