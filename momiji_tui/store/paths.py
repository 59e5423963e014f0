"""Where saves live: the data directory and the games directory inside it."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

from .ids import check_game_id

APP_NAME = "momiji-tui"
ENV_VAR = "MOMIJI_DATA_DIR"
GAME_SUFFIX = ".jsonl"


def data_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The data directory: ``override`` if given, else the ``MOMIJI_DATA_DIR``
    environment variable if set and non-empty, else
    ``platformdirs.user_data_path("momiji-tui")``. Creates nothing."""
    if override is not None:
        return Path(override).expanduser()
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser()
    return platformdirs.user_data_path(APP_NAME)


def games_dir(data_dir: str | os.PathLike[str], *, create: bool = True) -> Path:
    """``<data_dir>/games``, created (with parents) when ``create`` is true.
    Raises ``OSError`` if it cannot be created."""
    path = Path(data_dir) / "games"
    if create and not path.is_dir():
        os.makedirs(path, exist_ok=True)
    return path


def game_path(data_dir: str | os.PathLike[str], game_id: str, *, create: bool = False) -> Path:
    """``<data_dir>/games/<game_id>.jsonl``. Raises :class:`InvalidGameId` for
    anything that is not a game id, so the path never leaves the games dir."""
    return games_dir(data_dir, create=create) / (check_game_id(game_id) + GAME_SUFFIX)
