"""A leaf value learned by self-play: each seat's final score (RULES §7)
predicted as a linear function of the evaluation's parts.

``features`` takes the parts ``evaluate._seat_value`` adds up (the greedy
plan's total and its leftover cards, acorns, the objectives' expected
points, acorn pairs in the row, unused landscapes, the hand's size; RULES
§1.4, §4.2, §7) and the same parts times the time left, so each part's worth
can change from the start of the game to its end. ``learned_values`` is the
dot product with the fitted ``COEFFICIENTS`` of the seat count (2, or 3+ for
larger tables), for every seat; at the end of the game it is the real score.

The constants are fitted by ridge least squares on Normal self-play games
(every seat's features at the start of each turn, against its final score)
by ``value_fit``; to refit and print them:

    python -m momiji_tui.bots.value_fit_cli --seats 2 --games 1000 --seed 35 > v2.jsonl
    python -m momiji_tui.bots.value_fit_cli --seats 4 --games 146 --seed 35 > v4.jsonl
    python -m momiji_tui.bots.value_fit_cli --fit < v2.jsonl   # and v4.jsonl

Pure: no files; the same state gives the same floats.
"""

from __future__ import annotations

import math

from ..engine.rules_data import HAND_LIMIT, LANDSCAPES, MIDDAY, OBJECTIVE_OTHER_POINTS, OBJECTIVE_OWNER_POINTS
from ..engine.scoring import score
from ..engine.state import ENDED, GameState
from .evaluate import DEFAULT_WEIGHTS, Weights, StateContext, acorn_pairs_in_row, turns_left
from .plan import plan_outcome

BASE_FEATURES: tuple[str, ...] = (
    "plan", "leftover", "acorns", "objectives", "pairs", "landscapes", "hand", "turns", "one",
)
"""The parts of a seat's position, in the order ``features`` gives them
(each is followed, in ``FEATURES``, by its product with the time left)."""

FEATURES: tuple[str, ...] = BASE_FEATURES + tuple(f"{f}*time" for f in BASE_FEATURES)
"""Every feature's name, in order: the parts, then each part × time left."""


def features(state: GameState, i: int, w: Weights = DEFAULT_WEIGHTS, ctx: StateContext | None = None) -> list[float]:
    """Seat ``i``'s feature vector (``len(FEATURES)`` floats) in a state of
    the play phase (RULES §3–§6), counting its whole hand (a determinized
    world). ``w`` sets the plan's share of turns and growth as in
    ``evaluate.seat_value``. Raises ``IndexError`` for a seat not at the table."""
    if ctx is None:
        ctx = StateContext(state)
    s = state.seats[i]
    hand = s.hand[:HAND_LIMIT]
    turns = turns_left(state, i, w.burn)
    growth = w.growth * min(1.0, max(0.0, (turns - 1.0) / w.growth_turns))
    total, leftover = plan_outcome(s, hand, state.types, growth, ctx.dead, ctx.dead_key,
                                   math.ceil(w.play_share * turns))
    objectives = 0.0
    for o, probs in ctx.chances.items():
        objectives += (OBJECTIVE_OWNER_POINTS if state.owners[o] == i else OBJECTIVE_OTHER_POINTS) * probs[i]
    unused = sum(1.2 if LANDSCAPES[lid][0] == MIDDAY else 1.0 for lid in s.panorama if lid not in s.used)
    base = [total, leftover * min(1.0, turns / 3.0), float(s.acorns), objectives,
            acorn_pairs_in_row(s) * min(1.0, turns / 5.0), unused if turns > 0 else 0.0,
            float(len(s.hand)), turns, 1.0]
    tl = ctx.t_left
    return base + [x * tl for x in base]


# Fitted by ``value_fit.fit`` (see the module docstring); one per FEATURES entry.
COEFFICIENTS: dict[int, tuple[float, ...]] = {
    2: (1.241, 1.04, 1.01, 1.091, 0.2606, -0.4701, 0.5292, 4.138, -10.1,
        -0.4107, 0.1778, 0.02524, -0.05435, 2.434, 1.016, -0.9307, 2.759, -42.42),
    4: (1.226, 1.939, 1.151, 1.229, -2.409, -0.3327, -0.153, 3.228, 0.8591,
        -0.7217, -2.135, 0.3058, -0.3285, 8.308, 2.401, 1.501, 3.033, -61.61),
}


def coefficients(seats: int) -> tuple[float, ...]:
    """The fitted constants for a table of ``seats`` (3+ use the 4-seat fit)."""
    return COEFFICIENTS[2 if seats <= 2 else 4]


def learned_values(state: GameState, w: Weights = DEFAULT_WEIGHTS) -> list[float]:
    """Every seat's predicted final score (points, RULES §7), each seat's
    whole hand counted; the real totals once the game has ended."""
    if state.phase == ENDED:
        return [float(s.total) for s in score(state).seats]
    ctx = StateContext(state)
    k = coefficients(state.n_seats)
    return [sum(a * b for a, b in zip(k, features(state, i, w, ctx), strict=True)) for i in range(state.n_seats)]


__all__ = ["BASE_FEATURES", "COEFFICIENTS", "FEATURES", "coefficients", "features", "learned_values"]
