"""Event logs on disk: one JSONL file per game, listed, loaded, resumed.

The store works on JSON-able dicts and never imports the engine.
"""

from __future__ import annotations

from .errors import (
    DamagedLog, GameExists, GameInUse, GameNotFound, InvalidGameId, NewerFormat, NewerRules, StoreError, WriteFailed,
)
from .ids import check_game_id, is_game_id, new_game_id
from .library import (
    DAMAGED,
    FINISHED,
    IN_PROGRESS,
    NEWER,
    SavedGame,
    check_deletable,
    delete_game,
    export_game,
    import_game,
    latest_unfinished,
    list_games,
)
from .aside import quarantine
from .log import CURRENT_FORMAT_VERSION, MIGRATIONS, LoadedLog, load
from .writer import GameLog
from .paths import data_dir, game_path, games_dir

__all__ = [
    "CURRENT_FORMAT_VERSION", "DAMAGED", "FINISHED", "IN_PROGRESS", "MIGRATIONS", "NEWER",
    "DamagedLog", "GameExists", "GameInUse", "GameLog", "GameNotFound", "InvalidGameId", "LoadedLog",
    "NewerFormat", "NewerRules", "SavedGame", "StoreError", "check_deletable", "check_game_id",
    "data_dir", "delete_game",
    "export_game", "game_path", "games_dir", "import_game", "is_game_id", "latest_unfinished",
    "list_games", "load", "new_game_id", "quarantine", "WriteFailed",
]
