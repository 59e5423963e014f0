"""Normal: a greedy player that looks one turn ahead (ARCHITECTURE "Bots").

Each decision scores every legal command by the evaluation of the state it
leads to (``evaluate.relative_value``), in a world determinized from the
view. Commands whose outcome depends on hidden cards (a paid reveal, Bamboo
Grove, Koi Pond) are averaged over several sampled worlds; a reveal is worth
its best follow-up collect. Before the main action, free actions that change
what the main action can do (sunrise and midday landscapes, exchanges) are
scored by the best main action that follows them: that is its landscape
timing. The draft picks each landscape by its measured merit (``bots.draft``).
"""

from __future__ import annotations

import math

from ..engine import commands as cmd
from ..engine import run
from ..engine.commands import Command
from ..engine.errors import IllegalCommand
from ..engine.legal import legal_commands
from ..engine.rules_data import LANDSCAPES, MIDDAY, SUNRISE
from ..engine.state import GameState
from ..engine.view import PlayerView, determinize
from .base import check_view, decision_rng, world_and_legal
from .draft import draft_pick
from .evaluate import DEFAULT_WEIGHTS, Weights, relative_value
from .playout import prefilter

_RANDOM_OUTCOME = {"bamboo", "koi"}
MAIN = (cmd.Reveal, cmd.Collect, cmd.Play, cmd.ActivateObjective, cmd.Pass)


def after(state: GameState, command: Command) -> GameState:
    """The state after ``command`` (a fresh copy)."""
    return run(state, command)[0]


def is_random(c: Command) -> bool:
    """Whether the outcome of ``c`` depends on the hidden deck order."""
    return isinstance(c, cmd.Reveal) or (isinstance(c, cmd.UseLandscape) and c.landscape in _RANDOM_OUTCOME)


class NormalBot:
    """Greedy one-turn heuristic."""

    def __init__(self, seed: int = 0, name: str = "Normal", *, worlds: int = 6,
                 weights: Weights = DEFAULT_WEIGHTS, lookahead: int = 6) -> None:
        self.seed = seed
        self.name = name
        self.worlds = worlds
        self.weights = weights
        self.lookahead = lookahead

    def choose(self, view: PlayerView) -> Command:
        rng = decision_rng(view, self.seed, "normal")
        seat = check_view(view)
        world, legal = world_and_legal(view, rng)
        if len(legal) == 1:
            return legal[0]
        if view.phase == "draft":
            return draft_pick(legal, len(view.seats), rng)
        worlds = [world] + [determinize(view, rng) for _ in range(self.worlds - 1)]
        return self.best(worlds, prefilter(world, legal, seat, keep=6), seat)

    # ------------------------------------------------------------ scoring
    def value(self, state: GameState, seat: int) -> float:
        return relative_value(state, seat, self.weights)

    def command_value(self, worlds: list[GameState], c: Command, seat: int) -> float:
        """Mean value after ``c`` (over the worlds if its outcome is hidden);
        ``-inf`` if the engine refuses it (never expected: a guard only)."""
        use = worlds if is_random(c) else worlds[:1]
        total = 0.0
        try:
            for w in use:
                s = after(w, c)
                if s.turn.revealed:  # a reveal: its value is the best collect
                    total += max(self.value(after(s, k), seat) for k in legal_commands(s, seat))
                else:
                    total += self.value(s, seat)
        except IllegalCommand:
            return -math.inf
        return total / len(use)

    def best_main(self, worlds: list[GameState], seat: int) -> float:
        """Value of the best main action from the (shared) position of ``worlds``."""
        mains = [c for c in legal_commands(worlds[0], seat) if isinstance(c, MAIN)]
        if not mains:
            return self.value(worlds[0], seat)
        return max(self.command_value(worlds, c, seat) for c in mains)

    def scored(self, worlds: list[GameState], legal: list[Command], seat: int
               ) -> list[tuple[float, int, Command]]:
        """``(value, index, command)`` for the commands worth comparing now.

        Before the main action: every main action by its one-ply value, and
        the ``lookahead`` most promising free actions that can change the main
        action (sunrise and midday landscapes, exchanges, Moon Gate) by the
        best main action after them; other free actions wait until after the
        main action. After it: every command by its one-ply value, ending the
        turn by the value of the position as it is.
        """
        state = worlds[0]
        one = [(self.command_value(worlds, c, seat), i, c) for i, c in enumerate(legal)]
        if state.turn.revealed or state.turn.main_done:
            return one
        out = [x for x in one if isinstance(x[2], MAIN)]
        frees = [x for x in one if not isinstance(x[2], MAIN) and _before_main(x[2])]
        frees.sort(key=lambda x: (-x[0], x[1]))
        for _, i, c in frees[: self.lookahead]:
            nxt = [after(w, c) for w in (worlds if is_random(c) else worlds[:1])]
            if nxt[0].current != seat or nxt[0].turn.main_done:
                la = sum(self.value(s, seat) for s in nxt) / len(nxt)
            else:
                la = sum(self.best_main([s], seat) for s in nxt) / len(nxt)
            out.append((la, i, c))
        return out

    def best(self, worlds: list[GameState], legal: list[Command], seat: int) -> Command:
        state = worlds[0]
        scored = self.scored(worlds, legal, seat)
        key = lambda x: (x[0], -x[1])  # noqa: E731 - best value, then first listed
        if state.turn.revealed or state.turn.main_done:
            # After the main action: free actions versus ending the turn.
            base = self.value(state, seat)
            best_v, _, best_c = max(scored, key=key)
            ends = [x for x in scored if isinstance(x[2], (cmd.EndTurn, cmd.DiscardToLimit))]
            if ends:
                end_v, _, end_c = max(ends, key=key)
                if best_v <= max(end_v, base) + 0.05:
                    return end_c
            return best_c
        mains = [x for x in scored if isinstance(x[2], MAIN)]
        if not mains:  # pragma: no cover - a main action (or Pass) is always listed
            return legal[0]
        best_v, _, best_c = max(mains, key=key)
        frees = [x for x in scored if not isinstance(x[2], MAIN)]
        if frees:
            free_v, _, free_c = max(frees, key=key)
            if free_v > best_v + 0.05:
                return free_c
        return best_c


def _before_main(c: Command) -> bool:
    """Free actions worth considering before the main action."""
    if isinstance(c, cmd.Exchange):
        return True
    if isinstance(c, cmd.UseLandscape):
        return LANDSCAPES[c.landscape][0] in (SUNRISE, MIDDAY) or c.landscape == "moongate"
    return False


__all__ = ["NormalBot", "after", "is_random"]
