"""Event logs on disk: one JSONL file per game, listed, loaded, resumed.

The store works on JSON-able dicts and never imports the engine.
"""

from __future__ import annotations

from .errors import DamagedLog, GameExists, GameNotFound, InvalidGameId, NewerFormat, StoreError
from .ids import check_game_id, is_game_id, new_game_id
from .log import CURRENT_FORMAT_VERSION, MIGRATIONS, GameLog, LoadedLog, load, quarantine
from .paths import data_dir, game_path, games_dir

__all__ = [
    "CURRENT_FORMAT_VERSION", "MIGRATIONS",
    "DamagedLog", "GameExists", "GameLog", "GameNotFound", "InvalidGameId", "LoadedLog",
    "NewerFormat", "StoreError", "check_game_id", "data_dir", "game_path", "games_dir",
    "is_game_id", "load", "new_game_id", "quarantine",
]
