"""Post-game review time: one seat's whole review of a seeded,
bot-played (Normal) game, 2 and 4 seats, at the review's budget per decision
(``session.review.REVIEW_ITERATIONS``). Target: a 2-seat game in ≤ 30 s.

    python -m bench review            # or: python -m bench.bench_review [ITERATIONS ...]
"""

from __future__ import annotations

import sys
import time

from momiji_tui import engine
from momiji_tui.bots import make_bot
from momiji_tui.engine import events as ev
from momiji_tui.session.review import REVIEW_ITERATIONS, review_game

from .common import row

TARGET_2_SEATS = 30.0
"""Seconds: the target for a 2-seat game's review on this machine."""


def played(seats: int, seed: int) -> list[ev.Event]:
    """A whole starter game, every seat a seeded Normal bot."""
    events = engine.create_game([f"s{i}" for i in range(seats)], seed=seed, game_id=f"bench-review-{seats}-{seed}")
    state = engine.fold(events)
    step = 0
    while state.phase != "ended":
        command = make_bot("normal", seed=seed * 1000 + step).choose(engine.view(state, state.current))
        state, new = engine.run(state, command)
        events += new
        step += 1
    return events


def review_seconds(seats: int, seed: int, iterations: int) -> tuple[float, float, int]:
    """Seat 0's review of game ``seed``: CPU seconds of this process, wall
    seconds, and the decisions reviewed. The machine is shared (other jobs
    make wall time swing by several times), so the target is read on CPU
    time: what the review costs when it has a core."""
    events = played(seats, seed)
    cpu, wall = time.process_time(), time.perf_counter()
    review = review_game(events, 0, iterations=iterations)
    return time.process_time() - cpu, time.perf_counter() - wall, len(review.decisions)


def run(quick: bool, iterations: int = REVIEW_ITERATIONS) -> list[dict]:
    rows = []
    for seats in (2, 4):
        seeds = range(1) if quick else range(3)
        results = [review_seconds(seats, seed, iterations) for seed in seeds]
        worst = max(cpu for cpu, _, _ in results)
        decisions = sum(n for _, _, n in results) / len(results)
        label = f"review of a {seats}-seat game ({iterations} it/decision)"
        rows.append(row(f"{label}, CPU s, slowest of {len(results)}", worst, "s",
                        TARGET_2_SEATS if seats == 2 else None, False))
        rows.append(row(f"{label}, wall s, slowest of {len(results)}", max(w for _, w, _ in results), "s",
                        None, False))
        rows.append(row(f"{label}: decisions reviewed (mean)", decisions, "decisions", None, False))
        rows.append(row(f"{label}: CPU s per decision", worst / max(1, decisions), "s", None, False))
    return rows


if __name__ == "__main__":
    for budget in [int(a) for a in sys.argv[1:]] or [REVIEW_ITERATIONS]:
        for r in run(quick=False, iterations=budget):
            print(r)
