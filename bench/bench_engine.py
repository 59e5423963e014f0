"""Engine speed: random legal playouts, and the engine's calls one by one.

Playouts start from the initial state (starter panoramas) and play random
legal commands until the game ends:

* **sampler, in place** — ``engine.sample.sample_command`` builds one legal
  command directly and ``run_in_place`` applies it to the playout's own
  state, as a bot's simulation does (target ≥ 1,000 two-seat games/s);
* **sampler, run** — the same games through ``run`` (a new state per command);
* **plain** — ``random.choice(legal_commands(...))`` through ``run``, the
  straightforward path.

The sampler and the plain choice pick differently, so their games differ in
length; commands per game are reported next to the rates. Per-call costs are means over a fixed set of
mid-game states (halfway through plain random games of 2, 3 and 4 seats).

Times are this process's CPU time (``time.process_time``), so other work on
a shared machine distorts them less than wall time would.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from momiji_tui.engine import Command, GameState, apply, create_game, decide, fold, legal_commands, run_in_place
from momiji_tui.engine import run as run_command
from momiji_tui.engine.sample import sample_command

from .common import row

Chooser = Callable[[GameState, random.Random], Command]


def plain_choice(state: GameState, rng: random.Random) -> Command:
    """A uniformly random command of ``legal_commands``."""
    return rng.choice(legal_commands(state, state.current))


def sampler_choice(state: GameState, rng: random.Random) -> Command:
    """A random legal command from the engine's sampler."""
    return sample_command(state, state.current, rng)


def random_game(seats: int, seed: int, choose: Chooser = plain_choice, in_place: bool = False,
                ) -> tuple[GameState, int]:
    """One game of random legal commands from the initial state: the final
    state and the number of commands."""
    rng = random.Random(seed)
    state = fold(create_game([f"s{i}" for i in range(seats)], seed=seed))
    n = 0
    while state.phase != "ended":
        if in_place:
            run_in_place(state, choose(state, rng))
        else:
            state, _ = run_command(state, choose(state, rng))
        n += 1
    return state, n


def playouts(seats: int, games: int, choose: Chooser, in_place: bool, rounds: int) -> tuple[float, float]:
    """Median games/s over ``rounds`` runs of the same ``games`` seeds, and
    the mean number of commands per game."""
    rates = []
    commands = 0
    for _ in range(rounds):
        commands = 0
        start = time.process_time()
        for g in range(games):
            commands += random_game(seats, g, choose, in_place)[1]
        rates.append(games / (time.process_time() - start))
    return statistics.median(rates), commands / games


def mid_game_states(count: int = 12) -> list[GameState]:
    """States halfway through plain random games of 2, 3 and 4 seats."""
    out = []
    for k in range(count):
        seats, seed = 2 + k % 3, 100 + k
        length = random_game(seats, seed)[1]
        rng = random.Random(seed)
        state = fold(create_game([f"s{i}" for i in range(seats)], seed=seed))
        for _ in range(length // 2):
            state, _ = run_command(state, plain_choice(state, rng))
        out.append(state)
    return out


def per_call(states: list[GameState], make: Callable[[GameState], Callable[[], object]], n: int) -> float:
    """Mean over ``states`` of the time of one call (the median of 5 batches
    of ``n`` calls), in µs."""
    means = []
    for s in states:
        fn = make(s)
        batches = []
        for _ in range(5):
            start = time.process_time()
            for _ in range(n):
                fn()
            batches.append((time.process_time() - start) / n)
        means.append(statistics.median(batches))
    return statistics.mean(means) * 1e6


def run(quick: bool) -> list[dict]:
    games = 40 if quick else 300
    rounds = 1 if quick else 3
    rows = []
    paths = (
        ("sampler, in place", sampler_choice, True),
        ("sampler, run", sampler_choice, False),
        ("plain legal_commands+choice, run", plain_choice, False),
    )
    for seats in (2, 4):
        for label, choose, in_place in paths:
            rate, length = playouts(seats, games if seats == 2 else games // 2, choose, in_place, rounds)
            target = 1000 if (seats == 2 and label == "sampler, in place") else None
            rows.append(row(f"random playouts, {seats} seats, {label}", rate, "games/s", target, True))
            if label != "sampler, run":  # the same games as in place
                rows.append(row(f"  commands per game, {seats} seats, {label.split(',')[0]}", length,
                                "commands", None, False))
    states = mid_game_states()
    n = 40 if quick else 400
    pick = random.Random(0)
    commands = {id(s): pick.choice(legal_commands(s, s.current)) for s in states}
    first_event = {id(s): decide(s, commands[id(s)])[0] for s in states}

    def sample_call(s: GameState) -> Callable[[], object]:
        rng = random.Random(1)
        return lambda: sample_command(s, s.current, rng)

    rows += [
        row("legal_commands (mid-game)", per_call(states, lambda s: lambda: legal_commands(s, s.current), n),
            "µs/call", None, False),
        row("sample_command (mid-game)", per_call(states, sample_call, n), "µs/call", None, False),
        row("decide (mid-game)", per_call(states, lambda s: lambda: decide(s, commands[id(s)]), n),
            "µs/call", None, False),
        row("run = decide + apply (mid-game)",
            per_call(states, lambda s: lambda: run_command(s, commands[id(s)]), n), "µs/call", None, False),
        row("apply one event (mid-game)", per_call(states, lambda s: lambda: apply(s, first_event[id(s)]), n),
            "µs/call", None, False),
        row("GameState.clone (mid-game)", per_call(states, lambda s: s.clone, n), "µs/call", None, False),
    ]
    return rows


if __name__ == "__main__":
    for r in run(quick=False):
        print(r)
