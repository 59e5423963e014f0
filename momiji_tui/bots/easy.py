"""Easy: a random legal player with a little sense (ARCHITECTURE "Bots").

It takes its main action at random but prefers playing cards to collecting
them, never wastes an acorn on a landscape that would do nothing, skips the
free actions most of the time and ends its turn once the main action is done.
"""

from __future__ import annotations

import random

from ..engine import commands as cmd
from ..engine.cards import CARD_VALUE
from ..engine.commands import Command
from ..engine.state import GameState
from ..engine.view import PlayerView
from .base import decision_rng, world_and_legal

# Landscapes whose power can do nothing in some states (RULES §1.5).
_MIDDAY = {"bridge", "stones", "pagoda", "teahouse", "waterfall", "moss"}


def pointless_landscape(state: GameState, c: cmd.UseLandscape) -> bool:
    """Whether using ``c`` now would spend an acorn for (almost) nothing."""
    s = state.seats[c.seat]
    lid = c.landscape
    if lid == "pier":
        return not any(p.closed for p in s.row)
    if lid == "pine":
        return sum(1 for p in s.row if CARD_VALUE[p.cards[-1]] == 0) < 2
    if lid == "festival":
        return sum(1 for j, o in enumerate(state.seats) if j != c.seat and o.acorns >= 1) < 2
    if lid == "fox":
        return len(c.hand_cards) < 4
    return lid in _MIDDAY  # Easy does not plan its main action around a boost


class EasyBot:
    """Random legal moves with light sense."""

    def __init__(self, seed: int = 0, name: str = "Easy") -> None:
        self.seed = seed
        self.name = name

    def choose(self, view: PlayerView) -> Command:
        rng = decision_rng(view, self.seed, "easy")
        world, legal = world_and_legal(view, rng)
        return pick_easy(world, legal, rng)


def pick_easy(world: GameState, legal: list[Command], rng: random.Random) -> Command:
    """Easy's choice among ``legal`` (shared with the playout policy)."""
    if len(legal) == 1:
        return legal[0]
    if world.phase == "draft":
        return rng.choice(legal)
    plays: list[Command] = []
    collects: list[Command] = []
    objectives: list[Command] = []
    other_main: list[Command] = []
    frees: list[Command] = []
    ends: list[Command] = []
    for c in legal:
        match c:
            case cmd.Play():
                plays.append(c)
            case cmd.Collect():
                collects.append(c)
            case cmd.ActivateObjective():
                objectives.append(c)
            case cmd.Reveal() | cmd.Pass():
                other_main.append(c)
            case cmd.EndTurn() | cmd.DiscardToLimit():
                ends.append(c)
            case cmd.UseLandscape():
                if not pointless_landscape(world, c):
                    frees.append(c)
            case _:
                frees.append(c)
    if world.turn.revealed:
        return rng.choice(collects)
    if not world.turn.main_done:
        if frees and rng.random() < 0.15:
            return rng.choice(frees)
        r = rng.random()
        if plays and r < 0.6:
            return rng.choice(plays)
        if objectives and r < 0.7:
            return rng.choice(objectives)
        if collects:
            return rng.choice(collects)
        pool = plays or objectives or other_main
        return rng.choice(pool)
    if frees and rng.random() < 0.2:
        return rng.choice(frees)
    return rng.choice(ends)
