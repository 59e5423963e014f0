"""What a play would do, worked out before it is confirmed (RULES §4.2, §7).

Pure functions over a ``SeatView`` and the events ``Table.check`` returns:
the row after the play (new piles at their ends, piles that grow or close),
the neighbouring pairs that pay acorns, and the points of every pile.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise, product

from ...engine import events as ev
from ...engine.cards import CARD_LEFT_ACORN, CARD_RIGHT_ACORN, CARD_TYPE, CARD_VALUE, Card
from ...engine.commands import LEFT, RIGHT
from ...engine.view import SeatView


@dataclass(frozen=True)
class PilePreview:
    """One pile of the row after the play."""

    leaf_type: str
    cards: tuple[Card, ...]
    closed: bool
    new: bool = False
    grown: bool = False

    @property
    def points(self) -> int:
        """Top value × cards (RULES §7)."""
        return CARD_VALUE[self.cards[-1]] * len(self.cards)


@dataclass(frozen=True)
class PlayPreview:
    """The whole effect of a play: where each card goes, the row after it,
    which neighbouring pairs pay (index i: piles i and i+1) and how much."""

    placements: tuple[tuple[Card, str], ...]  # card, "" (on its pile) or "left"/"right"
    row: tuple[PilePreview, ...]
    closes: tuple[tuple[str, bool], ...]  # leaf type, torii taken
    pairs: tuple[int, ...]
    acorns: int

    @property
    def points(self) -> int:
        """What the row's piles score after the play (RULES §7)."""
        return sum(p.points for p in self.row)


def play_preview(seat: SeatView, events: Sequence[ev.Event]) -> PlayPreview:
    """The preview of the play whose events are ``events`` (from ``Table.check``)."""
    row = [PilePreview(p.leaf_type, p.cards, p.closed) for p in seat.row]
    placements: list[tuple[Card, str]] = []
    closes: list[tuple[str, bool]] = []
    acorns = 0
    for e in events:
        if isinstance(e, ev.CardsPlayed):
            for card, side in zip(e.cards, e.sides, strict=True):
                placements.append((card, side))
                t = CARD_TYPE[card]
                if side:
                    pile = PilePreview(t, (card,), False, new=True)
                    if side == LEFT:
                        row.insert(0, pile)
                    else:
                        row.append(pile)
                else:
                    i = next(k for k, p in enumerate(row) if p.leaf_type == t)
                    p = row[i]
                    row[i] = PilePreview(t, (*p.cards, card), p.closed, p.new, grown=not p.new)
        elif isinstance(e, ev.PileClosed):
            closes.append((e.leaf_type, e.torii))
            i = next(k for k, p in enumerate(row) if p.leaf_type == e.leaf_type)
            p = row[i]
            row[i] = PilePreview(p.leaf_type, p.cards, True, p.new, p.grown)
        elif isinstance(e, ev.AcornsGained):
            acorns += e.amount
    pairs: tuple[int, ...] = ()
    if acorns:
        pairs = tuple(i for i, (a, b) in enumerate(pairwise(row))
                      if CARD_RIGHT_ACORN[a.cards[-1]] and CARD_LEFT_ACORN[b.cards[-1]])
    return PlayPreview(tuple(placements), tuple(row), tuple(closes), pairs, acorns)


def new_pile_types(seat: SeatView, cards: Sequence[Card]) -> list[str]:
    """The leaf types a play of ``cards`` (in that order) starts piles of."""
    have = {p.leaf_type for p in seat.row}
    out: list[str] = []
    for c in cards:
        t = CARD_TYPE[c]
        if t not in have and t not in out:
            out.append(t)
    return out


def arrangements(seat: SeatView, new_types: Sequence[str]) -> list[tuple[str, ...]]:
    """Every distinct way to place the new piles (RULES §4.2): one side per
    new pile, in the order given; choices that give the same row are listed
    once. The first is "all to the right"."""
    existing = [p.leaf_type for p in seat.row]
    seen: set[tuple[str, ...]] = set()
    out: list[tuple[str, ...]] = []
    for sides in product((RIGHT, LEFT), repeat=len(new_types)):
        row = list(existing)
        for t, side in zip(new_types, sides, strict=True):
            if side == LEFT:
                row.insert(0, t)
            else:
                row.append(t)
        key = tuple(row)
        if key not in seen:
            seen.add(key)
            out.append(sides)
    return out
