"""Moving games between the file store and the database, both ways.

A game goes over checked (as :func:`~momiji_tui.store.load` checks a file:
``validate`` too), never half: a damaged game or one from a newer momiji is
skipped and reported, a game already there is never overwritten. A game
moved and moved back folds to the same state: its events are the same
objects, in the same order.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from .. import _fs
from ..errors import DamagedLog, GameExists, GameNotFound, NewerFormat, Unstorable, WriteFailed
from ..library import FINISHED, IN_PROGRESS, list_games
from ..log import CURRENT_FORMAT_VERSION, LoadedLog, Validator, load
from ..paths import GAME_SUFFIX, game_path
from .rows import file_bytes, loaded_from_rows
from .sync import SyncGameStore

ALREADY_IN_DATABASE = "already in the database"
ALREADY_IN_FOLDER = "a save of it is already in that folder"


@dataclass
class Moved:
    """What a bulk move did: ``moved`` the ids moved, ``already`` those the
    other side had already (left as they were), ``skipped`` ``(id, why)``
    for games that could not go (damaged, newer, a disk that refused)."""

    moved: list[str] = field(default_factory=list)
    already: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)


def import_file(store: SyncGameStore, path: str | os.PathLike[str], validate: Validator | None = None) -> str:
    """Add the game in the save file ``path`` to the database; returns its id.
    Raises as :func:`~momiji_tui.store.load` does (``FileNotFoundError``,
    ``DamagedLog``, ``NewerFormat``) and ``GameExists`` if the database has it."""
    return store.import_loaded(load(path, validate))


def export_file(store: SyncGameStore, game_id: str, dest: str | os.PathLike[str],
                validate: Validator | None = None) -> Path:
    """Write the database's game ``game_id`` as a save file at ``dest`` (or
    into it as ``<id>.jsonl`` if it is a folder), never overwriting; returns
    the path written. Raises ``GameNotFound``, ``DamagedLog``/``NewerFormat``
    (nothing written), ``GameExists`` if the file exists, ``WriteFailed`` if
    the disk refuses (nothing is left there)."""
    header, rows = store.raw_game(game_id)
    loaded_from_rows(game_id, header, rows, validate)  # checked as its file would be, before anything is written
    target = Path(dest)
    if target.is_dir():
        target = target / f"{game_id}{GAME_SUFFIX}"
    try:
        _fs.write_file(target, file_bytes(header, rows))
    except FileExistsError:
        raise GameExists(f"{target} already exists; choose another name") from None
    except OSError as exc:
        raise WriteFailed(f"export {game_id}", target, exc) from exc
    return target


def import_all_from(store: SyncGameStore, data_dir: str | os.PathLike[str],
                    validate: Validator | None = None) -> Moved:
    """Every game of the file store in ``data_dir`` into the database (the
    files are left as they are). Raises ``OSError`` if the games folder
    cannot be read."""
    result = Moved()
    for game in list_games(data_dir, validate):
        if game.status not in (IN_PROGRESS, FINISHED) or game.header is None or game.events is None:
            result.skipped.append((game.game_id, f"{game.status}: {game.problem}"))
            continue
        loaded = LoadedLog(game.path, game.header, game.events, game.warnings, 0, CURRENT_FORMAT_VERSION,
                           game.last_played)
        try:
            store.import_loaded(loaded)
        except GameExists:
            result.already.append(game.game_id)
            continue
        except Unstorable as exc:
            result.skipped.append((game.game_id, f"it cannot be stored in the database: {exc.reason}."))
            continue
        result.moved.append(game.game_id)
    return result


def export_all_to(store: SyncGameStore, data_dir: str | os.PathLike[str],
                  validate: Validator | None = None) -> Moved:
    """Every game of the database into the file store in ``data_dir`` (as
    ``games/<id>.jsonl``; the rows are left as they are). Raises
    ``WriteFailed`` if the games folder cannot be made."""
    result = Moved()
    for game_id in store.game_ids():
        try:
            target = game_path(data_dir, game_id, create=True)
        except OSError as exc:
            raise WriteFailed("export the games", Path(data_dir) / "games", exc) from exc
        try:
            export_file(store, game_id, target, validate)
        except GameExists:
            result.already.append(game_id)
        except GameNotFound:  # deleted while we looked
            continue
        except NewerFormat as exc:
            result.skipped.append((game_id, f"newer version: {exc}"))
        except DamagedLog as exc:
            result.skipped.append((game_id, f"damaged: {exc.reason}"))
        except WriteFailed as exc:
            result.skipped.append((game_id, str(exc)))
        else:
            result.moved.append(game_id)
    return result
