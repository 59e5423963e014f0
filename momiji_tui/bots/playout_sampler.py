"""The random legal-move sampler of the playouts: one random legal command
for the seat to move, built directly from the state (ARCHITECTURE "The engine":
without listing every mixed play). Every command it returns is accepted by
``decide`` (tests/bots/test_playout.py).
"""

from __future__ import annotations

import random

from ..engine import commands as cmd
from ..engine.commands import Command
from ..engine.legal import can_take_main_action
from ..engine.placement import row_tops
from ..engine.rules_data import EXCHANGE_DISCARD, HAND_LIMIT
from ..engine.state import DRAFT, GameState
from .playout_moves import (
    collect_command, end_of_turn, mixed_singles, objective_cost, play_command, reveal_cost,
    same_type_options,
)


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
        return collect_command(state, seat, [rng.choice(state.columns())])
    if turn.limit_discarded:  # the end of the turn has begun (RULES §5.1): no free action follows
        return end_of_turn(s, seat, sorted(s.hand, key=lambda c: rng.random()))
    tops, closed = row_tops(s)
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
        if state.deck_size and s.acorns >= reveal_cost(state):
            kinds.append("reveal")
        plays = same_type_options(state, s, tops, closed)
        singles = mixed_singles(state, s, tops, closed)
        if plays or len(singles) >= 2:
            kinds.append("play")
        open_objs = [o for o in state.objectives if o not in state.owners]
        if open_objs and s.acorns >= objective_cost(state):
            kinds.append("objective")
        if frees and rng.random() < 0.2:
            return rng.choice(frees)
        if not kinds:
            if can_take_main_action(state, seat):  # pragma: no cover - kinds cover every main action
                raise AssertionError("sampler missed a main action")
            return cmd.Pass(seat)
        kind = rng.choice(kinds)
        if kind == "collect":
            return collect_command(state, seat, [rng.choice(state.columns())])
        if kind == "reveal":
            return cmd.Reveal(seat)
        if kind == "objective":
            return cmd.ActivateObjective(seat, rng.choice(open_objs))
        if len(singles) >= 2 and (not plays or rng.random() < 0.4):
            types = list(singles)
            k = rng.randint(2, len(types))
            cards = tuple(rng.choice(singles[t]) for t in rng.sample(types, k))
            return play_command(seat, s, cards, rng)
        return play_command(seat, s, rng.choice(plays), rng)
    if frees and rng.random() < 0.1:
        return rng.choice(frees)
    excess = len(s.hand) - HAND_LIMIT
    if excess > 0:
        return cmd.DiscardToLimit(seat, tuple(rng.sample(s.hand, excess)))
    return cmd.EndTurn(seat)
