"""The saved-games library: list, resume, delete, export and import games."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from . import _fs
from .errors import DamagedLog, GameExists, GameNotFound, NewerFormat
from .ids import is_game_id
from .log import Event, Header, Validator, encode_line, load, quarantine
from .paths import GAME_SUFFIX, game_path, games_dir

IN_PROGRESS = "in progress"
FINISHED = "finished"
DAMAGED = "damaged"
NEWER = "newer format"  # made by a newer momiji-tui: not damaged, never moved aside


@dataclass
class SavedGame:
    """One file in the games dir. ``header``/``events`` are None unless it loaded;
    ``problem`` says in plain words why it did not. ``status`` is one of
    ``IN_PROGRESS``, ``FINISHED``, ``DAMAGED``, ``NEWER``; ``path`` is where the
    file is now (its quarantine name if it was moved aside)."""

    game_id: str
    path: Path
    status: str
    header: Header | None = None
    events: list[Event] | None = None
    problem: str | None = None
    warnings: list[str] = field(default_factory=list)


def list_games(
    data_dir: str | os.PathLike[str],
    validate: Validator | None = None,
    *,
    quarantine_damaged: bool = False,
    now: datetime | None = None,
) -> list[SavedGame]:
    """Every ``<game-id>.jsonl`` in the games dir (other names are ignored),
    newest first. A file that fails to load is listed, never raised; a damaged
    one is moved aside with :func:`quarantine` only if ``quarantine_damaged``
    (``now`` dates that move). Returns [] if there is no games dir."""
    folder = games_dir(data_dir, create=False)
    if not folder.is_dir():
        return []
    games = []
    for path in folder.glob("*" + GAME_SUFFIX):
        game_id = path.name[: -len(GAME_SUFFIX)]
        if not is_game_id(game_id):
            continue
        try:
            loaded = load(path, validate)
        except FileNotFoundError:  # deleted while we looked
            continue
        except NewerFormat as exc:
            games.append(SavedGame(game_id, path, NEWER, problem=str(exc)))
            continue
        except DamagedLog as exc:
            if quarantine_damaged:
                path = quarantine(path, exc.reason, now)
            games.append(SavedGame(game_id, path, DAMAGED, problem=exc.reason))
            continue
        ended = bool(loaded.events) and loaded.events[-1]["type"] == "GameEnded"
        status = FINISHED if ended else IN_PROGRESS
        games.append(SavedGame(game_id, path, status, loaded.header, loaded.events, None, loaded.warnings))
    games.sort(key=lambda g: g.game_id, reverse=True)  # ids start with the UTC creation time
    return games


def latest_unfinished(data_dir: str | os.PathLike[str], validate: Validator | None = None) -> SavedGame | None:
    """The newest game in progress, or None. Never moves files."""
    return next((g for g in list_games(data_dir, validate) if g.status == IN_PROGRESS), None)


def delete_game(data_dir: str | os.PathLike[str], game_id: str) -> None:
    """Delete a saved game for good. Raises :class:`InvalidGameId` for a bad
    id, :class:`GameNotFound` if there is no such game."""
    path = game_path(data_dir, game_id)
    try:
        path.unlink()
    except FileNotFoundError:
        raise GameNotFound(f"there is no saved game {game_id}") from None


def export_game(data_dir: str | os.PathLike[str], game_id: str, dest_path: str | os.PathLike[str]) -> Path:
    """Copy a game's file, byte for byte, to ``dest_path`` (or into it, as
    ``<game-id>.jsonl``, if it is a directory). Returns the path written.
    Raises :class:`InvalidGameId`, :class:`GameNotFound`, :class:`GameExists`
    if the destination exists (never overwritten), ``OSError`` otherwise."""
    source = game_path(data_dir, game_id)
    dest = Path(dest_path)
    if dest.is_dir():
        dest = dest / source.name
    try:
        data = source.read_bytes()
    except FileNotFoundError:
        raise GameNotFound(f"there is no saved game {game_id}") from None
    try:
        _fs.write_file(dest, data)
    except FileExistsError:
        raise GameExists(f"{dest} already exists; choose another name") from None
    return dest


def import_game(
    data_dir: str | os.PathLike[str], src_path: str | os.PathLike[str], validate: Validator | None = None
) -> str:
    """Add the game in ``src_path`` to the library under its header's game id
    and return that id. The file is checked (and migrated) by :func:`load`
    first, and written in the current format without any torn tail. Raises as
    :func:`load` does, and :class:`GameExists` if the id is taken (never overwritten)."""
    loaded = load(src_path, validate)
    game_id = loaded.header["game_id"]  # load() checked it is a valid id
    target = game_path(data_dir, game_id, create=True)
    data = b"".join(encode_line(obj) for obj in [loaded.header, *loaded.events])
    try:
        _fs.write_file(target, data)
    except FileExistsError:
        raise GameExists(f"a saved game {game_id} already exists") from None
    return game_id
