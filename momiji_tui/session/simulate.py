"""Headless bot-only games (``momiji simulate``): no UI, no files."""

from __future__ import annotations

import time
from dataclasses import dataclass

from .. import engine
from ..bots import make_bot


@dataclass(frozen=True)
class SimulationSummary:
    """What ``simulate`` measured: per-seat mean scores, mean turns per
    seat, wall time in seconds."""

    games: int
    seats: int
    level: str
    mean_scores: tuple[float, ...]
    mean_turns: float
    seconds: float

    @property
    def games_per_second(self) -> float:
        """Games finished per second of wall time."""
        return self.games / self.seconds if self.seconds > 0 else float("inf")


def play_one(seats: int, seed: int, level: str = "normal", landscape_mode: str = "starter",
             max_commands: int = 20_000) -> engine.GameState:
    """Play one bot-only game to its end; returns the final state.

    Raises ``RuntimeError`` if the game has not ended after ``max_commands``.
    """
    events = engine.create_game([f"{level.capitalize()} {i + 1}" for i in range(seats)], seed=seed,
                                landscape_mode=landscape_mode, game_id=f"sim-{seed}")
    state = engine.fold(events)
    for step in range(max_commands):
        if state.phase == "ended":
            return state
        seat = state.current
        bot = make_bot(level, seed=hash((seed, seat, step)) & 0xFFFFFFFF)
        state, _ = engine.run(state, bot.choose(engine.view(state, seat)))
    raise RuntimeError(f"game with seed {seed} did not end after {max_commands} commands")


def simulate(games: int, seats: int, seed: int = 0, level: str = "normal",
             landscape_mode: str = "starter") -> SimulationSummary:
    """Play ``games`` seeded bot games (seeds ``seed``, ``seed+1``, …).

    Raises ``ValueError`` for fewer than 1 game or a negative seed (RULES §2:
    each deal is drawn from its seed)."""
    if games < 1:
        raise ValueError(f"simulate needs at least 1 game, not {games}")
    if seed < 0:
        raise ValueError(f"a seed is a whole number 0 or more, not {seed}")
    totals = [0.0] * seats
    turns = 0.0
    start = time.perf_counter()
    for g in range(games):
        state = play_one(seats, seed + g, level, landscape_mode)
        for i, s in enumerate(engine.score(state).seats):
            totals[i] += s.total
        turns += sum(s.turns for s in state.seats) / seats
    seconds = time.perf_counter() - start
    return SimulationSummary(games, seats, level, tuple(t / games for t in totals), turns / games, seconds)


def format_summary(s: SimulationSummary) -> str:
    """The summary as a few lines of text."""
    scores = "  ".join(f"seat {i + 1}: {m:.1f}" for i, m in enumerate(s.mean_scores))
    return (f"games: {s.games}  seats: {s.seats}  bots: {s.level}\n"
            f"mean scores: {scores}\n"
            f"mean turns per seat: {s.mean_turns:.1f}\n"
            f"games/s: {s.games_per_second:.2f}  ({s.seconds:.2f} s)")
