"""Hard: single-observer information-set MCTS (Cowling, Powley & Whitehouse
2012, "SO-ISMCTS") over determinizations of the bot's view.

Every iteration deals a fresh world consistent with the view
(``determinize``: cards seen collected stay in their hand, only unseen cards
are resampled), then walks the bot's tree of its own decisions in this turn
(free actions, main action, collect after a reveal, discards, end of turn).
A node's children are *commands*, so one tree serves every world; a child is
only eligible in the worlds where its command is legal, and UCB counts its
*availability* instead of the parent's visits (the subset-armed bandit of
SO-ISMCTS). When the bot's turn ends, a cheap playout policy
(``playout.policy_command``) plays the other seats' turns and, by default,
the bot's next turn; the leaf is then scored by ``evaluate.all_values``
as a win-probability-like number from the bot's seat.

To keep the branching small, candidate commands at the bot's decisions are
the ``root_k`` best by Normal's one-ply evaluation (the whole legal list
would waste the budget on obviously bad moves). The budget is a number of
iterations (deterministic) or a time limit read from an injected clock.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from ..engine import commands as cmd
from ..engine.commands import Command
from ..engine.legal import legal_commands
from ..engine.state import ENDED, PLAY, GameState
from ..engine.view import PlayerView, determinize
from .base import decision_rng, world_and_legal
from .evaluate import DEFAULT_WEIGHTS, Weights, all_values
from .normal import NormalBot, draft_pick, is_random
from .playout import policy_command, prefilter, step

DEFAULT_ITERATIONS = 300


class _Node:
    __slots__ = ("children", "visits", "total", "avail", "cands")

    def __init__(self) -> None:
        self.children: dict[Command, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0
        self.cands: list[Command] | None = None


class HardBot:
    """SO-ISMCTS with a determinized playout and an evaluation at the leaf."""

    def __init__(self, seed: int = 0, name: str = "Hard", *, iterations: int | None = None,
                 time_limit: float | None = None, clock: Callable[[], float] | None = None,
                 root_k: int = 8, inner_k: int = 5, exploration: float = 0.5,
                 horizon: int = 2, scale: float = 8.0, epsilon: float = 0.1,
                 weights: Weights = DEFAULT_WEIGHTS) -> None:
        if time_limit is not None and clock is None:
            raise ValueError("a time limit needs a clock: pass clock=time.perf_counter")
        if iterations is None and time_limit is None:
            iterations = DEFAULT_ITERATIONS
        self.seed = seed
        self.name = name
        self.iterations = iterations
        self.time_limit = time_limit
        self.clock = clock
        self.root_k = root_k
        self.inner_k = inner_k
        self.c = exploration
        self.horizon = horizon
        self.scale = scale
        self.epsilon = epsilon
        self.weights = weights
        self.normal = NormalBot(seed, weights=weights)
        self.last_iterations = 0

    # ------------------------------------------------------------------ API
    def choose(self, view: PlayerView) -> Command:
        start = self.clock() if self.clock is not None else 0.0
        rng = decision_rng(view, self.seed, "hard")
        world, legal = world_and_legal(view, rng)
        self.last_iterations = 0
        if len(legal) == 1:
            return legal[0]
        if view.phase != PLAY:
            return draft_pick(legal)
        me = view.seat
        worlds = [world] + [determinize(view, rng) for _ in range(3)]
        root = _Node()
        root.cands = self._ranked(worlds, legal, me, self.root_k)
        if len(root.cands) == 1:
            return root.cands[0]
        it = 0
        while True:
            if self.iterations is not None and it >= self.iterations:
                break
            if self.time_limit is not None and it > 0 and self.clock() - start >= self.time_limit:
                break
            self._iterate(root, determinize(view, rng), me, rng)
            it += 1
        self.last_iterations = it
        best = max(root.cands, key=lambda c: _rank(root.children.get(c)))
        return best

    # ------------------------------------------------------------- search
    def _ranked(self, worlds: list[GameState], legal: list[Command], me: int, k: int) -> list[Command]:
        """The ``k`` best of ``legal`` by Normal's one-ply value, best first
        (ending the turn is always kept when it is legal)."""
        nb = self.normal
        legal = prefilter(worlds[0], legal, me)
        if len(legal) <= 1:
            return list(legal)
        scored = sorted(((nb.command_value(worlds, c, me), i, c) for i, c in enumerate(legal)),
                        key=lambda x: (-x[0], x[1]))
        out = [c for _, _, c in scored[:k]]
        for _, _, c in scored[k:]:
            if isinstance(c, (cmd.EndTurn, cmd.DiscardToLimit)) and not any(
                    isinstance(x, (cmd.EndTurn, cmd.DiscardToLimit)) for x in out):
                out.append(c)
        return out

    def _candidates(self, node: _Node, state: GameState, me: int, fixed: bool) -> list[Command]:
        """The commands searched at a node of the bot's turn in this world."""
        if fixed and node.cands is not None:
            return node.cands
        legal = legal_commands(state, me)
        if state.turn.revealed:
            cands = legal  # the collect after a reveal: a handful of columns
        elif fixed:
            cands = self._ranked([state], legal, me, self.inner_k)
        else:
            # after a hidden draw (bamboo, koi) the options differ by world: let the policy pick
            cands = [policy_command(state, me, random.Random(len(legal)), epsilon=0.0)]
        if fixed:
            node.cands = cands
        return cands

    def _iterate(self, root: _Node, state: GameState, me: int, rng: random.Random) -> None:
        node = root
        path = [root]
        fixed = True  # no hidden draw yet on this path: the bot's options are the same in every world
        while state.phase != ENDED and state.current == me:
            cands = root.cands if node is root else self._candidates(node, state, me, fixed)
            if node is not root and state.turn.revealed:
                fixed = False
            for c in cands:
                child = node.children.get(c)
                if child is not None:
                    child.avail += 1
            fresh = [c for c in cands if c not in node.children]
            if fresh:
                c = fresh[0]
                child = _Node()
                child.avail = 1
                node.children[c] = child
            else:
                c = max(cands, key=lambda a: self._ucb(node.children[a]))
                child = node.children[c]
            if is_random(c):
                fixed = False
            step(state, c)
            node = child
            path.append(node)
            if fresh:
                break
        reward = self._playout(state, me, rng)
        for n in path:
            n.visits += 1
            n.total += reward

    def _ucb(self, n: _Node) -> float:
        return n.total / n.visits + self.c * math.sqrt(math.log(max(1, n.avail)) / n.visits)

    def _playout(self, state: GameState, me: int, rng: random.Random) -> float:
        """Finish the bot's turn by the policy, then play on until the bot's
        turn has come back ``horizon`` times (0: stop when its turn ends);
        score the leaf from the bot's seat."""
        eps = self.epsilon
        returns = 0
        guard = 0
        while state.phase != ENDED:
            seat = state.current
            if seat != me and self.horizon == 0:
                break
            step(state, policy_command(state, seat, rng, epsilon=eps))
            if state.current == me and seat != me:
                returns += 1
                if returns >= self.horizon:
                    break
            guard += 1
            if guard > 2000:  # pragma: no cover - turns always end
                break
        values = all_values(state, self.weights)
        mine = values[me]
        best_other = max(v for j, v in enumerate(values) if j != me)
        return 1.0 / (1.0 + math.exp(-(mine - best_other) / self.scale))


def _rank(n: _Node | None) -> tuple[int, float]:
    if n is None or n.visits == 0:
        return (0, 0.0)
    return (n.visits, n.total / n.visits)
