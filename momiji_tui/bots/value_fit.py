"""Fitting ``learned_value``: self-play positions with their outcomes, and
ridge least squares in plain Python.

``game_positions`` plays one seeded, drafted game of Normal bots (RULES
§2.1 draft, then play to the end, RULES §3–§7) and gives, at the start of
every turn of the play phase, each seat's ``learned_value.features`` (the
true state: the leaves of Hard's search are determinized full worlds) and
``evaluate.seat_value`` (for comparison), with every seat's final score.
``fit`` solves ridge least squares for the coefficients; ``holdout_report``
compares the fit with ``seat_value`` as a predictor of the final score on
games left out of the fit.

Pure: no files, no clock; the same arguments give the same positions.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ..engine import create_game, fold, run, score, view
from ..engine.state import PLAY
from . import make_bot
from .evaluate import StateContext, seat_value
from .hard import HARD_WEIGHTS
from .learned_value import features
from .tournament import bot_seed


@dataclass(frozen=True, slots=True)
class Position:
    """The start of one turn of a finished game: ``x`` each seat's features,
    ``sv`` each seat's ``seat_value``, ``final`` each seat's final total
    (RULES §7); ``seats``/``game``/``turn``: where it came from."""

    seats: int
    game: int
    turn: int
    x: list[list[float]]
    sv: list[float]
    final: list[float]


def game_positions(seats: int, game: int, seed: int) -> Iterator[Position]:
    """Play game ``game`` of the run ``seed`` (deal ``seed * 100000 + game``,
    drafted; Normal bots seeded by ``tournament.bot_seed``) and yield a
    ``Position`` at the start of each turn of its play phase."""
    deal = seed * 100000 + game
    bots = [make_bot("normal", bot_seed(seed, game, s)) for s in range(seats)]
    state = fold(create_game([f"normal#{s}" for s in range(seats)], seed=deal, game_id=f"vf{deal}",
                             landscape_mode="draft"))
    starts: list[tuple[list[list[float]], list[float]]] = []
    last: tuple[int, int] | None = None
    while state.phase != "ended":
        seat = state.current
        if state.phase == PLAY and (state.round, seat) != last and not state.turn.main_done:
            last = (state.round, seat)
            ctx = StateContext(state)
            starts.append(([features(state, i, HARD_WEIGHTS, ctx) for i in range(seats)],
                           [seat_value(state, i, w=HARD_WEIGHTS, ctx=ctx) for i in range(seats)]))
        state, _ = run(state, bots[seat].choose(view(state, seat)))
    final = [float(s.total) for s in score(state).seats]
    for k, (x, sv) in enumerate(starts):
        yield Position(seats, game, k, x, sv, final)


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """The solution of the square system ``a · x = b`` (Gaussian elimination
    with partial pivoting). Raises ``ZeroDivisionError`` if ``a`` is singular."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        piv = m[c][c]
        for r in range(c + 1, n):
            f = m[r][c] / piv
            if f:
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][k] * x[k] for k in range(r + 1, n))) / m[r][r]
    return x


def fit(rows: Sequence[Sequence[float]], targets: Sequence[float], ridge: float = 1.0) -> list[float]:
    """Coefficients minimizing sum (row · k - target)² + ridge · |k|² (every
    row the same length). Raises ``ValueError`` without rows."""
    if not rows:
        raise ValueError("no positions to fit")
    d = len(rows[0])
    xtx = [[0.0] * d for _ in range(d)]
    xty = [0.0] * d
    for row, t in zip(rows, targets, strict=True):
        for i in range(d):
            ri = row[i]
            if ri:
                xty[i] += ri * t
                xi = xtx[i]
                for j in range(d):
                    xi[j] += ri * row[j]
    for i in range(d):
        xtx[i][i] += ridge
    return _solve(xtx, xty)


def _r2(pred: Sequence[float], y: Sequence[float]) -> tuple[float, float]:
    """(R², RMSE) of ``pred`` against ``y`` (R² is NaN when ``y`` is constant)."""
    mean = sum(y) / len(y)
    ss = sum((p - t) ** 2 for p, t in zip(pred, y, strict=True))
    tot = sum((t - mean) ** 2 for t in y)
    return (1.0 - ss / tot if tot else math.nan), math.sqrt(ss / len(y))


