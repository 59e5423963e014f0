"""A random legal command without listing them all (ARCHITECTURE "The engine").

``sample_command(state, seat, rng)`` first picks a kind of command uniformly
among the kinds legal now (the classes ``legal_commands`` would list:
``Reveal``, ``Collect``, ``Play``, ``ActivateObjective``, ``Pass``,
``Exchange``, ``UseLandscape``, ``DiscardToLimit``, ``EndTurn`` or
``DraftPick``), then builds one command of that kind at random:

* a play is same-type or mixed (even odds when both exist); a same-type
  play grows a chain from one card that fits alone, card by card; a mixed
  play takes 2 or more types, one card that fits alone from each (at most
  one needing the Stepping Stones jump), and random sides for new piles;
* a landscape is one of the usable ones, with random arguments.

The distribution is not uniform over ``legal_commands``, but every command
``legal_commands`` lists (up to the equivalence described in legal.py) has
a chance, and every command returned is accepted by ``decide`` and equivalent
to a listed one (tests/engine/test_fast_paths.py checks both).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

from . import commands as cmd
from .cards import CARD_TYPE, CARD_VALUE, Card
from .placement import row_tops, stones_jump
from .legal import placeable
from .rules_data import (
    EXCHANGE_DISCARD, HAND_LIMIT, LANDSCAPES,
    MAX_VALUE, MIDDAY, OBJECTIVE_COST, REVEAL_COST, SAME_TYPE_MAX,
)
from .state import DRAFT, PLAY, GameState, SeatState

SIDES = (cmd.LEFT, cmd.RIGHT)
T = TypeVar("T")
# Powers that need nothing but an acorn (midday ones only before the main action).
_PLAIN_POWERS = frozenset(("spring", "pier", "pine", "festival"))


def sample_command(state: GameState, seat: int, rng: random.Random) -> cmd.Command:
    """A random legal command for ``seat``, the seat to move (see the module note).

    Raises ``ValueError`` when ``seat`` has no command: it is not its turn,
    or the game is being set up or is over.
    """
    if state.current != seat or state.phase != PLAY:
        if state.current == seat and state.phase == DRAFT:
            return cmd.DraftPick(seat, _pick(state.draft_remaining, rng))
        raise ValueError(f"seat {seat} has no legal command now")
    turn = state.turn
    if turn.revealed:
        return _collect(state, seat, rng)
    s = state.seats[seat]
    hand = s.hand
    kinds: list[type] = []
    if turn.limit_discarded:  # the end of the turn has begun (RULES §5.1): nothing else follows
        if len(hand) > HAND_LIMIT:
            return cmd.DiscardToLimit(seat, tuple(rng.sample(hand, len(hand) - HAND_LIMIT)))
        return cmd.EndTurn(seat)
    if not turn.main_done:
        boost = turn.boost
        if s.acorns >= (0 if boost == "waterfall" else REVEAL_COST) and state.deck_pos < len(state.deck):
            kinds.append(cmd.Reveal)
        if state.display:
            kinds.append(cmd.Collect)
        tops, closed = row_tops(s)
        jump = stones_jump(state)
        for c in hand:
            if placeable(tops, closed, c, jump_step=jump):
                kinds.append(cmd.Play)
                break
        if s.acorns >= _objective_cost(state) and len(state.owners) < len(state.objectives):
            kinds.append(cmd.ActivateObjective)
        if not kinds:
            kinds.append(cmd.Pass)
    if not turn.exchanged and len(hand) >= EXCHANGE_DISCARD:
        kinds.append(cmd.Exchange)
    if turn.landscape is None and s.acorns >= state.rules.cheapest_landscape:
        landscapes = _usable_landscapes(state, s)
        if landscapes:
            kinds.append(cmd.UseLandscape)
    if turn.main_done:
        kinds.append(cmd.DiscardToLimit if len(hand) > HAND_LIMIT else cmd.EndTurn)

    kind = _pick(kinds, rng)
    if kind is cmd.Collect:
        return _collect(state, seat, rng)
    if kind is cmd.Exchange:
        return cmd.Exchange(seat, _two_cards(hand, rng))
    if kind is cmd.Play:
        return _play(state, seat, s, tops, closed, rng)
    if kind is cmd.UseLandscape:
        return _landscape(state, seat, s, _pick(landscapes, rng), rng)
    if kind is cmd.ActivateObjective:
        return cmd.ActivateObjective(seat, _pick(_open_objectives(state), rng))
    if kind is cmd.DiscardToLimit:
        return cmd.DiscardToLimit(seat, tuple(rng.sample(hand, len(hand) - HAND_LIMIT)))
    if kind is cmd.Reveal:
        return cmd.Reveal(seat)
    if kind is cmd.Pass:
        return cmd.Pass(seat)
    return cmd.EndTurn(seat)


def _pick(seq: Sequence[T], rng: random.Random) -> T:
    """A random item of ``seq`` (``rng.choice``, a little faster)."""
    return seq[int(rng.random() * len(seq))]


def _two_cards(hand: list[Card], rng: random.Random) -> tuple[Card, Card]:
    """Two different cards of ``hand`` (``rng.sample(hand, 2)``, faster)."""
    i = int(rng.random() * len(hand))
    j = int(rng.random() * (len(hand) - 1))
    return hand[i], hand[j + (j >= i)]


def _objective_cost(state: GameState) -> int:
    return state.rules.pagoda_objective_cost if state.turn.boost == "pagoda" else OBJECTIVE_COST


def _open_objectives(state: GameState) -> list[str]:
    return [o for o in state.objectives if o not in state.owners]


def _collect(state: GameState, seat: int, rng: random.Random) -> cmd.Collect:
    """One column (two with the Tea House), in display type order (RULES §4.1)."""
    columns = state.columns()
    if state.turn.boost != "teahouse":
        return cmd.Collect(seat, (_pick(columns, rng),))
    chosen = rng.sample(columns, min(state.rules.teahouse_columns, len(columns)))
    return cmd.Collect(seat, tuple(t for t in columns if t in chosen))


# ---------------------------------------------------------------------- plays


def _play(state: GameState, seat: int, s: SeatState, tops: dict[str, int], closed: set[str],
          rng: random.Random) -> cmd.Play:
    """A same-type or a mixed play (RULES §4.2); at least one card fits alone."""
    boost = state.turn.boost
    jump = stones_jump(state)
    # For each type: the hand cards that fit alone without a jump, and those
    # that fit only with the Stepping Stones jump.
    plain: dict[str, list[Card]] = {}
    jumping: dict[str, list[Card]] = {}
    for c in s.hand:
        if placeable(tops, closed, c, jump_step=0):
            plain.setdefault(CARD_TYPE[c], []).append(c)
        elif jump and placeable(tops, closed, c, jump_step=jump):
            jumping.setdefault(CARD_TYPE[c], []).append(c)
    mixed = _mixed(seat, tops, plain, jumping, rng) if (len(plain) >= 2 or (plain and jumping)) else None
    if mixed is not None and rng.random() < 0.5:
        return mixed
    limit = state.rules.bridge_same_type_max if boost == "bridge" else SAME_TYPE_MAX
    t = _pick([*plain, *(x for x in jumping if x not in plain)], rng)
    return _same_type(seat, s, t, tops, jump, limit, rng)


def _same_type(seat: int, s: SeatState, t: str, tops: dict[str, int], jump: int, limit: int,
               rng: random.Random) -> cmd.Play:
    """A chain of ``t`` cards: one that fits alone, then (at even odds each)
    cards that fit on the card before, up to ``limit`` or a closing 3."""
    rest = [c for c in s.hand if CARD_TYPE[c] == t]
    top = tops.get(t)
    chain: list[Card] = []
    jumped = False
    while len(chain) < limit and (top is None or top < MAX_VALUE):  # a 3 closes the pile
        fits = []
        for c in rest:
            v = CARD_VALUE[c]
            if top is None:
                if v == 0:
                    fits.append(c)
            elif 0 <= v - top <= 1 or (not jumped and 0 < v - top <= jump):
                fits.append(c)
        if not fits or (chain and rng.random() < 0.5):
            break
        c = _pick(fits, rng)
        if top is not None and CARD_VALUE[c] - top > 1:
            jumped = True
        chain.append(c)
        rest.remove(c)
        top = CARD_VALUE[c]
    chain.sort(key=lambda c: (CARD_VALUE[c], c))
    sides = (_pick(SIDES, rng),) if t not in tops else ()
    return cmd.Play(seat, tuple(chain), sides)


def _mixed(seat: int, tops: dict[str, int], plain: dict[str, list[Card]],
           jumping: dict[str, list[Card]], rng: random.Random) -> cmd.Play | None:
    """2 or more types, one card each that fits alone, at most one jump;
    cards on existing piles first, then the new piles in random order and
    sides. None when no mixed play exists."""
    only_jump = [t for t in jumping if t not in plain]
    pool = list(plain)
    if only_jump:
        pool.append(_pick(only_jump, rng))
    if len(pool) < 2:
        return None
    chosen_types = rng.sample(pool, rng.randint(2, len(pool)))
    jump_free = bool(jumping)
    cards: list[Card] = []
    for t in sorted(chosen_types, key=lambda t: t in plain):  # a jump-only type first
        options = plain.get(t, []) + (jumping.get(t, []) if jump_free else [])
        c = _pick(options, rng)
        if c not in plain.get(t, ()):
            jump_free = False
        cards.append(c)
    old = [c for c in cards if CARD_TYPE[c] in tops]
    new = [c for c in cards if CARD_TYPE[c] not in tops]
    rng.shuffle(new)
    return cmd.Play(seat, tuple(old + new), tuple(_pick(SIDES, rng) for _ in new))


# ----------------------------------------------------------------- landscapes


def _usable_landscapes(state: GameState, s: SeatState) -> list[str]:
    """The seat's unused landscapes it may use now (RULES §4.5, §1.5); the
    caller checks the one-landscape-per-turn limit."""
    out = []
    for lid in s.panorama:
        if lid in s.used or s.acorns < state.rules.landscape_cost(lid):
            continue
        if LANDSCAPES[lid][0] == MIDDAY:
            ok = not state.turn.main_done
        elif lid in _PLAIN_POWERS:
            ok = True
        elif lid == "bamboo":
            ok = state.deck_size > 0
        elif lid == "lantern":
            ok = bool(state.display)
        elif lid == "terrace":
            ok = bool(state.discard)
        elif lid == "bell":
            ok = bool(s.hand) and bool(state.display)
        elif lid == "koi":
            ok = bool(s.hand) and state.deck_size > 0
        elif lid == "crane":
            ok = bool(_crane_cards(s))
        elif lid == "fox":
            ok = bool(s.hand)
        elif lid == "moongate":
            ok = s.acorns >= state.rules.landscape_cost(lid) + _objective_cost(state) and bool(_open_objectives(state))
        else:  # pragma: no cover - every landscape is handled above
            ok = False
        if ok:
            out.append(lid)
    return out


def _crane_cards(s: SeatState) -> list[Card]:
    """Hand cards that fit on an existing pile without a jump (Crane Island)."""
    tops, closed = row_tops(s)
    return [c for c in s.hand if CARD_TYPE[c] in tops and placeable(tops, closed, c, jump_step=0)]


def _landscape(state: GameState, seat: int, s: SeatState, lid: str, rng: random.Random) -> cmd.UseLandscape:
    hand = s.hand
    if lid == "lantern":
        return cmd.UseLandscape(seat, lid, card=_pick(state.display, rng))
    if lid == "terrace":
        return cmd.UseLandscape(seat, lid, card=_pick(state.discard, rng))
    if lid == "bell":
        return cmd.UseLandscape(seat, lid, hand_cards=(_pick(hand, rng),), card=_pick(state.display, rng))
    if lid == "koi":
        n = rng.randint(1, min(state.rules.koi_max, len(hand)))
        return cmd.UseLandscape(seat, lid, hand_cards=tuple(rng.sample(hand, n)))
    if lid == "fox":
        n = rng.randint(1, len(hand))
        return cmd.UseLandscape(seat, lid, hand_cards=tuple(rng.sample(hand, n)))
    if lid == "crane":
        return cmd.UseLandscape(seat, lid, hand_cards=(_pick(_crane_cards(s), rng),))
    if lid == "moongate":
        return cmd.UseLandscape(seat, lid, objective=_pick(_open_objectives(state), rng))
    return cmd.UseLandscape(seat, lid)
