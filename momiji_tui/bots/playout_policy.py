"""The playout policies: a light greedy choice (``policy_command``) and a
stronger, dearer one that weighs a few candidates by ``evaluate.seat_value``
(``greedy_policy_command``, Hard's default). Both build one legal command
directly from the state of the seat to move.
"""

from __future__ import annotations

import random

from ..engine import commands as cmd
from ..engine import run
from ..engine.cards import CARD_TYPE, CARD_VALUE, Card
from ..engine.commands import Command
from ..engine.placement import row_tops
from ..engine.scoring import objective_measure
from ..engine.state import DRAFT, GameState
from .evaluate import DEFAULT_WEIGHTS, Weights, seat_value
from .playout_moves import (
    chain_gain, collect_command, columns_by_want, end_of_turn, keep_value, mixed_singles, objective_cost,
    play_command, reveal_cost, same_type_options,
)
from .playout_sampler import random_command


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
    tops, closed = row_tops(s)
    if turn.revealed:
        return collect_command(state, seat, columns_by_want(state, tops, closed))
    if turn.main_done:
        return end_of_turn(s, seat, sorted(s.hand, key=lambda c: (keep_value(tops, closed, c), c)))
    # objective it leads (RULES §4.3): worth 10 points
    if s.acorns >= objective_cost(state):
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
    for cards in same_type_options(state, s, tops, closed):
        t = CARD_TYPE[cards[0]]
        g = chain_gain(tops.get(t), sizes.get(t, 0), cards)
        if g > best_gain:
            best_gain, best_play = g, cards
    singles = mixed_singles(state, s, tops, closed)
    if len(singles) >= 2:
        mixed: list[Card] = []
        gain = 0.0
        for t, options in singles.items():
            c = max(options, key=lambda c: (CARD_VALUE[c], -c))
            mixed.append(c)
            gain += chain_gain(tops.get(t), sizes.get(t, 0), (c,))
        gain += 1.0  # acorn pairs are checked after a mixed play
        if gain > best_gain:
            best_gain, best_play = gain, tuple(mixed)
    want = columns_by_want(state, tops, closed)
    collect_value = 0.0
    if state.display:
        col = want[0]
        collect_value = sum(keep_value(tops, closed, c) for c in state.display if CARD_TYPE[c] == col)
    hand_n = len(s.hand)
    collect_value *= 0.9 if hand_n <= 4 else (0.6 if hand_n <= 7 else 0.2)
    if best_play is not None and best_gain >= collect_value:
        return play_command(seat, s, best_play, rng)
    if state.display and collect_value > 1.0:
        return collect_command(state, seat, want)
    if state.deck_size and s.acorns >= max(1, reveal_cost(state)) + (1 if state.display else 0):
        return cmd.Reveal(seat)
    if best_play is not None:
        return play_command(seat, s, best_play, rng)
    if state.display:
        return collect_command(state, seat, want)
    if state.deck_size and s.acorns >= reveal_cost(state):
        return cmd.Reveal(seat)
    if s.acorns >= objective_cost(state):
        open_objs = [o for o in state.objectives if o not in state.owners]
        if open_objs:
            return cmd.ActivateObjective(seat, rng.choice(open_objs))
    return cmd.Pass(seat)


def greedy_policy_command(state: GameState, seat: int, rng: random.Random, *, epsilon: float = 0.1,
                          weights: Weights | None = None) -> Command:
    """A stronger (and dearer) playout policy: the main action is the best of a
    few candidates (the best play per type, the best mixed play, each column,
    an objective it leads) by ``evaluate.seat_value`` of the seat itself;
    the rest as ``policy_command``."""
    w = weights or DEFAULT_WEIGHTS
    turn = state.turn
    if state.phase == DRAFT or turn.main_done or rng.random() < epsilon:
        return policy_command(state, seat, rng, epsilon=0.0 if state.phase != DRAFT else 1.0)
    s = state.seats[seat]
    tops, closed = row_tops(s)
    cands: list[Command] = []
    if turn.revealed:
        cands = [collect_command(state, seat, [t]) for t in state.columns()]
    else:
        sizes = {p.leaf_type: len(p.cards) for p in s.row}
        best_by_type: dict[str, tuple[float, tuple[Card, ...]]] = {}
        for cards in same_type_options(state, s, tops, closed):
            t = CARD_TYPE[cards[0]]
            g = chain_gain(tops.get(t), sizes.get(t, 0), cards)
            if g > best_by_type.get(t, (-1.0, ()))[0]:
                best_by_type[t] = (g, cards)
        cands += [play_command(seat, s, cards, rng) for _, cards in best_by_type.values()]
        singles = mixed_singles(state, s, tops, closed)
        if len(singles) >= 2:
            picks = tuple(max(cs, key=lambda c: (CARD_VALUE[c], -c)) for cs in singles.values())
            cands.append(play_command(seat, s, picks, rng))
        if state.display:
            cols = state.columns()
            want = min(state.rules.teahouse_columns, len(cols)) if turn.boost == "teahouse" else 1
            if want == 1:
                cands += [cmd.Collect(seat, (t,)) for t in cols]
            else:
                cands.append(collect_command(state, seat, columns_by_want(state, tops, closed)))
        if s.acorns >= objective_cost(state):
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