def _winner_hits(values: Sequence[Sequence[float]], finals: Sequence[Sequence[float]]) -> float:
    """The share of positions whose highest value is a seat with the highest final score."""
    hits = 0
    for v, f in zip(values, finals, strict=True):
        top = max(f)
        hits += f[max(range(len(v)), key=v.__getitem__)] == top
    return hits / len(values)


def _pairs(p: Position) -> Iterator[tuple[int, int]]:
    """Every pair of seats ``i < j`` of ``p``'s table."""
    for i in range(p.seats):
        for j in range(i + 1, p.seats):
            yield i, j


def fit_positions(positions: Sequence[Position], ridge: float = 1.0) -> list[float]:
    """Coefficients for ``learned_value.FEATURES`` fitted on ``positions``.

    What the leaf of Hard's search uses is a *difference* of seat values, so
    every coefficient but the two constant ones (``one``, ``one*time``) is
    fitted on the seats' pairwise differences (features of seat i minus seat
    j against final score of i minus j, ridge ``ridge``); the constant ones
    then fit what is left of each seat's final score, so a value is still a
    final score in points. Raises ``ValueError`` without positions."""
    d = len(positions[0].x[0]) if positions else 0
    consts = [d // 2 - 1, d - 1]  # "one" and "one*time"
    rows = [[a - b for a, b in zip(p.x[i], p.x[j], strict=True)] for p in positions for i, j in _pairs(p)]
    targets = [p.final[i] - p.final[j] for p in positions for i, j in _pairs(p)]
    k = fit(rows, targets, ridge)
    rest = [(x, f - sum(a * b for a, b in zip(k, x, strict=True))) for p in positions
            for x, f in zip(p.x, p.final, strict=True)]
    c = fit([[x[m] for m in consts] for x, _ in rest], [r for _, r in rest], 1e-6)
    for m, v in zip(consts, c, strict=True):
        k[m] = v
    return k


def holdout_report(positions: Sequence[Position], *, every: int = 5, ridge: float = 1.0) -> tuple[list[float], str]:
    """Fit (``fit_positions``) on the games whose number is not a multiple of
    ``every`` and compare on the others with ``seat_value``, as it is and
    rescaled (a + b · value, least squares on the same games): R² and RMSE
    of every seat's final score, R² of every pair of seats' difference of
    final scores (what the leaf uses), and how often the seat valued highest
    has the highest final score. Returns (the coefficients fitted on all
    games, the report's text)."""
    train = [p for p in positions if p.game % every]
    test = [p for p in positions if not p.game % every]
    k = fit_positions(train, ridge)
    ab = fit([[1.0, v] for p in train for v in p.sv], [f for p in train for f in p.final], 1e-6)
    y = [f for p in test for f in p.final]
    dy = [p.final[i] - p.final[j] for p in test for i, j in _pairs(p)]
    learned = [[sum(a * b for a, b in zip(k, x, strict=True)) for x in p.x] for p in test]
    lines = [f"train {len(train)} positions, test {len(test)} positions (games % {every} == 0)"]
    for name, vals in (("learned", learned), ("seat_value", [p.sv for p in test]),
                       ("seat_value a+b*v", [[ab[0] + ab[1] * v for v in p.sv] for p in test])):
        r2, rmse = _r2([v for vs in vals for v in vs], y)
        dr2, drmse = _r2([vs[i] - vs[j] for vs, p in zip(vals, test, strict=True) for i, j in _pairs(p)], dy)
        hits = _winner_hits(vals, [p.final for p in test])
        lines.append(f"{name:>18}: score R2 {r2:.3f} RMSE {rmse:.2f}; difference R2 {dr2:.3f} RMSE {drmse:.2f}; "
                     f"winner {hits:.3f}")
    return fit_positions(positions, ridge), "\n".join(lines)


__all__ = ["Position", "fit", "fit_positions", "game_positions", "holdout_report"]
