"""CI smoke tournaments: the ladder holds (Normal beats Easy, Hard beats Normal).

Fixed seeds and iteration budgets make these games deterministic (no wall
clock is read by the bots), so each assertion either always passes or always
fails for a given code version. The thresholds were chosen from measured data
(see the numbers below) and are high enough that two equally strong bots
would reach them with probability under 5% (one-sided binomial, p = 0.5),
so a pass is not luck. A change to the bots may shift these games; re-measure
with ``python -m momiji_tui.bots.tournament`` (docs/BOTS.md) before adjusting.
"""

from __future__ import annotations

from math import comb

import pytest

from momiji_tui.bots.tournament import run_tournament


def binomial_tail(n: int, k: int) -> float:
    """P(X >= k) for X ~ Binomial(n, 1/2)."""
    return sum(comb(n, i) for i in range(k, n + 1)) / 2 ** n


def test_thresholds_are_not_reachable_by_chance():
    assert binomial_tail(NORMAL_EASY_GAMES, NORMAL_EASY_MIN_WINS) < 0.05
    assert binomial_tail(HARD_NORMAL_GAMES, HARD_NORMAL_MIN_WINS) < 0.05


# Normal vs Easy, 16 games (8 deals x 2 seatings), draft, seed 0.
# Measured: Normal 16/16 wins, mean margin +44 points.
NORMAL_EASY_GAMES = 16
NORMAL_EASY_MIN_WINS = 13  # P(>= 13 of 16 | p = 0.5) = 0.011


def test_normal_beats_easy():
    r = run_tournament(["normal", "easy"], games=NORMAL_EASY_GAMES, seats=2, seed=0)
    normal = r.stats[0]
    assert normal.bot == "normal"
    assert normal.wins >= NORMAL_EASY_MIN_WINS, normal
    assert normal.margin_ci[0] > 0, normal


# Hard (iterations=HARD_ITERATIONS) vs Normal, draft, seed HARD_SEED.
# Measured: see HARD_NORMAL_MEASURED.
HARD_ITERATIONS = 40
HARD_SEED = 0
HARD_NORMAL_GAMES = 24
HARD_NORMAL_MIN_WINS = 17  # P(>= 17 of 24 | p = 0.5) = 0.032
HARD_NORMAL_MEASURED = "13 of 24 (2026-11-30): below the threshold, see the xfail"


@pytest.mark.xfail(strict=True, reason=(
    "Hard is not yet measurably stronger than Normal: at 40 iterations it won 13 of these 24 games "
    "(54%, Wilson 95% CI 35-72%). Strict: when Hard reaches the threshold this fails, and the "
    "marker must go."))
def test_hard_beats_normal():
    r = run_tournament(["hard", "normal"], games=HARD_NORMAL_GAMES, seats=2, seed=HARD_SEED,
                       budgets={"hard": {"iterations": HARD_ITERATIONS}})
    hard = r.stats[0]
    assert hard.bot == "hard"
    assert hard.wins >= HARD_NORMAL_MIN_WINS, hard
    assert hard.mean_margin > 0, hard
