"""Placing cards into a row (RULES §4.2): the checks ``decide`` refuses a
play with and ``legal``/``sample`` list plays by, in one place.

``placement`` returns a ``Misplaced`` value instead of raising, so that
listing legal plays needs no exceptions; ``plan_placement`` raises.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from . import commands as cmd
from .cards import (
    CARD_KIND_ID, CARD_LEFT_ACORN, CARD_RIGHT_ACORN, CARD_TYPE, CARD_VALUE, Card, describe_card,
)
from .errors import IllegalCommand
from .rules_data import LEAF_NAMES, MAX_VALUE, MIXED_MIN
from .state import GameState, SeatState


def _leaf(t: str) -> str:
    return LEAF_NAMES.get(t, t)


def row_tops(seat: SeatState) -> tuple[dict[str, int], set[str]]:
    """``seat``'s row as placement sees it: each pile's top value by leaf
    type, and the leaf types of its closed piles."""
    tops: dict[str, int] = {}
    closed: set[str] = set()
    for pile in seat.row:
        tops[pile.leaf_type] = CARD_VALUE[pile.cards[-1]]
        if pile.closed:
            closed.add(pile.leaf_type)
    return tops, closed


class Misplaced:
    """Why cards cannot be placed (RULES §4.2): the rule broken (``why``),
    the card and the top it met; ``message()`` is the sentence for a player.
    A plain value, so that ``legal`` can test placements without exceptions."""

    __slots__ = ("why", "card", "top")

    def __init__(self, why: str, card: Card | None = None, top: int | None = None) -> None:
        self.why, self.card, self.top = why, card, top

    def message(self) -> str:
        """The sentence a player reads."""
        if self.card is None:  # "extra sides"
            return "More new-pile sides were given than the play starts piles."
        t = _leaf(CARD_TYPE[self.card])
        if self.why == "closed":
            return (f"Your {t} pile is closed by a torii: it takes no more cards, "
                    f"and you cannot start another (RULES §4.2).")
        if self.why == "no pile":
            return f"You have no {t} pile: this power plays onto an existing pile (RULES §1.5)."
        if self.why == "not zero":
            return f"A pile begins with a 0: {describe_card(self.card)} cannot start one (RULES §4.2)."
        if self.why == "no side":
            return f"Say which end of your row the new {t} pile goes to: left or right (RULES §4.2)."
        article = "an" if t[:1] in "AEIOU" else "a"  # an Oak
        return (f"{describe_card(self.card)} cannot go on {article} {t} {self.top}: a card must equal "
                f"the top card or be exactly 1 higher (RULES §4.2).")


def placement(
    tops: dict[str, int], closed: set[str], cards: Sequence[Card], sides: Sequence[str], *,
    jump_step: int, new_piles_allowed: bool = True,
) -> tuple[str, ...] | Misplaced:
    """Place ``cards`` one after the other into a row given by ``row_tops``
    (RULES §4.2); ``tops`` and ``closed`` are not changed.

    ``sides`` are consumed in order by the cards that start a new pile.
    ``jump_step``: one card may be up to this much higher than the card it
    covers (the Stepping Stones jump, RULES §1.5: ``stones_jump``); 0 for no
    jump. Returns one side per card (``""`` for a
    card placed on an existing pile), or ``Misplaced``.
    """
    tops = dict(tops)
    closed = set(closed)
    out: list[str] = []
    side_iter = iter(sides)
    jumped = False
    for card in cards:
        t, v = CARD_TYPE[card], CARD_VALUE[card]
        if t in closed:
            return Misplaced("closed", card)
        top = tops.get(t)
        if top is None:
            if not new_piles_allowed:
                return Misplaced("no pile", card)
            if v != 0:
                return Misplaced("not zero", card)
            side = next(side_iter, None)
            if side not in (cmd.LEFT, cmd.RIGHT):
                return Misplaced("no side", card)
            out.append(side)
        else:
            step = v - top
            if step == 0 or step == 1:
                pass
            elif not jumped and 0 < step <= jump_step:
                jumped = True
            else:
                return Misplaced("step", card, top)
            out.append("")
        tops[t] = v
        if v == MAX_VALUE:
            closed.add(t)
    if next(side_iter, None) is not None:
        return Misplaced("extra sides")
    return tuple(out)


def stones_jump(state: GameState) -> int:
    """How much higher than the card it covers one card of this turn's play
    may be (RULES §1.5, Stepping Stones: the game's ``rules.stones_step``
    while the power is in use and its jump not yet made), else 0."""
    turn = state.turn
    return state.rules.stones_step if turn.boost == "stones" and not turn.stones_used else 0


def plan_placement(
    seat: SeatState, cards: Sequence[Card], sides: Sequence[str], *, jump_step: int,
    new_piles_allowed: bool = True,
) -> tuple[str, ...]:
    """``placement`` into ``seat``'s row; raises ``IllegalCommand`` when it fails."""
    tops, closed = row_tops(seat)
    result = placement(tops, closed, cards, sides, jump_step=jump_step,
                       new_piles_allowed=new_piles_allowed)
    if isinstance(result, Misplaced):
        raise IllegalCommand(result.message())
    return result


def play_order(cards: Sequence[Card]) -> tuple[str, tuple[Card, ...]]:
    """Classify a play and put it in placing order (RULES §4.2).

    Returns ``("same", cards lower first)`` or ``("mixed", cards as given)``.
    Cards of equal value go in the order of their kind (``CARD_KIND_ID``),
    so which copies of the same kinds are played never changes which
    corners end on top (legal.py lists one copy per kind).
    Raises ``IllegalCommand`` when the cards are neither one type nor all
    different types, or the count is wrong for the mode.
    """
    if not cards:
        raise IllegalCommand("Choose at least one card to play.")
    types = [CARD_TYPE[c] for c in cards]
    if len(set(types)) == 1:
        return "same", tuple(sorted(cards, key=lambda c: (CARD_VALUE[c], CARD_KIND_ID[c], c)))
    if len(set(types)) != len(types):
        raise IllegalCommand(
            "A play is 1 or 2 cards of one type, or 2 or more cards of different types, "
            "one per pile (RULES §4.2)."
        )
    assert len(cards) >= MIXED_MIN
    return "mixed", tuple(cards)


def acorn_pairs(seat: SeatState) -> int:
    """How many neighbouring pile pairs of ``seat``'s row show an acorn pair (RULES §4.2)."""
    row = seat.row
    return sum(
        1 for left, right in pairwise(row)
        if CARD_RIGHT_ACORN[left.top] and CARD_LEFT_ACORN[right.top]
    )
