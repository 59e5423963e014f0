"""Helpers for the saves tests: real games saved through a ``Table``.

(A plain module, not a conftest, so its name is unique across the test tree.)
"""

from __future__ import annotations

import json
from pathlib import Path

from momiji_tui.bots import make_bot
from momiji_tui.session.table import BOT, HUMAN, SeatConfig, Table

SEATS = [SeatConfig("Ada", HUMAN), SeatConfig("Bo", BOT, "easy")]


def play(table: Table, commands: int | None = None, seed: int = 0) -> Table:
    """Let easy bots make ``commands`` moves for every seat (None: to the end)."""
    step = 0
    while not table.finished and (commands is None or step < commands):
        table.submit(make_bot("easy", seed=seed * 7919 + step).choose(table.view(table.current)))
        step += 1
    return table


def saved_game(data_dir: Path, seed: int, commands: int | None = None, seats=SEATS,
               landscape_mode: str = "starter") -> Path:
    """A game saved in ``data_dir`` after ``commands`` moves (None: finished); its path."""
    table = play(Table.new(list(seats), seed=seed, landscape_mode=landscape_mode, data_dir=data_dir),
                 commands, seed)
    table.close()
    return table.log.path


def lines(path: Path) -> list[bytes]:
    """The file's lines, each with its ``\\n``."""
    return path.read_bytes().splitlines(keepends=True)


def event_line(obj: dict) -> bytes:
    return (json.dumps(obj, separators=(",", ":")) + "\n").encode()
