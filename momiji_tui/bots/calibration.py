"""The win chance, calibrated: Hard's raw estimate mapped to a frequency.

Hard's search scores a position by sigma(d / 8) of an estimated lead d
(``hard.HardBot.search``): a probability-like number, never checked against
results. Measured on positions of seeded bot games
(``calibration_games``; docs/BOTS.md, "Win chance calibration"), it is
mapped per seat count by Platt scaling: ``calibrated(raw, seats) =
sigma(a * logit(raw) + b)``, with ``(a, b)`` fitted by maximum likelihood
(``fit``) and kept in ``CALIBRATION``. The estimate's own noise
(``noise``) says how far two searches of the same position at a budget
disagree; the hint rounds to it and the review blames no smaller loss.

Pure: no files, no clock.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

CALIBRATION: dict[int, tuple[float, float]] = {2: (1.024, -0.122), 3: (1.0, 0.0), 4: (1.0, 0.0)}
"""Platt's ``(a, b)`` per seat count (RULES §1: 2–4 seats), fitted on the
positions of docs/BOTS.md, "Win chance calibration"."""

NOISE_AT_100 = 0.019
"""The standard deviation of a calibrated win chance between two searches of
the same position with different seeds at 100 iterations (docs/BOTS.md,
"Win chance calibration")."""

COST_NOISE_AT_100 = 0.024
"""The same for a review's cost (Hard's best minus the played command) at
100 iterations."""

_EPS = 1e-4


def logit(p: float) -> float:
    """log(p / (1 - p)), with ``p`` kept inside [1e-4, 1 - 1e-4]."""
    p = min(1.0 - _EPS, max(_EPS, p))
    return math.log(p / (1.0 - p))


def sigmoid(x: float) -> float:
    """1 / (1 + e^-x)."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def calibrated(raw: float, seats: int) -> float:
    """The win chance (0..1) that Hard's ``raw`` estimate (0..1) means at a
    table of ``seats`` (a seat count outside ``CALIBRATION`` uses the
    nearest one's constants)."""
    key = min(CALIBRATION, key=lambda n: abs(n - seats))
    a, b = CALIBRATION[key]
    return sigmoid(a * logit(raw) + b)


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


def fit(pairs: Sequence[tuple[float, float]], steps: int = 50) -> tuple[float, float]:
    """Platt's ``(a, b)``: maximise the likelihood of the outcomes under
    sigma(a * logit(raw) + b), by Newton's method (``steps`` at most).
    Outcomes may be fractions (a shared win). ``ValueError`` for no pairs."""
    if not pairs:
        raise ValueError("no positions to fit")
    xs = [(logit(p), y) for p, y in pairs]
    a, b = 1.0, 0.0
    for _ in range(steps):
        ga = gb = haa = hab = hbb = 0.0
        for x, y in xs:
            q = sigmoid(a * x + b)
            r = q - y
            w = q * (1 - q)
            ga += r * x
            gb += r
            haa += w * x * x
            hab += w * x
            hbb += w
        det = haa * hbb - hab * hab + 1e-12
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        a, b = a - da, b - db
        if abs(da) < 1e-9 and abs(db) < 1e-9:
            break
    return a, b


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


def _platt(a: float, b: float) -> Callable[[float], float]:
    """The map sigma(a * logit(raw) + b)."""
    return lambda raw: sigmoid(a * logit(raw) + b)


def _cross_fitted(samples: Sequence[_Sample]) -> list[tuple[float, float]]:
    """Each sample's calibrated estimate and outcome, the constants fitted
    on the other half of the games (even games ↔ odd games)."""
    out = []
    for half in (0, 1):
        train = [(s.raw, s.won) for s in samples if s.game % 2 != half]
        a, b = fit(train)
        out += [(sigmoid(a * logit(s.raw) + b), s.won) for s in samples if s.game % 2 == half]
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
    raw estimate and of the calibrated one (constants fitted on all its
    positions), the Brier scores (raw; calibrated; calibrated with the
    constants of the other half of the games, a check on over-fitting; the
    base rate), the constants, and the noise between two searches of one
    position (for a review's cost: over all positions, and over those where
    either search found a cost). ``ValueError`` for no samples."""
    if not samples:
        raise ValueError("no positions")
    lines: list[str] = []
    for seats in sorted({s.seats for s in samples}):
        group = [s for s in samples if s.seats == seats]
        before = [(s.raw, s.won) for s in group]
        a, b = fit(before)
        cal = _platt(a, b)
        after = [(cal(s.raw), s.won) for s in group]
        games = len({s.game for s in group})
        lines += [f"#### {seats} seats: {len(group)} positions from {games} games", "",
                  "Raw estimate (Hard's sigma(d / 8)):", ""] + _table(tenths(before))
        lines += ["", f"Calibrated (a = {a:.3f}, b = {b:.3f}):", ""] + _table(tenths(after))
        lines += ["", f"Brier: raw {brier(before):.4f}, calibrated {brier(after):.4f}, calibrated with the "
                      f"other half's constants {brier(_cross_fitted(group)):.4f}; always saying the base rate "
                      f"{1 / seats:.2f}: {brier((1 / seats, s.won) for s in group):.4f}."]
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


__all__ = ["Bin", "CALIBRATION", "COST_NOISE_AT_100", "NOISE_AT_100", "about", "brier", "calibrated", "cost_noise",
           "fit", "logit", "noise", "report", "sigmoid", "tenths"]
