"""The building blocks of the playout commands (``playout_sampler``,
``playout_policy``, ``playout_prefilter``): what a seat's row and hand allow,
read straight from the state, and one legal command built from a choice.

Pure and cheap: no list of every legal command is made (ARCHITECTURE "The
engine": a way to pick a random legal move without listing every mixed play).
"""

from __future__ import annotations

import random

from ..engine import commands as cmd
from ..engine.cards import CARD_TYPE, CARD_VALUE, Card
from ..engine.commands import Command
from ..engine.placement import stones_jump
from ..engine.rules_data import HAND_LIMIT, OBJECTIVE_COST, REVEAL_COST, SAME_TYPE_MAX
from ..engine.state import GameState, SeatState

SIDES = (cmd.LEFT, cmd.RIGHT)


def keep_value(tops: dict[str, int], closed: set[str], c: Card) -> float:
    """How much a seat wants to keep card ``c`` (a quick guess, not points)."""
    t, v = CARD_TYPE[c], CARD_VALUE[c]
    if t in closed:
        return 0.0
    top = tops.get(t)
    if top is None:
        return 2.0 if v == 0 else 0.4 + 0.2 * v
    d = v - top
    if d == 0:
        return 1.5 + top
    if d == 1:
        return 2.0 + v
    if d > 1:
        return 0.6 + 0.2 * v
    return 0.1


def objective_cost(state: GameState) -> int:
    """The acorns an objective costs this turn (RULES §4.3; less with the
    Pagoda's boost, §1.5)."""
    return state.rules.pagoda_objective_cost if state.turn.boost == "pagoda" else OBJECTIVE_COST


def reveal_cost(state: GameState) -> int:
    """The acorns a reveal costs this turn (RULES §4.1; free with the
    Waterfall's boost, §1.5)."""
    return 0 if state.turn.boost == "waterfall" else REVEAL_COST


def collect_command(state: GameState, seat: int, types: list[str]) -> cmd.Collect:
    """A legal collect that starts with the columns in ``types`` (best first)."""
    columns = state.columns()
    want = min(state.rules.teahouse_columns, len(columns)) if state.turn.boost == "teahouse" else 1
    chosen = [t for t in types if t in columns][:want]
    for t in columns:
        if len(chosen) >= want:
            break
        if t not in chosen:
            chosen.append(t)
    chosen.sort(key=columns.index)
    return cmd.Collect(seat, tuple(chosen))


def placeable(tops: dict[str, int], closed: set[str], c: Card, jump: int) -> bool:
    """Whether card ``c`` alone can go on (or start) its type's pile
    (RULES §4.2); ``jump``: how much higher a Stepping Stones jump may go, 0 for none
    (§1.5, ``engine.placement.stones_jump``)."""
    t, v = CARD_TYPE[c], CARD_VALUE[c]
    if t in closed:
        return False
    top = tops.get(t)
    if top is None:
        return v == 0
    d = v - top
    return d in (0, 1) or 0 < d <= jump


def same_type_options(state: GameState, seat: SeatState, tops: dict[str, int], closed: set[str]
                       ) -> list[tuple[Card, ...]]:
    """Every same-type play (cards lower first), by card (not by kind)."""
    boost = state.turn.boost
    jump = stones_jump(state)
    limit = state.rules.bridge_same_type_max if boost == "bridge" else SAME_TYPE_MAX
    by_type: dict[str, list[Card]] = {}
    for c in seat.hand:
        by_type.setdefault(CARD_TYPE[c], []).append(c)
    out: list[tuple[Card, ...]] = []
    for t, cards in by_type.items():
        if t in closed:
            continue
        cards = sorted(cards, key=lambda c: (CARD_VALUE[c], c))

        def rec(start: int, top: int | None, chosen: tuple[Card, ...], jumped: bool, cards: list[Card] = cards
                ) -> None:
            if chosen:
                out.append(chosen)
            if len(chosen) >= limit or (chosen and CARD_VALUE[chosen[-1]] >= 3):
                return
            for i in range(start, len(cards)):
                c = cards[i]
                v = CARD_VALUE[c]
                if top is None:
                    ok, j2 = v == 0, jumped
                else:
                    d = v - top
                    if d in (0, 1):
                        ok, j2 = True, jumped
                    elif not jumped and 0 < d <= jump:
                        ok, j2 = True, True
                    else:
                        ok, j2 = False, jumped
                if ok:
                    rec(i + 1, v, chosen + (c,), j2)

        rec(0, tops.get(t), (), False)
    return out


def play_command(seat: int, row_seat: SeatState, cards: tuple[Card, ...], rng: random.Random) -> cmd.Play:
    new = sum(1 for c in cards if row_seat.pile_of(CARD_TYPE[c]) is None)
    # a same-type play starts at most one pile; mixed plays one per new type
    if len({CARD_TYPE[c] for c in cards}) == 1:
        new = 1 if row_seat.pile_of(CARD_TYPE[cards[0]]) is None else 0
    return cmd.Play(seat, cards, tuple(rng.choice(SIDES) for _ in range(new)))


def mixed_singles(state: GameState, seat: SeatState, tops: dict[str, int], closed: set[str]
                   ) -> dict[str, list[Card]]:
    """For each type, the hand cards that can go on (or start) its pile alone.

    With Stepping Stones, jumps are left out: a mixed play of singles then
    never needs the one allowed jump twice.
    """
    out: dict[str, list[Card]] = {}
    for c in seat.hand:
        if placeable(tops, closed, c, 0):
            out.setdefault(CARD_TYPE[c], []).append(c)
    return out


def end_of_turn(s: SeatState, seat: int, worst_first: list[Card]) -> Command:
    """The end of the turn (RULES §5.1): discard the first cards of
    ``worst_first`` down to the hand limit, else end the turn."""
    excess = len(s.hand) - HAND_LIMIT
    if excess > 0:
        return cmd.DiscardToLimit(seat, tuple(worst_first[:excess]))
    return cmd.EndTurn(seat)


def chain_gain(top: int | None, n: int, cards: tuple[Card, ...]) -> float:
    """Points a same-type play adds (top × cards), plus a little per card."""
    new_top = CARD_VALUE[cards[-1]]
    before = 0 if top is None else top * n
    return new_top * (n + len(cards)) - before + 0.6 * len(cards)


def columns_by_want(state: GameState, tops: dict[str, int], closed: set[str]) -> list[str]:
    """The display's columns (RULES §2.2), the one whose cards the seat wants
    most (by ``keep_value``) first."""
    cols = state.columns()
    value = {t: 0.0 for t in cols}
    for c in state.display:
        value[CARD_TYPE[c]] += keep_value(tops, closed, c)
    return sorted(cols, key=lambda t: -value[t])
