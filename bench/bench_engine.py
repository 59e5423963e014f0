"""Engine speed: random legal playouts, and legal_commands/apply per call."""

from __future__ import annotations

import random
import time

from momiji_tui import engine
from momiji_tui.engine import apply, create_game, decide, fold, legal_commands
from momiji_tui.engine import run as run_command

from .common import median_time, row


def random_game(seats: int, seed: int) -> engine.GameState:
    """One game of random legal commands from the initial state."""
    rng = random.Random(seed)
    state = fold(create_game([f"s{i}" for i in range(seats)], seed=seed))
    while state.phase != "ended":
        state, _ = run_command(state, rng.choice(legal_commands(state, state.current)))
    return state


def playouts_per_second(seats: int, games: int) -> float:
    start = time.perf_counter()
    for g in range(games):
        random_game(seats, g)
    return games / (time.perf_counter() - start)


def mid_game_state(seed: int = 1) -> engine.GameState:
    """A state about halfway through a random 3-seat game."""
    rng = random.Random(seed)
    state = fold(create_game(["a", "b", "c"], seed=seed))
    for _ in range(60):
        state, _ = run_command(state, rng.choice(legal_commands(state, state.current)))
    return state


def run(quick: bool) -> list[dict]:
    games = 20 if quick else 200
    rows = [
        row("random playouts, 2 seats", playouts_per_second(2, games), "games/s", 1000, True),
        row("random playouts, 4 seats", playouts_per_second(4, games // 2), "games/s", None, True),
    ]
    state = mid_game_state()
    n = 200 if quick else 2000
    legal_t = median_time(lambda: legal_commands(state, state.current), n) * 1e6
    command = legal_commands(state, state.current)[0]
    events = decide(state, command)
    apply_t = median_time(lambda: apply(state, events[0]), n) * 1e6
    decide_t = median_time(lambda: decide(state, command), n) * 1e6
    rows += [
        row("legal_commands (mid-game)", legal_t, "µs/call", None, False),
        row("decide (mid-game)", decide_t, "µs/call", None, False),
        row("apply (mid-game)", apply_t, "µs/call", None, False),
    ]
    return rows

if __name__ == "__main__":
    for r in run(quick=False):
        print(r)
