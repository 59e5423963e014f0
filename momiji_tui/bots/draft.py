"""The bots' landscape draft (RULES §2.1): each landscape by its measured merit.

A landscape's merit is its measured *excess*: how much more often the seats
that held it won than their fair share, in Normal-vs-Normal games with random
panoramas (``momiji tournament --bots normal,normal: --mode random``, rules
2026.11-2; docs/BALANCE.md, "Full-size runs"), each with the standard error
of that measurement. The measurements differ by less than their intervals, so
a fixed ranking would treat noise as merit and never take the last of each
part. The bots draft by Thompson sampling instead: each offered landscape
draws a value from its measurement (a normal distribution of that mean and
``UNCERTAINTY`` times its standard error) and the highest draw is picked. A
landscape is thus taken with the probability that it is the best of the
offer given what was measured; the draw comes from the decision's seeded
generator, so the same view and seed give the same pick.
"""

from __future__ import annotations

import random

from ..engine.commands import Command, DraftPick

# (excess in win-rate points, its standard error) by landscape: 2 seats from
# the 2,000-game run (seed 16000), 3–4 seats from the 1,000-game 4-seat run
# (seed 16000); standard error = the 95% interval's width / 3.92.
MERIT_2_SEATS: dict[str, tuple[float, float]] = {
    "teahouse": (4.0, 1.9), "moss": (2.7, 1.9), "bamboo": (2.4, 1.9), "crane": (2.4, 1.9),
    "spring": (2.1, 1.9), "pine": (1.0, 2.0), "lantern": (0.9, 2.0), "festival": (0.9, 2.0),
    "bell": (0.2, 2.0), "waterfall": (0.1, 2.0), "moongate": (-0.6, 1.8), "pier": (-0.9, 1.9),
    "stones": (-1.1, 1.9), "koi": (-2.0, 2.0), "fox": (-2.4, 1.9), "pagoda": (-2.6, 1.9),
    "bridge": (-3.2, 1.9), "terrace": (-3.9, 1.9),
}
MERIT_4_SEATS: dict[str, tuple[float, float]] = {
    "koi": (3.2, 1.7), "lantern": (3.0, 1.8), "festival": (2.6, 1.7), "moss": (1.9, 1.7),
    "moongate": (1.8, 1.7), "pier": (1.3, 1.7), "teahouse": (1.0, 1.7), "pagoda": (0.3, 1.6),
    "waterfall": (-0.1, 1.7), "stones": (-0.3, 1.6), "bamboo": (-0.8, 1.7), "crane": (-1.3, 1.7),
    "spring": (-1.5, 1.7), "bell": (-1.6, 1.6), "fox": (-2.1, 1.6), "terrace": (-2.2, 1.6),
    "pine": (-2.3, 1.6), "bridge": (-2.7, 1.6),
}

UNCERTAINTY = 1.5
"""How much wider than its sampling error a merit is drawn: the measurement is
of Normal's play with random panoramas, not of the drafting bot's play in a
drafted game (Hard plays some landscapes better or worse than Normal;
docs/BOTS.md), so it is known less well than its standard error says."""


def merit_table(n_seats: int) -> dict[str, tuple[float, float]]:
    """The merit table measured nearest ``n_seats`` (2: two seats; 3–4: four)."""
    return MERIT_2_SEATS if n_seats <= 2 else MERIT_4_SEATS


def ranked_picks(legal: list[Command], n_seats: int, rng: random.Random) -> list[tuple[DraftPick, float]]:
    """The offered draft picks (``DraftPick`` commands of ``legal``), best
    first by one Thompson draw each from ``merit_table(n_seats)``, its
    standard errors widened by ``UNCERTAINTY`` (an unknown
    landscape: merit 0, standard error 2), each with its measured mean merit
    (win-rate points above the fair share). Draws are made in the offer's
    order from ``rng``. Raises ``ValueError`` when ``legal`` has no pick."""
    table = merit_table(n_seats)
    picks = [c for c in legal if isinstance(c, DraftPick)]
    if not picks:
        raise ValueError("no draft pick among the legal commands")
    drawn = []
    for i, c in enumerate(picks):
        mean, se = table.get(c.landscape, (0.0, 2.0))
        drawn.append((mean + UNCERTAINTY * se * rng.gauss(0.0, 1.0), -i, c, mean))
    drawn.sort(key=lambda x: (x[0], x[1]), reverse=True)
    return [(c, mean) for _, _, c, mean in drawn]


def draft_pick(legal: list[Command], n_seats: int, rng: random.Random) -> DraftPick:
    """The landscape a bot drafts from ``legal`` (``ranked_picks``' first)."""
    return ranked_picks(legal, n_seats, rng)[0][0]


__all__ = ["MERIT_2_SEATS", "MERIT_4_SEATS", "UNCERTAINTY", "draft_pick", "merit_table", "ranked_picks"]
