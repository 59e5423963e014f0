"""Fast move choice for simulations: a random legal-move sampler and a light
greedy policy, both without listing every legal command (DESIGN "The engine":
a way to pick a random legal move without listing every mixed play).

Both build one command directly from the state of the seat to move. Every
command they return is accepted by ``decide`` (tests/bots/test_playout.py
checks this over many states); ``step`` applies it in place.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ..engine import commands as cmd
from ..engine.cards import CARD_TYPE, CARD_VALUE, Card
from ..engine.commands import Command
from ..engine import run
from ..engine.legal import can_take_main_action
from ..engine.placement import stones_jump
from ..engine.rules_data import EXCHANGE_DISCARD, HAND_LIMIT, OBJECTIVE_COST, REVEAL_COST, SAME_TYPE_MAX
from ..engine.scoring import objective_measure
from ..engine.state import DRAFT, GameState, SeatState

if TYPE_CHECKING:
    from .evaluate import Weights

SIDES = (cmd.LEFT, cmd.RIGHT)


def step(state: GameState, command: Command) -> GameState:
    """The state after ``command`` (``engine.run``: one copy; ``state`` is
    left unchanged). Raises ``IllegalCommand`` when it is illegal."""
    return run(state, command)[0]


# ------------------------------------------------------------------ helpers


def _tops(seat: SeatState) -> tuple[dict[str, int], set[str]]:
    tops: dict[str, int] = {}
    closed: set[str] = set()
    for p in seat.row:
        tops[p.leaf_type] = CARD_VALUE[p.cards[-1]]
        if p.closed:
            closed.add(p.leaf_type)
    return tops, closed


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


def _objective_cost(state: GameState) -> int:
    return state.rules.pagoda_objective_cost if state.turn.boost == "pagoda" else OBJECTIVE_COST


def _reveal_cost(state: GameState) -> int:
    return 0 if state.turn.boost == "waterfall" else REVEAL_COST


def _collect_cmd(state: GameState, seat: int, types: list[str]) -> cmd.Collect:
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


def _placeable(tops: dict[str, int], closed: set[str], c: Card, jump: int) -> bool:
    t, v = CARD_TYPE[c], CARD_VALUE[c]
    if t in closed:
        return False
    top = tops.get(t)
    if top is None:
        return v == 0
    d = v - top
    return d in (0, 1) or 0 < d <= jump


def _same_type_options(state: GameState, seat: SeatState, tops: dict[str, int], closed: set[str]
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


def _play_cmd(seat: int, row_seat: SeatState, cards: tuple[Card, ...], rng: random.Random) -> cmd.Play:
    new = sum(1 for c in cards if row_seat.pile_of(CARD_TYPE[c]) is None)
    # a same-type play starts at most one pile; mixed plays one per new type
    if len({CARD_TYPE[c] for c in cards}) == 1:
        new = 1 if row_seat.pile_of(CARD_TYPE[cards[0]]) is None else 0
    return cmd.Play(seat, cards, tuple(rng.choice(SIDES) for _ in range(new)))


def _mixed_singles(state: GameState, seat: SeatState, tops: dict[str, int], closed: set[str]
                   ) -> dict[str, list[Card]]:
    """For each type, the hand cards that can go on (or start) its pile alone.

    With Stepping Stones, jumps are left out: a mixed play of singles then
    never needs the one allowed jump twice.
    """
    out: dict[str, list[Card]] = {}
    for c in seat.hand:
        if _placeable(tops, closed, c, 0):
            out.setdefault(CARD_TYPE[c], []).append(c)
    return out


# ------------------------------------------------------------------ sampler


def random_command(state: GameState, seat: int, rng: random.Random) -> Command:
    """A random legal command for ``seat`` (the seat to move), built directly.

    Main actions first pick a kind (collect, reveal, play, objective) at
    random among those possible, then an instance; free actions are
    exchanges and simple landscapes. Not uniform over ``legal_commands``,
    but every command it returns is legal.
    """
    if state.phase == DRAFT:
        return cmd.DraftPick(seat, rng.choice(state.draft_remaining))
    s = state.seats[seat]
    turn = state.turn
    if turn.revealed:
        return _collect_cmd(state, seat, [rng.choice(state.columns())])
    if turn.limit_discarded:  # the end of the turn has begun (RULES §5.1): no free action follows
        return _end_of_turn(s, seat, sorted(s.hand, key=lambda c: rng.random()))
    tops, closed = _tops(s)
    frees: list[Command] = []
    if not turn.exchanged and len(s.hand) >= EXCHANGE_DISCARD:
        a, b = rng.sample(s.hand, EXCHANGE_DISCARD)  # RULES §4.4: two cards
        frees.append(cmd.Exchange(seat, (a, b)))
    if turn.landscape is None and s.acorns >= state.rules.cheapest_landscape:
        for lid in s.panorama:
            if lid in s.used or s.acorns < state.rules.landscape_cost(lid):
                continue
            if (
                lid in ("spring", "pier", "pine", "festival")
                or (lid in ("bridge", "stones", "pagoda", "teahouse", "waterfall", "moss") and not turn.main_done)
                or (lid == "bamboo" and state.deck_size)
            ):
                frees.append(cmd.UseLandscape(seat, lid))
            elif lid == "lantern" and state.display:
                frees.append(cmd.UseLandscape(seat, lid, card=rng.choice(state.display)))
            elif lid == "terrace" and state.discard:
                frees.append(cmd.UseLandscape(seat, lid, card=rng.choice(state.discard)))
            elif lid == "fox" and s.hand:
                k = rng.randint(1, len(s.hand))
                frees.append(cmd.UseLandscape(seat, lid, hand_cards=tuple(rng.sample(s.hand, k))))
    if not turn.main_done:
        kinds: list[str] = []
        if state.display:
            kinds.append("collect")
        if state.deck_size and s.acorns >= _reveal_cost(state):
            kinds.append("reveal")
        plays = _same_type_options(state, s, tops, closed)
        singles = _mixed_singles(state, s, tops, closed)
        if plays or len(singles) >= 2:
            kinds.append("play")
        open_objs = [o for o in state.objectives if o not in state.owners]
        if open_objs and s.acorns >= _objective_cost(state):
            kinds.append("objective")
        if frees and rng.random() < 0.2:
            return rng.choice(frees)
        if not kinds:
            if can_take_main_action(state, seat):  # pragma: no cover - kinds cover every main action
                raise AssertionError("sampler missed a main action")
            return cmd.Pass(seat)
        kind = rng.choice(kinds)
        if kind == "collect":
            return _collect_cmd(state, seat, [rng.choice(state.columns())])
        if kind == "reveal":
            return cmd.Reveal(seat)
        if kind == "objective":
            return cmd.ActivateObjective(seat, rng.choice(open_objs))
        if len(singles) >= 2 and (not plays or rng.random() < 0.4):
            types = list(singles)
            k = rng.randint(2, len(types))
            cards = tuple(rng.choice(singles[t]) for t in rng.sample(types, k))
            return _play_cmd(seat, s, cards, rng)
        return _play_cmd(seat, s, rng.choice(plays), rng)
    if frees and rng.random() < 0.1:
        return rng.choice(frees)
    excess = len(s.hand) - HAND_LIMIT
    if excess > 0:
        return cmd.DiscardToLimit(seat, tuple(rng.sample(s.hand, excess)))
    return cmd.EndTurn(seat)


def _end_of_turn(s: SeatState, seat: int, worst_first: list[Card]) -> Command:
    """The end of the turn (RULES §5.1): discard the first cards of
    ``worst_first`` down to the hand limit, else end the turn."""
    excess = len(s.hand) - HAND_LIMIT
    if excess > 0:
        return cmd.DiscardToLimit(seat, tuple(worst_first[:excess]))
    return cmd.EndTurn(seat)


# ------------------------------------------------------------------ policy


def _chain_gain(top: int | None, n: int, cards: tuple[Card, ...]) -> float:
    """Points a same-type play adds (top × cards), plus a little per card."""
    new_top = CARD_VALUE[cards[-1]]
    before = 0 if top is None else top * n
    return new_top * (n + len(cards)) - before + 0.6 * len(cards)


def policy_command(state: GameState, seat: int, rng: random.Random, *, epsilon: float = 0.1) -> Command:
    """A light greedy choice for ``seat`` (the seat to move), cheap enough for
    playouts: play the best pile gain, or collect the column it wants most,
    activate an objective it leads, reveal when the display is poor; no free
    actions; discard its least wanted cards; end the turn. With probability
    ``epsilon`` it takes ``random_command`` instead."""
    if state.phase == DRAFT or rng.random() < epsilon:
        return random_command(state, seat, rng)
    s = state.seats[seat]
    turn = state.turn
    tops, closed = _tops(s)
    if turn.revealed:
        return _collect_cmd(state, seat, _columns_by_want(state, tops, closed))
    if turn.main_done:
        return _end_of_turn(s, seat, sorted(s.hand, key=lambda c: (keep_value(tops, closed, c), c)))
    # objective it leads (RULES §4.3): worth 10 points
    if s.acorns >= _objective_cost(state):
        for o in state.objectives:
            if o in state.owners:
                continue
            mine = objective_measure(o, s)
            leads = mine >= 1 and all(objective_measure(o, x) < mine for j, x in enumerate(state.seats) if j != seat)
            if leads and rng.random() < 0.6:
                return cmd.ActivateObjective(seat, o)
    # best play
    best_play: tuple[Card, ...] | None = None
    best_gain = 0.0
    sizes = {p.leaf_type: len(p.cards) for p in s.row}
    for cards in _same_type_options(state, s, tops, closed):
        t = CARD_TYPE[cards[0]]
        g = _chain_gain(tops.get(t), sizes.get(t, 0), cards)
        if g > best_gain:
            best_gain, best_play = g, cards
    singles = _mixed_singles(state, s, tops, closed)
    if len(singles) >= 2:
        mixed: list[Card] = []
        gain = 0.0
        for t, options in singles.items():
            c = max(options, key=lambda c: (CARD_VALUE[c], -c))
            mixed.append(c)
            gain += _chain_gain(tops.get(t), sizes.get(t, 0), (c,))
        gain += 1.0  # acorn pairs are checked after a mixed play
        if gain > best_gain:
            best_gain, best_play = gain, tuple(mixed)
    want = _columns_by_want(state, tops, closed)
    collect_value = 0.0
    if state.display:
        col = want[0]
        collect_value = sum(keep_value(tops, closed, c) for c in state.display if CARD_TYPE[c] == col)
    hand_n = len(s.hand)
    collect_value *= 0.9 if hand_n <= 4 else (0.6 if hand_n <= 7 else 0.2)
    if best_play is not None and best_gain >= collect_value:
        return _play_cmd(seat, s, best_play, rng)
    if state.display and collect_value > 1.0:
        return _collect_cmd(state, seat, want)
    if state.deck_size and s.acorns >= max(1, _reveal_cost(state)) + (1 if state.display else 0):
        return cmd.Reveal(seat)
    if best_play is not None:
        return _play_cmd(seat, s, best_play, rng)
    if state.display:
        return _collect_cmd(state, seat, want)
    if state.deck_size and s.acorns >= _reveal_cost(state):
        return cmd.Reveal(seat)
    if s.acorns >= _objective_cost(state):
        open_objs = [o for o in state.objectives if o not in state.owners]
        if open_objs:
            return cmd.ActivateObjective(seat, rng.choice(open_objs))
    return cmd.Pass(seat)


def _columns_by_want(state: GameState, tops: dict[str, int], closed: set[str]) -> list[str]:
    cols = state.columns()
    value = {t: 0.0 for t in cols}
    for c in state.display:
        value[CARD_TYPE[c]] += keep_value(tops, closed, c)
    return sorted(cols, key=lambda t: -value[t])


# ------------------------------------------------------------------ pruning


def prefilter(state: GameState, legal: list[Command], seat: int, keep: int = 3) -> list[Command]:
    """``legal`` with its large families of free actions cut down to their
    ``keep`` most sensible members (by ``keep_value``): exchanges, Fox Shrine
    and Koi Pond discards, hand-limit discards, Temple Bell swaps, Stone
    Lantern and Rice Terrace picks. Plays, collects, objectives and the other
    commands all stay. Only reads the seat's own hand and public cards."""
    s = state.seats[seat]
    tops, closed = _tops(s)

    def kv(c: Card) -> float:
        return keep_value(tops, closed, c)

    families: dict[str, list[tuple[float, int, Command]]] = {}
    out: list[tuple[int, Command]] = []
    for i, c in enumerate(legal):
        match c:
            case cmd.Exchange(cards=cards):
                families.setdefault("exchange", []).append((sum(kv(x) for x in cards), i, c))
            case cmd.DiscardToLimit(cards=cards):
                families.setdefault("discard", []).append((sum(kv(x) for x in cards), i, c))
            case cmd.UseLandscape(landscape="fox", hand_cards=hand):
                score = sum(kv(x) for x in hand) - 1.2 * (len(hand) // 2)
                families.setdefault("fox", []).append((score, i, c))
            case cmd.UseLandscape(landscape="koi", hand_cards=hand):
                score = sum(kv(x) - 1.0 for x in hand)
                families.setdefault("koi", []).append((score, i, c))
            case cmd.UseLandscape(landscape="bell", hand_cards=hand, card=int() as card):
                families.setdefault("bell", []).append((kv(hand[0]) - kv(card), i, c))
            case cmd.UseLandscape(landscape="lantern" | "terrace" as lid, card=int() as card):
                families.setdefault(lid, []).append((-kv(card), i, c))
            case _:
                out.append((i, c))
    for members in families.values():
        members.sort(key=lambda x: (x[0], x[1]))
        out.extend((i, c) for _, i, c in members[:keep])
    out.sort(key=lambda x: x[0])
    return [c for _, c in out]


def greedy_policy_command(state: GameState, seat: int, rng: random.Random, *, epsilon: float = 0.1,
                          weights: Weights | None = None) -> Command:
    """A stronger (and dearer) playout policy: the main action is the best of a
    few candidates (the best play per type, the best mixed play, each column,
    an objective it leads) by ``evaluate.seat_value`` of the seat itself;
    the rest as ``policy_command``."""
    from .evaluate import DEFAULT_WEIGHTS, seat_value

    w = weights or DEFAULT_WEIGHTS
    turn = state.turn
    if state.phase == DRAFT or turn.main_done or rng.random() < epsilon:
        return policy_command(state, seat, rng, epsilon=0.0 if state.phase != DRAFT else 1.0)
    s = state.seats[seat]
    tops, closed = _tops(s)
    cands: list[Command] = []
    if turn.revealed:
        cands = [_collect_cmd(state, seat, [t]) for t in state.columns()]
    else:
        sizes = {p.leaf_type: len(p.cards) for p in s.row}
        best_by_type: dict[str, tuple[float, tuple[Card, ...]]] = {}
        for cards in _same_type_options(state, s, tops, closed):
            t = CARD_TYPE[cards[0]]
            g = _chain_gain(tops.get(t), sizes.get(t, 0), cards)
            if g > best_by_type.get(t, (-1.0, ()))[0]:
                best_by_type[t] = (g, cards)
        cands += [_play_cmd(seat, s, cards, rng) for _, cards in best_by_type.values()]
        singles = _mixed_singles(state, s, tops, closed)
        if len(singles) >= 2:
            picks = tuple(max(cs, key=lambda c: (CARD_VALUE[c], -c)) for cs in singles.values())
            cands.append(_play_cmd(seat, s, picks, rng))
        if state.display:
            cols = state.columns()
            want = min(state.rules.teahouse_columns, len(cols)) if turn.boost == "teahouse" else 1
            if want == 1:
                cands += [cmd.Collect(seat, (t,)) for t in cols]
            else:
                cands.append(_collect_cmd(state, seat, _columns_by_want(state, tops, closed)))
        if s.acorns >= _objective_cost(state):
            for o in state.objectives:
                if o not in state.owners:
                    mine = objective_measure(o, s)
                    others = (objective_measure(o, x) for j, x in enumerate(state.seats) if j != seat)
                    if mine >= 1 and all(m <= mine for m in others):
                        cands.append(cmd.ActivateObjective(seat, o))
        if not cands:
            return policy_command(state, seat, rng, epsilon=0.0)
    best_v, best_c = -1e9, cands[0]
    for c in cands:
        try:
            v = seat_value(run(state, c)[0], seat, w=w)
        except Exception:  # pragma: no cover - a guard: skip a refused candidate
            continue
        if v > best_v:
            best_v, best_c = v, c
    return best_c
