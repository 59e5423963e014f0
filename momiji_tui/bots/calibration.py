"""The win chance, calibrated: Hard's raw estimate mapped to a frequency.

Hard's search scores a position by sigma(d / 8) of an estimated lead d
(``hard.HardBot.search``): a probability-like number, never checked against
results. Measured on positions of seeded bot games
(``calibration_games``; docs/BOTS.md, "Win chance calibration"), it is
mapped per seat count by isotonic regression: ``fit`` pools the positions,
sorted by raw estimate, into blocks whose observed win rates rise (pool
adjacent violators, then blocks of at least ``MIN_BLOCK`` positions);
``calibrated`` interpolates linearly between the blocks' (mean raw, win
rate) knots kept in ``CALIBRATION``. A monotone map: a higher raw estimate
never means a lower chance. The estimate's own noise (``noise``) says how
far two searches of the same position at a budget disagree; the hint rounds
to it and the review blames no smaller loss.

Pure: no files, no clock.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

Knots = tuple[tuple[float, float], ...]
"""``(raw, chance)`` points, raw increasing, chance not decreasing."""

CALIBRATED_LEAF = "evaluate"
"""The leaf value (``HardBot(leaf=...)``) of the searches whose raw
estimates the knots below were fitted on: the hint and the review search
with it, so that the calibration reads the numbers it was made from."""

CALIBRATION: dict[int, Knots] = {
    2: ((0.063, 0.038), (0.172, 0.159), (0.27, 0.25), (0.353, 0.316), (0.418, 0.344), (0.464, 0.434),
        (0.511, 0.473), (0.563, 0.52), (0.618, 0.625), (0.668, 0.651), (0.745, 0.726), (0.899, 0.906)),
    3: ((0.032, 0.0), (0.091, 0.031), (0.141, 0.081), (0.207, 0.105), (0.268, 0.149), (0.3, 0.176), (0.33, 0.22),
        (0.363, 0.27), (0.419, 0.315), (0.47, 0.355), (0.525, 0.383), (0.602, 0.425), (0.67, 0.54), (0.732, 0.69),
        (0.858, 0.895)),
    4: ((0.023, 0.0), (0.051, 0.009), (0.075, 0.01), (0.102, 0.039), (0.137, 0.044), (0.19, 0.082), (0.225, 0.091),
        (0.24, 0.114), (0.258, 0.125), (0.278, 0.137), (0.29, 0.161), (0.322, 0.165), (0.364, 0.184), (0.388, 0.207),
        (0.406, 0.226), (0.42, 0.25), (0.444, 0.258), (0.484, 0.276), (0.531, 0.364), (0.57, 0.455), (0.591, 0.464),
        (0.628, 0.559), (0.672, 0.651), (0.708, 0.692), (0.766, 0.753), (0.875, 0.932)),
}
"""The knots per seat count (RULES §2: 2–4 seats), fitted on the positions
of docs/BOTS.md, "Win chance calibration" (``fit``)."""

MIN_BLOCK = 82
"""The smallest block of ``fit``, in positions: a knot rests on at least
this many outcomes, however many positions there are (a count, not a share,
so that more positions give finer knots where the win rate rises fast)."""

LOWEST, HIGHEST = 0.01, 0.99
"""A calibrated chance is kept inside these: a handful of outcomes never
says "certain"."""

NOISE_AT_100 = 0.022
"""The standard deviation of a calibrated win chance between two searches of
the same position with different seeds at 100 iterations: the largest
measured (2 seats; 3 seats: 0.015; docs/BOTS.md, "Win chance calibration")."""

COST_NOISE_AT_100 = 0.028
"""The same for a review's cost (Hard's best minus the played command) at
100 iterations, over the positions where either search found a cost: the
largest measured (2 seats; 3 seats: 0.017)."""


def interpolate(knots: Knots, raw: float) -> float:
    """The chance at ``raw`` on the broken line through ``knots`` (flat
    beyond the first and last), kept inside ``LOWEST``..``HIGHEST``."""
    if raw <= knots[0][0]:
        y = knots[0][1]
    elif raw >= knots[-1][0]:
        y = knots[-1][1]
    else:
        y = knots[-1][1]
        for (x0, y0), (x1, y1) in itertools.pairwise(knots):
            if raw <= x1:
                y = y0 if x1 == x0 else y0 + (y1 - y0) * (raw - x0) / (x1 - x0)
                break
    return min(HIGHEST, max(LOWEST, y))


def calibrated(raw: float, seats: int) -> float:
    """The win chance (0..1) that Hard's ``raw`` estimate (0..1) means at a
    table of ``seats`` (a seat count outside ``CALIBRATION`` uses the
    nearest one's knots)."""
    key = min(CALIBRATION, key=lambda n: abs(n - seats))
    return interpolate(CALIBRATION[key], raw)


def fit(pairs: Sequence[tuple[float, float]], min_block: int = MIN_BLOCK) -> Knots:
    """Isotonic regression of outcomes on raw estimates: ``(raw, outcome)``
    pairs (outcomes 0..1, a shared win a fraction) sorted by raw, pooled
    into blocks whose mean outcomes strictly rise (pool adjacent
    violators), then each block of fewer than ``min_block`` pairs pooled
    with its neighbour (until one block is left); one knot per block: (mean raw, mean outcome),
    rounded to 3 decimals. ``ValueError`` for no pairs."""
    if not pairs:
        raise ValueError("no positions to fit")
    blocks: list[list[float]] = []  # [sum of raw, sum of outcomes, count]
    for x, y in sorted(pairs):
        blocks.append([x, y, 1])
        while len(blocks) > 1 and blocks[-2][1] / blocks[-2][2] >= blocks[-1][1] / blocks[-1][2]:
            last = blocks.pop()
            blocks[-1] = [a + b for a, b in zip(blocks[-1], last, strict=True)]
    least = min_block
    while len(blocks) > 1 and min(b[2] for b in blocks) < least:
        k = min(range(len(blocks)), key=lambda i: blocks[i][2])
        j = k + 1 if k == 0 or (k + 1 < len(blocks) and blocks[k + 1][2] < blocks[k - 1][2]) else k - 1
        lo, hi = min(j, k), max(j, k)
        blocks[lo:hi + 1] = [[a + b for a, b in zip(blocks[lo], blocks[hi], strict=True)]]
    return tuple((round(sx / n, 3), round(sy / n, 3)) for sx, sy, n in blocks)


def noise(iterations: int) -> float:
    """The calibrated win chance's standard deviation between searches at
    ``iterations`` (Monte Carlo noise: ``NOISE_AT_100 * sqrt(100 /
    iterations)``). Raises ``ValueError`` for fewer than 1 iteration."""
    if iterations < 1:
        raise ValueError("a search has at least 1 iteration")
    return NOISE_AT_100 * math.sqrt(100 / iterations)


def cost_noise(iterations: int) -> float:
    """A review cost's standard deviation between searches at ``iterations``
    (``COST_NOISE_AT_100`` scaled as in ``noise``)."""
    if iterations < 1:
        raise ValueError("a search has at least 1 iteration")
    return COST_NOISE_AT_100 * math.sqrt(100 / iterations)


def about(chance: float, iterations: int) -> int:
    """The chance in whole percent, rounded to a step that the noise at
    ``iterations`` allows: 5 points when the noise is under 5 points, else
    10 (``"about 60 %"``)."""
    step = 5 if noise(iterations) < 0.05 else 10
    return max(0, min(100, step * round(chance * 100 / step)))


# ------------------------------------------------------------ measuring


@dataclass(frozen=True, slots=True)
class Bin:
    """A tenth of the estimate: ``lo`` ≤ estimate < ``lo + 0.1`` (the last
    tenth includes 1.0); ``count`` positions; their mean ``estimate`` and
    mean outcome ``observed`` (0..1)."""

    lo: float
    count: int
    estimate: float
    observed: float


def tenths(pairs: Iterable[tuple[float, float]]) -> list[Bin]:
    """``(estimate, outcome)`` pairs (both 0..1) binned by tenths of the
    estimate; empty tenths are left out."""
    sums: dict[int, list[float]] = {}
    for p, y in pairs:
        k = min(9, max(0, int(p * 10)))
        s = sums.setdefault(k, [0, 0.0, 0.0])
        s[0] += 1
        s[1] += p
        s[2] += y
    return [Bin(k / 10, int(s[0]), s[1] / s[0], s[2] / s[0]) for k, s in sorted(sums.items())]


def brier(pairs: Iterable[tuple[float, float]]) -> float:
    """The mean of (estimate − outcome)²; ``ValueError`` for no pairs."""
    xs = [(p - y) ** 2 for p, y in pairs]
    if not xs:
        raise ValueError("no positions to score")
    return sum(xs) / len(xs)


class _Sample(Protocol):
    """A position (``calibration_games.Position``): seats, game, raw
    estimates (a second search's too, or None) and the outcome."""

    @property
    def seats(self) -> int: ...
    @property
    def game(self) -> int: ...
    @property
    def raw(self) -> float: ...
    @property
    def played(self) -> float: ...
    @property
    def won(self) -> float: ...
    @property
    def raw2(self) -> float | None: ...
    @property
    def played2(self) -> float | None: ...


def _cross_fitted(samples: Sequence[_Sample]) -> list[tuple[float, float]]:
    """Each sample's calibrated estimate and outcome, the knots fitted on
    the other half of the games (even games ↔ odd games)."""
    out = []
    for half in (0, 1):
        knots = fit([(s.raw, s.won) for s in samples if s.game % 2 != half])
        out += [(interpolate(knots, s.raw), s.won) for s in samples if s.game % 2 == half]
    return out


def _sd(diffs: Sequence[float]) -> float:
    """The standard deviation of one estimate from differences of two
    independent ones (sd(x1 − x2) / √2)."""
    return math.sqrt(sum(d * d for d in diffs) / len(diffs) / 2) if diffs else float("nan")


def _table(rows: list[Bin]) -> list[str]:
    lines = ["| tenth | positions | estimate | observed | gap |", "|---|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r.lo:.1f}–{r.lo + 0.1:.1f} | {r.count} | {r.estimate:.3f} | {r.observed:.3f} "
                     f"| {100 * (r.observed - r.estimate):+.1f} |")
    return lines


def report(samples: Sequence[_Sample]) -> str:
    """The calibration report in Markdown: per seat count, the tenths of the
    raw estimate, of the calibrated one (knots fitted on all its positions)
    and of the one calibrated with the other half of the games' knots (a
    check on over-fitting), the Brier scores (and the base rate's), the
    knots, and the noise between two searches of one
    position (for a review's cost: over all positions, and over those where
    either search found a cost). ``ValueError`` for no samples."""
    if not samples:
        raise ValueError("no positions")
    lines: list[str] = []
    for seats in sorted({s.seats for s in samples}):
        group = [s for s in samples if s.seats == seats]
        before = [(s.raw, s.won) for s in group]
        knots = fit(before)

        def cal(raw: float, knots: Knots = knots) -> float:
            return interpolate(knots, raw)
        after = [(cal(s.raw), s.won) for s in group]
        crossed = _cross_fitted(group)
        games = len({s.game for s in group})
        lines += [f"#### {seats} seats: {len(group)} positions from {games} games", "",
                  "Raw estimate (Hard's sigma(d / 8)):", ""] + _table(tenths(before))
        lines += ["", "Calibrated (knots fitted on all these positions):", ""] + _table(tenths(after))
        lines += ["", "Calibrated with the knots of the other half of the games (a check on over-fitting):",
                  ""] + _table(tenths(crossed))
        lines += ["", f"Brier: raw {brier(before):.4f}, calibrated {brier(after):.4f}, with the other half's "
                      f"knots {brier(crossed):.4f}; always saying the base rate "
                      f"{1 / seats:.2f}: {brier((1 / seats, s.won) for s in group):.4f}.",
                  "", f"Knots: `{seats}: {knots!r},`"]
        pairs = [s for s in group if s.raw2 is not None and s.played2 is not None]
        if pairs:
            est = [cal(s.raw) - cal(s.raw2 or 0.0) for s in pairs]
            costs = [(cal(s.raw) - cal(s.played), cal(s.raw2 or 0.0) - cal(s.played2 or 0.0)) for s in pairs]
            contested = [c1 - c2 for c1, c2 in costs if c1 > 0 or c2 > 0]
            lines += ["", f"Noise between two seeds ({len(pairs)} positions): win chance sd {_sd(est):.3f}; "
                          f"review cost sd {_sd([c1 - c2 for c1, c2 in costs]):.3f}, "
                          f"{_sd(contested):.3f} where either search found a cost ({len(contested)})."]
        lines.append("")
    return "\n".join(lines)


__all__ = ["Bin", "CALIBRATION", "COST_NOISE_AT_100", "Knots", "NOISE_AT_100", "about", "brier", "calibrated",
           "cost_noise", "fit", "interpolate", "noise", "report", "tenths"]
