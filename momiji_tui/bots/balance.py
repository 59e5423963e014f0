"""Landscape balance of a tournament: do seats with a landscape win more?

Split from ``tournament.py`` (the runner). A landscape is tested only with
a minimum sample on both sides (``MIN_BALANCE_SEATS``): with fewer seats the
variance estimate is meaningless (two games gave z = ±1000000), so its ``z``
is None, it is never an outlier, and the report says there were too few games.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.rules_data import LANDSCAPES

Z95 = 1.959963984540054

#: Seats with a landscape, and seats without it, needed before its z is
#: computed (the usual floor for a normal approximation of a mean).
MIN_BALANCE_SEATS = 20


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (wins may be fractional)."""
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(slots=True)
class LandscapeStats:
    """Win rates of seats that had a landscape versus seats that did not.
    ``z`` is None when either side has fewer than ``MIN_BALANCE_SEATS`` seats
    (or no variance): then it was not tested."""

    landscape: str
    part: str
    seats_with: int
    rate_with: float
    ci_with: tuple[float, float]
    seats_without: int
    rate_without: float
    ci_without: tuple[float, float]
    excess: float  # mean (win share − that bot's overall win rate) of seats with it
    z: float | None
    outlier: bool


def landscape_balance(records: Sequence[Any], stats: Sequence[Any],
                      alpha: float = 0.05) -> list[LandscapeStats]:
    """For each landscape seen in draft games: win rate of the seats that had it
    versus the seats that did not (``records``: ``GameRecord``s; ``stats``:
    ``BotStats``).

    Bots of different strength draft differently, so the test compares
    *residuals*: each seat's win share minus its bot's overall win rate
    (``excess`` is their mean over the seats with the landscape). ``z`` is the
    Welch z of the residuals with versus without it; a landscape is an
    *outlier* when ``|z|`` passes ``alpha`` after a Bonferroni correction over
    the landscapes tested. A landscape with fewer than ``MIN_BALANCE_SEATS``
    seats on either side is not tested (``z`` None). In a mirror tournament
    (one bot in every seat) this is the plain with-versus-without comparison.
    Random panoramas (``--mode random``, RULES §1.5 measured by design) are
    read the same way as drafted ones."""
    drafted = [r for r in records if any(r.panoramas)]
    rows = _effect_rows(drafted, stats, list(LANDSCAPES),
                        lambda r, lid: True, lambda r, i, lid: lid in r.panoramas[i], alpha)
    return [LandscapeStats(lid, LANDSCAPES[lid][0], *row) for lid, row in rows]


@dataclass(slots=True)
class ObjectiveStats:
    """Owner-win effect of one objective (RULES §1.4, §7): among the games
    where it was revealed, the win rate of the seat that activated it versus
    the other seats. ``excess`` and ``z`` read as in ``LandscapeStats``.
    Owning is a choice, and a leading seat activates more, so every objective's
    effect is positive; the objectives are compared with each other."""

    objective: str
    owners: int
    rate_with: float
    ci_with: tuple[float, float]
    seats_without: int
    rate_without: float
    ci_without: tuple[float, float]
    excess: float
    z: float | None
    outlier: bool


def objective_balance(records: Sequence[Any], stats: Sequence[Any],
                      alpha: float = 0.05) -> list[ObjectiveStats]:
    """For each objective revealed in some record (``GameRecord.objectives``:
    ``(objective id, owner seat or -1)``): owners versus the other seats of the
    games that revealed it, on residuals as ``landscape_balance``; Bonferroni
    over the objectives tested. Objectives never revealed are left out."""
    keys = list(dict.fromkeys(o for r in records for o, _ in r.objectives))

    def revealed(r: Any, oid: str) -> bool:
        return any(o == oid for o, _ in r.objectives)

    def owns(r: Any, seat: int, oid: str) -> bool:
        return any(o == oid and owner == seat for o, owner in r.objectives)

    rows = _effect_rows(records, stats, keys, revealed, owns, alpha)
    return [ObjectiveStats(oid, *row) for oid, row in rows]


_Row = tuple[int, float, tuple[float, float], int, float, tuple[float, float], float, float | None, bool]


def _effect_rows(records: Sequence[Any], stats: Sequence[Any], keys: list[str],
                 in_game: Callable[[Any, str], bool], has: Callable[[Any, int, str], bool],
                 alpha: float) -> list[tuple[str, _Row]]:
    """Per key: seats with it vs without (in the games ``in_game``), residual
    excess, Welch z and the Bonferroni outlier flag over the keys tested."""
    rate_of = {s.bot: s.win_rate for s in stats}
    rows = []
    for key in keys:
        w_w = w_o = 0.0
        res_w: list[float] = []
        res_o: list[float] = []
        for r in records:
            if not in_game(r, key):
                continue
            for i, share in enumerate(r.win_share):
                res = share - rate_of.get(r.lineup[i], 0.0)
                if has(r, i, key):
                    w_w += share
                    res_w.append(res)
                else:
                    w_o += share
                    res_o.append(res)
        if res_w:
            rows.append((key, w_w, w_o, res_w, res_o))
    zs = {key: _welch_z(res_w, res_o) for key, _, _, res_w, res_o in rows}
    tested = sum(1 for z in zs.values() if z is not None)
    crit = _normal_quantile(1 - alpha / (2 * max(1, tested)))
    out: list[tuple[str, _Row]] = []
    for key, w_w, w_o, res_w, res_o in rows:
        n_w, n_o = len(res_w), len(res_o)
        z = zs[key]
        out.append((key, (
            n_w, w_w / n_w, wilson(w_w, n_w), n_o,
            w_o / n_o if n_o else 0.0, wilson(w_o, n_o) if n_o else (0.0, 1.0),
            sum(res_w) / n_w, z, z is not None and abs(z) > crit,
        )))
    return out


def _welch_z(res_w: list[float], res_o: list[float]) -> float | None:
    """Welch z of two samples' means; None below the minimum sample or
    without variance."""
    n_w, n_o = len(res_w), len(res_o)
    if n_w < MIN_BALANCE_SEATS or n_o < MIN_BALANCE_SEATS:
        return None
    m_w, m_o = sum(res_w) / n_w, sum(res_o) / n_o
    var_w = sum((x - m_w) ** 2 for x in res_w) / (n_w - 1)
    var_o = sum((x - m_o) ** 2 for x in res_o) / (n_o - 1)
    se = math.sqrt(var_w / n_w + var_o / n_o)
    if se == 0:
        return None
    return (m_w - m_o) / se


def _normal_quantile(p: float) -> float:
    """The standard normal quantile (bisection on ``erfc``; p in (0.5, 1))."""
    lo, hi = 0.0, 12.0
    for _ in range(80):
        mid = (lo + hi) / 2
        if 0.5 * math.erfc(mid / math.sqrt(2)) > 1 - p:
            lo = mid
        else:
            hi = mid
    return hi
