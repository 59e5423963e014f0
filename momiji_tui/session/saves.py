"""Saved games as a player sees them: one summary line per game (for the
saved-games screen and ``momiji list``)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .. import engine
from ..store import DAMAGED, NEWER, list_games
from .table import validate_log


@dataclass(frozen=True)
class SavedGameRow:
    """One saved game: id, status, seats, turn, scores, path, and the
    ``problem`` in plain words when it cannot be opened."""

    game_id: str
    status: str
    seats: str
    turn: str
    scores: str
    path: Path
    problem: str | None


def describe_saved_games(data_dir: str | os.PathLike[str]) -> list[SavedGameRow]:
    """Every saved game, newest first. Damaged files are listed with their
    problem (and moved aside, never overwritten); they never stop the rest."""
    rows = []
    for game in list_games(data_dir, validate_log, quarantine_damaged=True):
        if game.status in (DAMAGED, NEWER) or game.events is None or game.header is None:
            rows.append(SavedGameRow(game.game_id, game.status, "", "", "", game.path, game.problem))
            continue
        state = engine.fold(engine.from_dict(e) for e in game.events)
        names = [s["name"] for s in game.header.get("seats", [])]
        sheet = engine.score(state)
        turn = "draft" if state.phase == "draft" else f"round {state.round}"
        scores = " ".join(f"{s.total}" for s in sheet.seats)
        rows.append(SavedGameRow(game.game_id, game.status, ", ".join(names), turn, scores, game.path, None))
    return rows
