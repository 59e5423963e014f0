"""Helpers of the database tests: whole seeded games saved by the file store."""

from __future__ import annotations

from pathlib import Path

from momiji_tui import engine
from momiji_tui.session.table import BOT, SeatConfig, Table

SEATS = [SeatConfig("Ada", BOT, "easy"), SeatConfig("Kaede", BOT, "easy")]


def play_file_game(data_dir: Path, seed: int, *, moves: int | None = None) -> Table:
    """A game of two Easy bots saved in ``data_dir`` (the file store), played to
    the end (or ``moves`` commands); the table is closed (its log released)."""
    table = Table.new(SEATS, seed=seed, data_dir=data_dir)
    done = 0
    while (seat := table.bot_to_move()) is not None and (moves is None or done < moves):
        table.submit(table.bot_command(seat))
        done += 1
    table.close()
    return table


def fold_dicts(events: list[dict]) -> engine.GameState:
    """The state the saved event objects fold to."""
    return engine.fold(engine.from_dict(e) for e in events)
