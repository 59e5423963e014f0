"""The saved-games library: list, resume, delete, export and import games."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from . import _fs, lock
from .aside import quarantine
from .errors import DamagedLog, GameExists, GameInUse, GameNotFound, NewerFormat, StoreError, WriteFailed
from .ids import as_utc, is_game_id
from .log import Event, Header, Validator, encode_line, load
from .review_cache import drop_review_cache, read_small_regular_file
from .paths import GAME_SUFFIX, game_path, games_dir
from .play_order import last_play_order

IN_PROGRESS = "in progress"
FINISHED = "finished"
DAMAGED = "damaged"
NEWER = "newer version"  # newer save format or rules: not damaged, never moved aside or rewritten


@dataclass
class SavedGame:
    """One file in the games dir. ``header``/``events`` are None unless it loaded;
    ``problem`` says in plain words why it did not. ``status`` is one of
    ``IN_PROGRESS``, ``FINISHED``, ``DAMAGED``, ``NEWER``; ``path`` is where the
    file is now (its quarantine name if it was moved aside); ``not_moved`` why
    a damaged file could not be moved aside (it was left as it was);
    ``last_played`` when its last move was saved (UTC; None if unknown);
    ``play_order`` its last move's play-order stamp (``play_order``; None
    if it has none)."""

    game_id: str
    path: Path
    status: str
    header: Header | None = None
    events: list[Event] | None = None
    problem: str | None = None
    warnings: list[str] = field(default_factory=list)
    last_played: datetime | None = None
    not_moved: str | None = None
    play_order: int | None = None


def list_games(
    data_dir: str | os.PathLike[str],
    validate: Validator | None = None,
    *,
    quarantine_damaged: bool = False,
    now: datetime | None = None,
) -> list[SavedGame]:
    """Every ``<game-id>.jsonl`` in the games dir (other names are ignored),
    last played first (:func:`last_played_key`). A file that fails to load is listed, never
    raised; a damaged one is moved aside with :func:`quarantine` only if
    ``quarantine_damaged`` (``now`` dates that move); if it cannot be (a
    read-only data dir, open for play), ``not_moved`` says why and it stays.
    Returns [] if there is no games dir."""
    games = []
    for path in game_files(data_dir):
        game = load_saved(path, validate, quarantine_damaged=quarantine_damaged, now=now)
        if game is not None:
            games.append(game)
    games.sort(key=last_played_key, reverse=True)
    return games


def game_files(data_dir: str | os.PathLike[str]) -> list[Path]:
    """Every ``<game-id>.jsonl`` in the games dir (other names are ignored;
    [] if there is no games dir)."""
    folder = games_dir(data_dir, create=False)
    if not folder.is_dir():
        return []
    with os.scandir(folder) as entries:
        names = [e.name for e in entries if e.name.endswith(GAME_SUFFIX)]
    return [folder / n for n in names if is_game_id(n[: -len(GAME_SUFFIX)])]


def load_saved(path: Path, validate: Validator | None = None, *, quarantine_damaged: bool = False,
               now: datetime | None = None) -> SavedGame | None:
    """One game file as :func:`list_games` lists it (None if it was deleted
    while we looked)."""
    game_id = path.name[: -len(GAME_SUFFIX)]
    try:
        loaded = load(path, validate)
    except FileNotFoundError:  # deleted while we looked
        return None
    except NewerFormat as exc:
        return SavedGame(game_id, path, NEWER, problem=str(exc), play_order=last_play_order(path) or None)
    except DamagedLog as exc:
        order, not_moved = last_play_order(path) or None, None
        if quarantine_damaged:
            try:
                path = quarantine(path, exc.reason, now)
            except GameInUse:
                not_moved = "it is open for play elsewhere"
            except WriteFailed as failed:
                not_moved = failed.reason
            except OSError as failed:  # e.g. no free name left
                not_moved = str(failed)
        return SavedGame(game_id, path, DAMAGED, problem=exc.reason, not_moved=not_moved, play_order=order)
    ended = bool(loaded.events) and loaded.events[-1]["type"] == "GameEnded"
    status = FINISHED if ended else IN_PROGRESS
    return SavedGame(game_id, path, status, loaded.header, loaded.events, None, loaded.warnings, loaded.last_played,
                     play_order=loaded.play_order)


INDEX_NAME = ".saves-index.json"
MAX_INDEX_BYTES = 64 * 1024 * 1024
"""A larger index is not ours (5,000 games make about 3 MB)."""


def read_index(data_dir: str | os.PathLike[str]) -> bytes | None:
    """The saves index's bytes (``<games>/.saves-index.json``), if it is a
    regular file of at most ``MAX_INDEX_BYTES``; else None. Never raises."""
    return read_small_regular_file(games_dir(data_dir, create=False) / INDEX_NAME, MAX_INDEX_BYTES)


def write_index(data_dir: str | os.PathLike[str], data: bytes) -> bool:
    """Replace the saves index atomically; False (nothing written) if the
    folder refuses (read-only, disk full): the index is only a hint."""
    try:
        _fs.write_file(games_dir(data_dir, create=False) / INDEX_NAME, data, replace=True)
    except OSError:
        return False
    return True


def last_played_key(game: SavedGame) -> tuple[int, datetime, str]:
    """Sort key, highest last played: the play-order stamp of its last move
    (``play_order``; 0 without one, so an unstamped game comes after every
    stamped one), then when it was last played (UTC; from the id when the
    file does not load: ids begin with the UTC creation time), then the id
    (so ties are always in the same order)."""
    if game.last_played is not None:
        return game.play_order or 0, as_utc(game.last_played), game.game_id
    created = datetime.strptime(game.game_id[:15], "%Y%m%d-%H%M%S").replace(tzinfo=UTC)
    return game.play_order or 0, created, game.game_id


def latest_unfinished(data_dir: str | os.PathLike[str], validate: Validator | None = None) -> SavedGame | None:
    """The game in progress played last, or None. Never moves files."""
    return next((g for g in list_games(data_dir, validate) if g.status == IN_PROGRESS), None)


def check_deletable(data_dir: str | os.PathLike[str], game_id: str) -> None:
    """Raise what :func:`delete_game` would raise now, deleting nothing, so
    a front end refuses before asking "delete for good?": :class:`InvalidGameId`,
    :class:`GameNotFound`, :class:`GameInUse` (open for play, saying where),
    :class:`WriteFailed`. The delete itself checks again."""
    path = game_path(data_dir, game_id)
    if not path.exists():
        raise GameNotFound(f"there is no saved game {game_id}")
    lock.acquire(path, "momiji delete", action="delete the game").release()


def delete_game(data_dir: str | os.PathLike[str], game_id: str) -> None:
    """Delete a saved game for good. Raises :class:`InvalidGameId` for a bad
    id, :class:`GameNotFound` if there is no such game, :class:`GameInUse` if
    it is open for play, :class:`WriteFailed` if the disk refuses."""
    path = game_path(data_dir, game_id)
    if not path.exists():
        raise GameNotFound(f"there is no saved game {game_id}")
    held = lock.acquire(path, "momiji delete", action="delete the game")
    try:
        os.unlink(path)
    except FileNotFoundError:
        raise GameNotFound(f"there is no saved game {game_id}") from None
    except OSError as exc:
        raise WriteFailed("delete the game", path, exc) from exc
    finally:
        held.release()
    drop_review_cache(path)


def export_game(data_dir: str | os.PathLike[str], game_id: str, dest_path: str | os.PathLike[str]) -> Path:
    """Copy a game's file, byte for byte, to ``dest_path`` (or into it, as
    ``<game-id>.jsonl``, if it is a directory). Returns the path written.
    Raises :class:`InvalidGameId`, :class:`GameNotFound`, :class:`GameExists`
    if the destination exists (never overwritten), :class:`StoreError` if
    the source cannot be read, :class:`WriteFailed` if the destination cannot
    be written (nothing is left there). Never needs the game's lock."""
    source = game_path(data_dir, game_id)
    dest = Path(dest_path)
    if dest.is_dir():
        dest = dest / source.name
    try:
        data = source.read_bytes()
    except FileNotFoundError:
        raise GameNotFound(f"there is no saved game {game_id}") from None
    except OSError as exc:
        raise StoreError(f"The saved game {game_id} could not be read ({exc.strerror or exc}).") from exc
    try:
        _fs.write_file(dest, data)
    except FileExistsError:
        raise GameExists(f"{dest} already exists; choose another name") from None
    except OSError as exc:
        raise WriteFailed(f"export {game_id}", dest, exc) from exc
    return dest


def import_game(
    data_dir: str | os.PathLike[str], src_path: str | os.PathLike[str], validate: Validator | None = None
) -> str:
    """Add the game in ``src_path`` to the library under its header's game id
    and return that id. The file is checked (and migrated) by :func:`load`
    first, and written in the current format without any torn tail. Raises as
    :func:`load` does, :class:`GameExists` if the id is taken (never
    overwritten), :class:`WriteFailed` if the disk refuses (nothing is added)."""
    loaded = load(src_path, validate)
    game_id = str(loaded.header["game_id"])  # load() checked it is a valid id
    try:
        target = game_path(data_dir, game_id, create=True)
    except OSError as exc:
        raise WriteFailed(f"import {game_id}", Path(data_dir) / "games", exc) from exc
    data = b"".join(encode_line(obj) for obj in [loaded.header, *loaded.events])
    try:
        _fs.write_file(target, data)
    except FileExistsError:
        raise GameExists(f"a saved game {game_id} already exists") from None
    except OSError as exc:
        raise WriteFailed(f"import {game_id}", target, exc) from exc
    return game_id
