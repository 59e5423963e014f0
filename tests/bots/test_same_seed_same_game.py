"""Same seed and options, same game, bots included.

Two games created with the same seed and options get different random game
ids; the bots' choices must not depend on the id, only on what they see
and their seed (derived from the game's seed, the seat and the move).
"""

from __future__ import annotations

import dataclasses
import functools

import pytest

from momiji_tui.bots import make_bot
from momiji_tui.bots.base import view_digest
from momiji_tui.engine import create_game, fold, to_dict, view
from momiji_tui.session.table import BOT, SeatConfig, Table


def bot_game(seed: int, levels: tuple[str, ...], mode: str, moves: int) -> tuple[str, list[dict]]:
    """``moves`` bot commands of a new table; its game id and its events
    without the id."""
    seats = [SeatConfig(f"Bot {i}", BOT, level) for i, level in enumerate(levels)]
    table = Table.new(seats, seed=seed, landscape_mode=mode)
    cheap = functools.partial(make_bot, iterations=8)  # Hard at a small, fixed budget
    for _ in range(moves):
        if table.finished:
            break
        table.submit(table.bot_command(table.current, cheap))
    out = []
    for e in table.events:
        d = to_dict(e)
        d.pop("game_id", None)
        out.append(d)
    return table.game_id, out


@pytest.mark.parametrize(("levels", "mode"), [
    (("normal", "easy"), "draft"),
    (("hard", "normal", "easy"), "starter"),
])
def test_same_seed_and_options_give_the_same_game_with_bots(levels, mode):
    id_a, a = bot_game(4242, levels, mode, moves=60)
    id_b, b = bot_game(4242, levels, mode, moves=60)
    assert id_a != id_b  # random game ids ...
    assert len(a) > 60
    assert a == b  # ... and the very same game


def test_a_bot_decision_does_not_depend_on_the_game_id():
    state = fold(create_game(["A", "B"], seed=9, landscape_mode="draft", game_id="one"))
    v = view(state, state.current)
    other = dataclasses.replace(v, game_id="two")
    assert view_digest(v) == view_digest(other)
    for level in ("easy", "normal", "hard"):
        assert make_bot(level, 5).choose(v) == make_bot(level, 5).choose(other)
