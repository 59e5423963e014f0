"""Bot speed: decision times at the play budget (what the app uses), and
whole seeded games per CPU second, as the long tournaments play them
(``run_tournament``, one process, random panoramas)."""

from __future__ import annotations

import time

from momiji_tui.bots import make_bot
from momiji_tui.bots.tournament import run_tournament
from momiji_tui.engine import create_game, fold, view
from momiji_tui.engine import run as run_command

from .common import p95, row


def decision_times(level: str, games: int, seats: int = 2) -> tuple[list[float], int, list[float]]:
    """Seconds per decision of ``level`` bots playing every seat of seeded
    games at the app's budget (wall time); also the Hard bot's total
    iterations, and each decision's CPU seconds (``time.thread_time``: on a
    shared machine the wall time also counts other processes' turns)."""
    times: list[float] = []
    cpu: list[float] = []
    iterations = 0
    for seed in range(games):
        state = fold(create_game([f"s{i}" for i in range(seats)], seed=seed))
        step = 0
        while state.phase != "ended":
            bot = make_bot(level, seed=step)
            v = view(state, state.current)
            start, cpu_start = time.perf_counter(), time.thread_time()
            command = bot.choose(v)
            times.append(time.perf_counter() - start)
            cpu.append(time.thread_time() - cpu_start)
            iterations += getattr(bot, "last_iterations", 0)
            state, _ = run_command(state, command)
            step += 1
    return times, iterations, cpu


def games_per_cpu_second(bots: list[str], games: int, seats: int, seed: int = 7) -> float:
    """Seeded tournament games (``--mode random``, ``--jobs 1``) per second of
    this process's CPU time (``time.process_time``: the machine is shared)."""
    start = time.process_time()
    run_tournament(bots, games=games, seats=seats, seed=seed, jobs=1, landscape_mode="random")
    return games / (time.process_time() - start)


def run(quick: bool) -> list[dict]:
    rows = []
    for label, bots, seats, games in (
        ("normal self-play, 2 seats", ["normal", "normal:"], 2, 4 if quick else 20),
        ("normal self-play, 4 seats", ["normal", "normal:"], 4, 2 if quick else 8),
        ("hard vs normal, 2 seats", ["hard", "normal"], 2, 1 if quick else 4),
    ):
        rows.append(row(f"{label} (tournament, 1 process)", games_per_cpu_second(bots, games, seats),
                        "games/cpu-s", None, True))
    for level, games in (("normal", 2 if quick else 10), ("hard", 1 if quick else 4)):
        times, iterations, cpu = decision_times(level, games)
        rows.append(row(f"{level} bot decision p95 (play budget)", p95(times), "s",
                        1.0 if level == "hard" else None, False))
        rows.append(row(f"{level} bot decision p95 CPU (play budget)", p95(cpu), "cpu-s",
                        1.0 if level == "hard" else None, False))
        rows.append(row(f"{level} bot decision mean", sum(times) / len(times), "s", None, False))
        if iterations:
            rows.append(row(f"{level} bot iterations/s", iterations / sum(times), "iter/s", None, True))
    return rows


if __name__ == "__main__":
    for r in run(quick=False):
        print(r)
