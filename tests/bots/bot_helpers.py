"""Shared helpers for the bot tests: seeded games and the states along them."""

from __future__ import annotations

import random
from collections.abc import Iterator

from momiji_tui.bots import make_bot
from momiji_tui.engine import GameState, create_game, fold, run, view


def states_along_game(n_seats: int, mode: str, seed: int, *, every: int = 1,
                      walkers: tuple[str, ...] = ("normal", "easy")) -> Iterator[GameState]:
    """Every ``every``-th decision state of one seeded game played by cheap bots
    (draft picks included when ``mode`` is ``"draft"``)."""
    state = fold(create_game([f"P{i}" for i in range(n_seats)], seed=seed, landscape_mode=mode,
                             game_id=f"g{seed}"))
    bots = [make_bot(walkers[i % len(walkers)], seed * 10 + i) for i in range(n_seats)]
    k = 0
    while state.phase != "ended":
        if k % every == 0:
            yield state
        state, _ = run(state, bots[state.current].choose(view(state, state.current)))
        k += 1


def sample_states(count: int, seed: int) -> list[GameState]:
    """``count`` decision states spread over 2/3/4-seat, draft and starter games."""
    rng = random.Random(seed)
    out: list[GameState] = []
    g = 0
    while len(out) < count:
        n = 2 + g % 3
        mode = "draft" if g % 2 else "starter"
        states = list(states_along_game(n, mode, seed * 1000 + g))
        out.extend(rng.sample(states, min(len(states), max(1, count // 6))))
        g += 1
    return out[:count]
