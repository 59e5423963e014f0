"""Hard: single-observer information-set MCTS (Cowling, Powley & Whitehouse
2012, "SO-ISMCTS") over determinizations of the bot's view.

Every iteration deals a fresh world consistent with the view
(``determinize``: cards seen collected stay in their hand, only unseen cards
are resampled), then walks the bot's tree of its own decisions in this turn
(free actions, main action, collect after a reveal, discards, end of turn).
A node's children are *commands*, so one tree serves every world; a child is
only eligible in the worlds where its command is legal, and UCB counts its
*availability* instead of the parent's visits (the subset-armed bandit of
SO-ISMCTS). From the leaf a greedy playout policy
(``playout.greedy_policy_command``: each main action the best of a few by
the evaluation) finishes the bot's turn and plays the other seats' turns
until the bot's turn comes back; the position is then scored as a
win-probability-like number from the bot's seat, from every seat's value by
``learned_value.learned_values`` (a linear fit of the final score on the
evaluation's parts, learned by self-play). When at most
``ENDGAME_TABLE_TURNS`` (12) turns of the table are left (RULES §6: 6 of the
bot's own at 2 seats, 3 at 4), playouts run to the end and score the real
result (RULES §7). The root commands are
compared on paired worlds: the k-th visit of each uses the same deal.

To keep the branching small, candidate commands at the bot's decisions are
the ``root_k`` best by Normal's one-ply evaluation (the whole legal list
would waste the budget on obviously bad moves). The budget is a number of
iterations (deterministic) or a time limit read from an injected clock.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from ..engine.commands import Command
from ..engine.errors import IllegalCommand
from ..engine.legal import legal_commands
from ..engine.state import ENDED, PLAY, GameState
from ..engine.view import PlayerView, determinize
from .base import check_view, decision_rng, world_and_legal
from .evaluate import Weights, all_values, best_collect_value, turns_left
from .draft import ranked_picks
from .learned_value import learned_values
from .normal import NormalBot, is_random
from .playout import greedy_policy_command, policy_command, prefilter, step

DEFAULT_ITERATIONS = 100
"""The play budget of ``make_bot("hard", seed)``: deterministic, and well
under a second per decision on a 2-core machine (docs/BOTS.md)."""

FULL_GAME = 10 ** 6
"""A playout horizon that never stops before the end of the game."""

ENDGAME_TABLE_TURNS = 12.0
"""Playouts run to the end of the game (RULES §6, §7) once the bot has at
most this many turns of the whole table left, i.e. ``12 / seats`` of its own
turns: 6 at 2 seats, 3 at 4 seats, which bounds a playout's length and so the
decision time (docs/BOTS.md, "How Hard was tuned")."""

HARD_WEIGHTS = Weights(landscape_option=2.0, play_share=0.7)
"""Hard's evaluation: unused landscapes and the share of turns spent playing
weigh more than in ``DEFAULT_WEIGHTS`` (each change won 53–54% of 400
Normal-vs-Normal games on its own and helped Hard vs Normal; docs/BOTS.md)."""


LEAVES: tuple[str, ...] = ("learned", "evaluate")
"""Hard's leaf values: ``learned_value.learned_values`` (fitted by
self-play; the default: stronger at 4 seats, the same at 2, docs/BOTS.md)
or ``evaluate.all_values`` (hand-built)."""


class _Node:
    __slots__ = ("children", "visits", "total", "win", "avail", "cands", "prior")

    def __init__(self) -> None:
        self.children: dict[Command, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.win = 0.0  # the sum of the playouts' win estimates (no baseline: see ``search``)
        self.avail = 0
        self.cands: list[Command] | None = None
        self.prior: dict[Command, float] = {}


class HardBot:
    """SO-ISMCTS with a determinized playout and an evaluation at the leaf.

    Budget: ``iterations`` (deterministic; ``DEFAULT_ITERATIONS`` when neither
    budget is given) or ``time_limit`` seconds read from ``clock`` (required
    with a time limit, else ``ValueError``). Search options, all measured in
    docs/BOTS.md: ``root_k``/``inner_k`` candidates kept at the root / inside
    the turn, within ``delta`` points of Normal's best; UCB ``exploration``
    and prior ``bias``; ``horizon`` (bot turns a playout reaches; 0: stop when
    its turn ends) and ``endgame`` (the bot's turns left at which playouts
    run to the end; ``None``: ``ENDGAME_TABLE_TURNS / seats``);
    ``greedy_self``/``greedy_opponents`` (greedy or cheap playout policy per
    side) and its ``epsilon`` of random moves; ``scale`` of the reward
    sigmoid (points); ``leaf_reward`` (``"best"``: the sigmoid of the margin
    over the best other seat; ``"product"``: the product over every other
    seat of the sigmoid of the margin over it, see ``leaf_win``);
    ``baseline`` (subtract the world's standing); ``paired``
    worlds from a pool of ``pool_size``; ``expand_turn``/``leaf_collect``
    (experiments, off); ``weights`` of the evaluation (``HARD_WEIGHTS``);
    ``leaf``: the value of a playout's leaf, one of ``LEAVES`` (default
    ``"learned"``; another raises ``ValueError``); ``end_scale``: when
    playouts run to the end, the tree's reward is sigma(final margin /
    ``end_scale``) from 0 rather than from the world's standing (``None``:
    as elsewhere), the returned estimates unchanged.
    ``choose(view)`` returns one legal command for ``view.seat``.
    """

    def __init__(self, seed: int = 0, name: str = "Hard", *, iterations: int | None = None,
                 time_limit: float | None = None, clock: Callable[[], float] | None = None,
                 root_k: int = 8, inner_k: int = 5, exploration: float = 0.5,
                 horizon: int = 1, scale: float = 8.0, epsilon: float = 0.1,
                 delta: float = 10.0, bias: float = 3.0, baseline: bool = True,
                 expand_turn: bool = False, leaf_collect: bool = False,
                 greedy_opponents: bool = True, greedy_self: bool = True, paired: bool = True,
                 pool_size: int = 64, endgame: float | None = None, weights: Weights | None = None,
                 leaf: str = "learned", leaf_reward: str = "best", end_scale: float | None = None) -> None:
        if leaf not in LEAVES:
            raise ValueError(f"unknown leaf value {leaf!r}: choose one of {', '.join(LEAVES)}")
        if leaf_reward not in LEAF_REWARDS:
            raise ValueError(f"unknown leaf_reward {leaf_reward!r}: choose one of {', '.join(LEAF_REWARDS)}")
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
        self.leaf_reward = leaf_reward
        self.end_scale = end_scale
        self.epsilon = epsilon
        weights = HARD_WEIGHTS if weights is None else weights
        self.weights = weights
        self.leaf = leaf
        self._values: Callable[[GameState, Weights], list[float]] = (
            learned_values if leaf == "learned" else all_values)
        self.delta = delta
        self.bias = bias
        self.baseline = baseline
        self.expand_turn = expand_turn
        self.leaf_collect = leaf_collect
        self.greedy_opponents = greedy_opponents
        self.paired = paired
        self.pool_size = pool_size
        self.endgame = endgame
        self.greedy_self = greedy_self
        self.normal = NormalBot(seed, weights=weights)
        self.last_iterations = 0

    # ------------------------------------------------------------------ API
    def choose(self, view: PlayerView) -> Command:
        return self.search(view, shortcut=True)[0][0]

    def search(self, view: PlayerView, *, include: Sequence[Command] = (),
               should_stop: Callable[[], bool] | None = None,
               shortcut: bool = False) -> list[tuple[Command, int, float]]:
        """The root commands searched for ``view.seat``, best first (by visits,
        then mean reward: the first is Hard's choice), each with its visits and
        its mean *win estimate*: the mean over the iterations that tried it of
        sigma(d / scale), d being the seat's value minus the best other seat's
        by ``evaluate.all_values`` at the playout's leaf (the real final
        scores, RULES §7, when the playout reached the end); an unvisited
        command gets that estimate for the view's sampled worlds as they are.
        In the draft (RULES §2.1) the offer is ranked by ``draft.ranked_picks``
        (a Thompson draw from each landscape's measured merit), each with 0
        visits and its measured win rate (the fair share plus its merit).

        ``include``: commands searched even if Normal's ranking would drop
        them (``ValueError`` if one is not legal for the seat);
        ``should_stop``: polled before each iteration, ``True`` ends the
        search with what it has; ``shortcut``: return at once (one entry, 0
        visits, win 0.5) when there is nothing to search (``choose``).
        Raises ``ValueError`` when ``view.seat`` is not to move (``check_view``).
        """
        clock = self.clock
        start = clock() if clock is not None else 0.0
        rng = decision_rng(view, self.seed, "hard")
        me = check_view(view)
        world, legal = world_and_legal(view, rng)
        self.last_iterations = 0
        extra = [c for c in include if c not in legal]
        if extra:
            raise ValueError(f"not a legal command for seat {me}: {extra[0]!r}")
        if shortcut and len(legal) == 1:
            return [(legal[0], 0, 0.5)]
        if view.phase != PLAY:
            seats = len(view.seats)
            return [(c, 0, 1.0 / seats + merit / 100.0) for c, merit in ranked_picks(legal, seats, rng)]
        # Near the end (RULES §6), playouts run to the final score (RULES §7).
        endgame = ENDGAME_TABLE_TURNS / len(view.seats) if self.endgame is None else self.endgame
        horizon = FULL_GAME if turns_left(world, me) <= endgame else self.horizon
        # Every playout then reaches the end: with ``end_scale`` the tree
        # optimizes the chance of winning rather than the margin.
        to_win = horizon == FULL_GAME and self.end_scale is not None
        worlds = [world] + [determinize(view, rng) for _ in range(3)]
        root = _Node()
        root_cands, root.prior = self._ranked(worlds, legal, me, self.root_k)
        for c in include:
            if c not in root_cands:
                root_cands.append(c)
                root.prior[c] = min(root.prior.values(), default=0.0)
        root.cands = root_cands
        if shortcut and len(root_cands) == 1:
            return [(root_cands[0], 0, 0.5)]
        pool: list[tuple[GameState, float, int]] = []
        it = 0
        while True:
            if self.iterations is not None and it >= self.iterations:
                break
            if self.time_limit is not None and clock is not None and it > 0 and clock() - start >= self.time_limit:
                break
            if should_stop is not None and should_stop():
                break
            if self.paired:
                # Common random numbers: the i-th visit of every root command
                # uses the same world and playout seed, so root commands are
                # compared on the same deals (a paired comparison).
                first = self._select(root, root_cands)
                child = root.children.get(first)
                k = (child.visits if child is not None else 0) % self.pool_size
                while len(pool) <= k:
                    w = determinize(view, rng)
                    pool.append((w, _diff(self._values(w, self.weights), me), rng.getrandbits(62)))
                w, base, seed = pool[k]
                self._iterate(root, w, me, random.Random(seed), horizon, base=base, first=first, to_win=to_win)
            else:
                self._iterate(root, determinize(view, rng), me, rng, horizon, to_win=to_win)
            it += 1
        self.last_iterations = it
        ranked = sorted(root_cands, key=lambda c: _rank(root.children.get(c)), reverse=True)
        now = 0.5
        if any(root.children.get(c) is None for c in ranked):
            now = sum(self._win(self._values(w, self.weights), me) for w in worlds) / len(worlds)
        out: list[tuple[Command, int, float]] = []
        for c in ranked:
            n = root.children.get(c)
            out.append((c, n.visits, n.win / n.visits) if n is not None and n.visits else (c, 0, now))
        return out

    # ------------------------------------------------------------- search
    def _ranked(self, worlds: list[GameState], legal: list[Command], me: int, k: int
                ) -> tuple[list[Command], dict[Command, float]]:
        """The (at most ``k``) commands worth searching, best first by Normal's
        evaluation (``NormalBot.scored``), keeping those within ``delta``
        points of the best; and each one's prior (its value behind the best,
        in reward units)."""
        legal = prefilter(worlds[0], legal, me)
        if len(legal) <= 1:
            return list(legal), {c: 0.0 for c in legal}
        scored = sorted(self.normal.scored(worlds, legal, me), key=lambda x: (-x[0], x[1]))
        scored = [x for x in scored if x[0] > -math.inf] or scored[:1]
        best = scored[0][0]
        kept = [(v, c) for v, _, c in scored[:k] if v >= best - self.delta]
        unit = 4.0 * self.scale  # a sigmoid of slope 1/(4·scale) near its centre
        return [c for _, c in kept], {c: (v - best) / unit for v, c in kept}

    def _candidates(self, node: _Node, state: GameState, me: int, fixed: bool) -> list[Command]:
        """The commands searched at a node of the bot's turn in this world."""
        if fixed and node.cands is not None:
            return node.cands
        legal = legal_commands(state, me)
        if state.turn.revealed:
            cands = legal  # the collect after a reveal: a handful of columns
        elif fixed:
            cands, node.prior = self._ranked([state], legal, me, self.inner_k)
        else:
            # after a hidden draw (bamboo, koi) the options differ by world: let the policy pick
            cands = [policy_command(state, me, random.Random(len(legal)), epsilon=0.0)]
        if fixed:
            node.cands = cands
        return cands

    def _select(self, node: _Node, cands: list[Command]) -> Command:
        """The first unexpanded candidate, else the best by UCB."""
        for c in cands:
            if c not in node.children:
                return c
        return max(cands, key=lambda a: self._ucb(node.children[a], node.prior.get(a, 0.0)))

    def _iterate(self, root: _Node, state: GameState, me: int, rng: random.Random, horizon: int,
                 base: float | None = None, first: Command | None = None, to_win: bool = False) -> None:
        if base is None:
            base = 0.0
            if self.baseline:  # this world's own standing: subtracted to cut the noise between worlds
                base = _diff(self._values(state, self.weights), me)
        root_cands = root.cands
        assert root_cands is not None, "choose() ranks the root before it iterates"
        node = root
        path = [root]
        fixed = True  # no hidden draw yet on this path: the bot's options are the same in every world
        while state.phase != ENDED and state.current == me:
            cands = root_cands if node is root else self._candidates(node, state, me, fixed)
            if node is not root and state.turn.revealed:
                fixed = False
            for c in cands:
                child = node.children.get(c)
                if child is not None:
                    child.avail += 1
            c = first if (node is root and first is not None) else self._select(node, cands)
            fresh = c not in node.children
            if fresh:
                child = _Node()
                child.avail = 1
                node.children[c] = child
            else:
                child = node.children[c]
            if is_random(c):
                fixed = False
            try:
                state = step(state, c)
            except IllegalCommand:  # pragma: no cover - a guard against an engine refusal
                if c in cands and len(cands) > 1:
                    cands.remove(c)
                    node.children.pop(c, None)
                return
            node = child
            path.append(node)
            if fresh and not self.expand_turn:
                break
        reward, win = self._playout(state, me, rng, horizon, base, to_win)
        for n in path:
            n.visits += 1
            n.total += reward
            n.win += win

    def _ucb(self, n: _Node, prior: float) -> float:
        return (n.total / n.visits + self.c * math.sqrt(math.log(max(1, n.avail)) / n.visits)
                + self.bias * prior / (n.visits + 1))

    def _win(self, values: list[float], me: int, base: float = 0.0) -> float:
        """The win estimate of seat ``me`` from every seat's value (points),
        its margins first lowered by ``base`` (``leaf_win``)."""
        return leaf_win(values, me, self.scale, self.leaf_reward, base)

    def _playout(self, state: GameState, me: int, rng: random.Random, horizon: int,
                 base: float = 0.0, to_win: bool = False) -> tuple[float, float]:
        """Finish the bot's turn by the policy, then play on until the bot's
        turn has come back ``horizon`` times (0: stop when its turn ends);
        score the leaf from the bot's seat: (the reward, relative to
        ``base``, or with ``to_win`` the final margin at ``end_scale`` from
        0; the win estimate, at ``scale`` without ``base``)."""
        eps = self.epsilon
        returns = 0
        guard = 0
        while state.phase != ENDED:
            seat = state.current
            if seat != me and horizon == 0:
                break
            try:
                if self.greedy_self if seat == me else self.greedy_opponents:
                    command = greedy_policy_command(state, seat, rng, epsilon=eps, weights=self.weights)
                else:
                    command = policy_command(state, seat, rng, epsilon=eps)
                state = step(state, command)
            except IllegalCommand:  # pragma: no cover - a guard against an engine refusal
                state = step(state, rng.choice(legal_commands(state, seat)))
            if state.current == me and seat != me:
                returns += 1
                if returns >= horizon:
                    break
            guard += 1
            if guard > 2000:  # pragma: no cover - turns always end
                break
        values = self._values(state, self.weights)
        if self.leaf_collect and state.phase != ENDED and state.current == me and not state.turn.main_done:
            values[me] = max(values[me], best_collect_value(state, me, self.weights))
        if to_win and self.end_scale is not None:
            return leaf_win(values, me, self.end_scale, self.leaf_reward), self._win(values, me)
        return self._win(values, me, base), self._win(values, me)


