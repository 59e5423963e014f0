"""Random legal games for the property tests: hypothesis picks seed, seats and
mode; a seeded ``random.Random`` picks the moves."""

from __future__ import annotations

import random
from collections.abc import Iterator

from hypothesis import given, strategies as st

from momiji_tui.engine import GameState, create_game, fold, legal_commands, run

from engine_helpers import NAMES

MAX_COMMANDS = 3000  # a random game takes ~120 commands; this bounds a stuck one

games = given(
    seed=st.integers(0, 10**6),
    seats=st.sampled_from([2, 3, 4]),
    mode=st.sampled_from(["starter", "draft"]),
)


def choose(legal: list, rng: random.Random):
    """A random legal command: first a command class, then one of its commands
    (so that the few main actions are not drowned by many free ones)."""
    by_class: dict[type, list] = {}
    for command in legal:
        by_class.setdefault(type(command), []).append(command)
    return rng.choice(by_class[rng.choice(sorted(by_class, key=lambda t: t.__name__))])


def walk(seed: int, seats: int, mode: str) -> Iterator[tuple[GameState, object, list, GameState, list]]:
    """Play a random legal game; yield ``(before, command, new events, after,
    all events so far)`` for every command."""
    rng = random.Random(seed)
    events = create_game(list(NAMES[:seats]), seed=seed, landscape_mode=mode)
    state = fold(events)
    for _ in range(MAX_COMMANDS):
        if state.phase == "ended":
            return
        legal = legal_commands(state, state.current)
        assert legal, "the seat to move has no legal command"
        command = choose(legal, rng)
        after, new = run(state, command)
        events = events + new
        yield state, command, new, after, events
        state = after
    raise AssertionError(f"no end after {MAX_COMMANDS} commands")
