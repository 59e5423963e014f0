"""Legal actions: every command a seat may give now (ARCHITECTURE "The engine").

``legal_commands(state, seat)`` lists them; each one is accepted by
``decide``. Two simplifications keep the list finite and small, and neither
hides a choice that matters:

* cards that differ only by their letter (same type, value and acorn
  corners) behave identically, so one of them stands for all; in a hand,
  a card every seat has seen enter it (``known``, RULES §8) is told apart
  from a hidden copy, since which one leaves the hand changes what the
  others know;
* a mixed play is listed once per distinct resulting row: cards placed on
  existing piles come first (in leaf-type order), then the new piles. The
  order of new piles matters when several go to the same end (RULES §4.2:
  "in the order you give"), so every arrangement of the new piles is
  offered: with a non-empty row, any split into a left group and a right
  group, each in any order ((k+1)! rows for k new piles); with an empty
  row, every order of the new piles, all sent to the right end (k! rows).
  ``decide`` accepts any order and sides; each such command ends in the
  same state as one listed command.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Sequence
from itertools import combinations, permutations, product

from . import commands as cmd
from .cards import CARD_KIND_ID, CARD_TYPE, CARD_VALUE, Card
from .placement import Misplaced, placement, row_tops, stones_jump
from .rules_data import (
    EXCHANGE_DISCARD, HAND_LIMIT, LANDSCAPES,
    MIDDAY, OBJECTIVE_COST, REVEAL_COST, SAME_TYPE_MAX,
)
from .state import DRAFT, PLAY, GameState, SeatState

SIDES = (cmd.LEFT, cmd.RIGHT)


_kind = CARD_KIND_ID.__getitem__


def hand_key(seat: SeatState) -> Callable[[Card], Hashable]:
    """The kind of a card in ``seat``'s hand: its kind (``CARD_KIND_ID``) and
    whether every seat knows it is there (RULES §8)."""
    known = set(seat.known)
    if not known:
        return lambda c: (CARD_KIND_ID[c], False)
    return lambda c: (CARD_KIND_ID[c], c in known)


def _distinct(cards: Sequence[Card], key: Callable[[Card], Hashable] = _kind) -> list[Card]:
    """One card per kind (same type, value and corners; see ``hand_key``)."""
    seen: set[Hashable] = set()
    out = []
    for c in sorted(cards):
        k = key(c)
        if k not in seen:
            seen.add(k)
            out.append(c)
    return out


def kind_subsets(
    cards: Sequence[Card], lo: int, hi: int, key: Callable[[Card], Hashable] = _kind,
) -> list[tuple[Card, ...]]:
    """Every sub-multiset of ``cards`` by kind (``key``) with ``lo``..``hi`` cards.

    Kinds are taken in the order of their lowest card, and a subset holds the
    lowest cards of its kinds. The order is that of counting how many cards of
    each kind to take, kind after kind, from none up: for each kind, the
    subsets without it come first.
    """
    groups: dict[Hashable, list[Card]] = {}
    for c in sorted(cards):
        groups.setdefault(key(c), []).append(c)
    kinds = list(groups.values())
    left = [0] * (len(kinds) + 1)  # left[i]: cards of kinds i, i+1, ...
    for i in range(len(kinds) - 1, -1, -1):
        left[i] = left[i + 1] + len(kinds[i])
    out: list[tuple[Card, ...]] = []
    _extend_subsets(kinds, left, lo, hi, 0, [], out)
    return out


def _extend_subsets(kinds: list[list[Card]], left: list[int], lo: int, hi: int,
                    i: int, chosen: list[Card], out: list[tuple[Card, ...]]) -> None:
    """:func:`kind_subsets`' step: ``chosen`` (from kinds before ``i``) alone,
    then with kinds ``i``.. added; in counting order the later the first added
    kind, the earlier. A module function, not a closure: a closure that calls
    itself is a reference cycle, left to the garbage collector on every call
    (young collections' work on a server)."""
    n = len(chosen)
    if n >= lo:
        out.append(tuple(chosen))
    if n == hi:
        return
    for j in range(len(kinds) - 1, i - 1, -1):
        if n + left[j] < lo:
            continue
        group = kinds[j]
        for k in range(1, min(len(group), hi - n) + 1):
            _extend_subsets(kinds, left, lo, hi, j + 1, chosen + group[:k], out)


def _objective_cost(state: GameState) -> int:
    return state.rules.pagoda_objective_cost if state.turn.boost == "pagoda" else OBJECTIVE_COST


def placeable(tops: dict[str, int], closed: set[str], card: Card, *, jump_step: int) -> bool:
    """Whether ``card`` alone can go into the row given by ``row_tops``, with a
    jump of up to ``jump_step`` (``placement.stones_jump``; 0 for none)."""
    t = CARD_TYPE[card]
    if t in closed:
        return False
    top = tops.get(t)
    if top is None:
        return CARD_VALUE[card] == 0
    step = CARD_VALUE[card] - top
    return step == 0 or step == 1 or 0 < step <= jump_step


def _fits(result: tuple[str, ...] | Misplaced) -> bool:
    return not isinstance(result, Misplaced)


def _by_value(c: Card) -> tuple[int, Card]:
    return CARD_VALUE[c], c


def can_take_main_action(state: GameState, seat: int) -> bool:
    """Whether ``seat`` has any main action (RULES §3: otherwise it passes)."""
    s = state.seats[seat]
    if state.display:
        return True
    cost = 0 if state.turn.boost == "waterfall" else REVEAL_COST
    if state.deck_size and s.acorns >= cost:
        return True
    jump = stones_jump(state)
    tops, closed = row_tops(s)
    if any(placeable(tops, closed, c, jump_step=jump) for c in s.hand):
        return True
    return s.acorns >= _objective_cost(state) and any(o not in state.owners for o in state.objectives)


def _collects(state: GameState, seat: int) -> list[cmd.Command]:
    columns = state.columns()
    want = min(state.rules.teahouse_columns, len(columns)) if state.turn.boost == "teahouse" else 1
    if not columns:
        return []
    return [cmd.Collect(seat, combo) for combo in combinations(columns, want)]


def _plays(state: GameState, seat: int) -> list[cmd.Command]:
    s = state.seats[seat]
    key = hand_key(s)
    boost = state.turn.boost
    jump = stones_jump(state)
    tops, closed = row_tops(s)
    out: list[cmd.Command] = []
    by_type: dict[str, list[Card]] = {}
    for c in s.hand:
        by_type.setdefault(CARD_TYPE[c], []).append(c)
    limit = state.rules.bridge_same_type_max if boost == "bridge" else SAME_TYPE_MAX
    # Same type (RULES §4.2).
    for t, cards in by_type.items():
        if t in closed:
            continue
        side_options: list[tuple[str, ...]] = [()] if t in tops else [(side,) for side in SIDES]
        for subset in kind_subsets(cards, 1, limit, key):
            ordered = tuple(sorted(subset, key=_by_value))
            for sides in side_options:
                if _fits(placement(tops, closed, ordered, sides, jump_step=jump)):
                    out.append(cmd.Play(seat, ordered, sides))
    # Mixed: one card per pile, of different types (RULES §4.2).
    options = []
    for t in state.types:
        if t in by_type:
            singles = [c for c in _distinct(by_type[t], key) if placeable(tops, closed, c, jump_step=jump)]
            if singles:
                options.append([None, *singles])
    for choice in product(*options):
        chosen = tuple(c for c in choice if c is not None)
        if len(chosen) < 2:
            continue
        old = tuple(c for c in chosen if CARD_TYPE[c] in tops)
        new = tuple(c for c in chosen if CARD_TYPE[c] not in tops)
        # Each card fits alone, on a pile of its own type: the play can only
        # fail by needing two Stepping Stones jumps, whatever the order of the
        # new piles and their sides. So one check covers every arrangement.
        if not _fits(placement(tops, closed, old + new, (cmd.RIGHT,) * len(new), jump_step=jump)):
            continue
        for order, sides in _arrangements(new, bool(s.row)):
            out.append(cmd.Play(seat, old + order, sides))
    return out


def _arrangements(
    new: tuple[Card, ...], row_has_piles: bool,
) -> Iterator[tuple[tuple[Card, ...], tuple[str, ...]]]:
    """One (cards, sides) per distinct way to add the piles ``new`` to a row
    (RULES §4.2). A pile sent left lands left of the piles sent left before
    it, so the left group is given in reverse of its final order."""
    if not new:
        yield (), ()
        return
    if not row_has_piles:
        for order in permutations(new):
            yield order, (cmd.RIGHT,) * len(order)
        return
    for k in range(len(new) + 1):
        for left in combinations(new, k):
            right = tuple(c for c in new if c not in left)
            for lp in permutations(left):
                for rp in permutations(right):
                    yield tuple(reversed(lp)) + rp, (cmd.LEFT,) * k + (cmd.RIGHT,) * len(rp)


def _landscapes(state: GameState, seat: int) -> list[cmd.Command]:
    s = state.seats[seat]
    if state.turn.landscape is not None or s.acorns < state.rules.cheapest_landscape:
        return []
    key = hand_key(s)
    out: list[cmd.Command] = []
    for lid in s.panorama:
        if lid in s.used or s.acorns < state.rules.landscape_cost(lid):
            continue
        if LANDSCAPES[lid][0] == MIDDAY:
            if not state.turn.main_done:
                out.append(cmd.UseLandscape(seat, lid))
            continue
        if lid in ("spring", "pier", "pine", "festival"):
            out.append(cmd.UseLandscape(seat, lid))
        elif lid == "bamboo":
            if state.deck_size:
                out.append(cmd.UseLandscape(seat, lid))
        elif lid == "lantern":
            out += [cmd.UseLandscape(seat, lid, card=c) for c in _distinct(state.display)]
        elif lid == "terrace":
            out += [cmd.UseLandscape(seat, lid, card=c) for c in _distinct(state.discard)]
        elif lid == "bell":
            out += [
                cmd.UseLandscape(seat, lid, hand_cards=(h,), card=c)
                for h in _distinct(s.hand, key) for c in _distinct(state.display)
            ]
        elif lid == "koi":
            if state.deck_size:
                subsets = kind_subsets(s.hand, 1, state.rules.koi_max, key)
                out += [cmd.UseLandscape(seat, lid, hand_cards=sub) for sub in subsets]
        elif lid == "crane":
            tops, closed = row_tops(s)
            out += [
                cmd.UseLandscape(seat, lid, hand_cards=(c,))
                for c in _distinct(s.hand, key)
                if CARD_TYPE[c] in tops and placeable(tops, closed, c, jump_step=0)
            ]
        elif lid == "fox":
            subsets = kind_subsets(s.hand, 1, len(s.hand), key)
            out += [cmd.UseLandscape(seat, lid, hand_cards=sub) for sub in subsets]
        elif lid == "moongate" and s.acorns >= state.rules.landscape_cost(lid) + _objective_cost(state):
            out += [
                cmd.UseLandscape(seat, lid, objective=o)
                for o in state.objectives if o not in state.owners
            ]
    return out


def legal_commands(state: GameState, seat: int) -> list[cmd.Command]:
    """Every command ``seat`` may give now (see the module note on equivalent
    cards and mixed-play order). Empty when it is not this seat's turn or the
    game is over."""
    if state.current != seat:
        return []
    if state.phase == DRAFT:
        return [cmd.DraftPick(seat, lid) for lid in state.draft_remaining]
    if state.phase != PLAY:
        return []
    if state.turn.revealed:
        return _collects(state, seat)
    s = state.seats[seat]
    key = hand_key(s)
    if state.turn.limit_discarded:  # the end of the turn has begun (RULES §5.1)
        return _end_of_turn(s, seat, key)
    out: list[cmd.Command] = []
    if not state.turn.main_done:
        cost = 0 if state.turn.boost == "waterfall" else REVEAL_COST
        if state.deck_size and s.acorns >= cost:
            out.append(cmd.Reveal(seat))
        out += _collects(state, seat)
        out += _plays(state, seat)
        if s.acorns >= _objective_cost(state):
            out += [cmd.ActivateObjective(seat, o) for o in state.objectives if o not in state.owners]
        if not out:
            out.append(cmd.Pass(seat))
    if not state.turn.exchanged and len(s.hand) >= EXCHANGE_DISCARD:
        pairs = kind_subsets(s.hand, EXCHANGE_DISCARD, EXCHANGE_DISCARD, key)
        out += [cmd.Exchange(seat, (a, b)) for a, b in pairs]
    out += _landscapes(state, seat)
    if state.turn.main_done:
        out += _end_of_turn(s, seat, key)
    return out


def _end_of_turn(s: SeatState, seat: int, key: Callable[[Card], Hashable]) -> list[cmd.Command]:
    """The hand-limit discards when the hand is over the limit, else ending
    the turn (RULES §5.1)."""
    excess = len(s.hand) - HAND_LIMIT
    if excess > 0:
        return [cmd.DiscardToLimit(seat, sub) for sub in kind_subsets(s.hand, excess, excess, key)]
    return [cmd.EndTurn(seat)]