LEAF_REWARDS = ("best", "product")
"""The leaf rewards ``HardBot(leaf_reward=...)`` knows (``leaf_win``)."""


def leaf_win(values: Sequence[float], me: int, scale: float, reward: str = "best", base: float = 0.0) -> float:
    """A win-probability-like number in (0, 1) for seat ``me`` from every
    seat's value ``values`` (points: ``evaluate.all_values``, or the final
    scores of RULES §7), each margin ``values[me] - values[j]`` first lowered
    by ``base`` (points: the world's own standing, see ``HardBot``).

    ``"best"``: sigma((values[me] - max of the others - base) / scale), only
    the best other seat counts. ``"product"``: the product over every other
    seat j of sigma((values[me] - values[j] - base) / scale), the chance of
    beating each of them taken as independent, so that every opponent counts
    (a seat ahead of all others gets more than one ahead of all but one).
    At 2 seats the two are equal to the bit; at 4 seats neither was measured
    stronger (docs/BOTS.md, "Hard at 4 seats: the leaf reward"). Raises
    ``ValueError`` for another ``reward``."""
    mine = values[me]
    if reward == "best":
        return _sigmoid((mine - max(v for j, v in enumerate(values) if j != me) - base) / scale)
    if reward == "product":
        p = 1.0
        for j, v in enumerate(values):
            if j != me:
                p *= _sigmoid((mine - v - base) / scale)
        return p
    raise ValueError(f"unknown leaf_reward {reward!r}: choose one of {', '.join(LEAF_REWARDS)}")


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def _diff(values: list[float], me: int) -> float:
    """The seat's value minus the best other seat's."""
    return values[me] - max(v for j, v in enumerate(values) if j != me)


def _rank(n: _Node | None) -> tuple[int, float]:
    if n is None or n.visits == 0:
        return (0, 0.0)
    return (n.visits, n.total / n.visits)
