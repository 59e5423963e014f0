"""Saved games as a player sees them: one summary line per game (for the
saved-games screen and ``momiji list``), and finding one game by id (for
``momiji resume/replay/delete/export``)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .. import engine
from ..engine.rules_data import RULES_VERSION
from ..safe_text import safe_text
from ..store import (
    DAMAGED,
    FINISHED,
    IN_PROGRESS,
    NEWER,
    DamagedLog,
    GameNotFound,
    LoadedLog,
    NewerFormat,
    SavedGame,
    StoreError,
    game_path,
    load,
)
from ..store.ids import as_utc
from ..store.log import play_order_of
from ..store.library import game_files, last_played_key, load_saved, read_index, write_index
from ..store.paths import GAME_SUFFIX, games_dir
from .table import checked_state, seat_configs, validate_log
from .tutorial import SEAT_NAMES, is_tutorial, lesson_label


@dataclass(frozen=True)
class SavedGameRow:
    """One saved game: id, status (in progress / finished / damaged / newer
    version), when it started and was last played, seats, turn, scores,
    where the file is now, the ``problem`` in plain words when it cannot be
    opened, and ``notes`` (e.g. a last move cut off by a crash, or a damaged
    file that could not be moved aside); ``hints``: ``hints: 3`` when hints
    were shown in the game, else ""."""

    game_id: str
    status: str
    seats: str
    turn: str
    scores: str
    path: Path
    problem: str | None
    started: str = ""
    notes: tuple[str, ...] = field(default=())
    played: str = ""
    hints: str = ""

    @property
    def can_open(self) -> bool:
        """True when the game loads (so it can be resumed or replayed)."""
        return self.problem is None


def started_text(game_id: str, header: dict | None = None) -> str:
    """When the game started, ``YYYY-MM-DD HH:MM`` UTC: from the header's
    ``created``, else from the id (ids begin with the UTC creation time)."""
    moment = None
    if header is not None:
        try:
            moment = datetime.fromisoformat(header["created"]).astimezone(UTC)
        except (KeyError, TypeError, ValueError):
            moment = None
    if moment is None:
        try:
            moment = datetime.strptime(game_id[:15], "%Y%m%d-%H%M%S").replace(tzinfo=UTC)
        except ValueError:
            return ""
    return f"{moment:%Y-%m-%d %H:%M}"


def played_text(moment: datetime | None) -> str:
    """When the game was last played, ``YYYY-MM-DD HH:MM`` UTC ("" if unknown)."""
    return "" if moment is None else f"{moment.astimezone(UTC):%Y-%m-%d %H:%M}"


def turn_text(state: engine.GameState) -> str:
    """Where the game is: ``draft``, ``round 3, turn 7`` or ``ended, round 9``."""
    if state.phase == "draft":
        return "draft"
    turns = sum(s.turns for s in state.seats)
    if state.phase == "ended":
        return f"ended, round {state.round - 1 if turns else state.round}"
    return f"round {state.round}, turn {turns + 1}"


def seat_label(seat: object) -> str:
    """A saved seat as listed: its name, and a bot's level (``Kaede (hard)``)
    unless the name already says it."""
    if not isinstance(seat, dict):
        return safe_text(str(seat))
    name = safe_text(str(seat.get("name", "?")))
    level = safe_text(str(seat.get("level") or ""))
    if seat.get("kind") == "bot" and level and not name.endswith(f"({level})"):
        return f"{name} ({level})"
    return name


def hints_text(state: engine.GameState) -> str:
    """``hints: 3`` when the game's seats were shown hints (``HintShown``), else ""."""
    used = sum(state.hints)
    return f"hints: {used}" if used else ""


def describe(game: SavedGame, state: engine.GameState | None = None) -> SavedGameRow:
    """The row for one listed game; ``state`` is what its events fold to,
    when the caller has it already (else they are folded here)."""
    if game.status in (DAMAGED, NEWER) or game.events is None or game.header is None:
        notes = () if game.not_moved is None else (
            f"The file could not be moved aside ({game.not_moved}); it was left where it is.",)
        return SavedGameRow(game.game_id, game.status, "", "", "", game.path, game.problem,
                            started_text(game.game_id, game.header), notes)
    if state is None:
        state = engine.fold(engine.from_dict(e) for e in game.events)
    names = [seat_label(s) for s in game.header.get("seats", [])]
    sheet = engine.score(state)
    scores = " · ".join(str(s.total) for s in sheet.seats)
    turn = turn_text(state)
    if game.events and is_tutorial([engine.from_dict(game.events[0])]):  # a lesson game: named by its lesson
        turn = lesson_label([engine.from_dict(e) for e in game.events]) or turn
    return SavedGameRow(game.game_id, game.status, ", ".join(names), turn, scores, game.path, None,
                        started_text(game.game_id, game.header), tuple(game.warnings),
                        played_text(game.last_played), hints_text(state))


def describe_saved_games(data_dir: str | os.PathLike[str]) -> list[SavedGameRow]:
    """Every saved game, last played first. Damaged files are listed with
    their problem (and moved aside, never overwritten, when the data dir
    allows it: else a note says why not); they never stop the rest. A game
    from a newer momiji is listed as such and never touched."""
    return [row for _, row in indexed_games(data_dir, quarantine_damaged=True)]


def describe_file(path: str | os.PathLike[str]) -> SavedGameRow:
    """The row for the game in ``path``, whatever its state; never moves it."""
    path = Path(path)
    game_id = path.name.split(".", 1)[0]
    try:
        loaded = load(path, validate_log)
    except NewerFormat as exc:
        return describe(SavedGame(game_id, path, NEWER, problem=str(exc)))
    except DamagedLog as exc:
        return describe(SavedGame(game_id, path, DAMAGED, problem=exc.reason))
    ended = bool(loaded.events) and loaded.events[-1]["type"] == "GameEnded"
    return describe(SavedGame(game_id, path, FINISHED if ended else IN_PROGRESS, loaded.header, loaded.events,
                              None, loaded.warnings, loaded.last_played))


def find_game(data_dir: str | os.PathLike[str], game_id: str) -> Path:
    """The file of saved game ``game_id``. Raises ``InvalidGameId`` for a bad
    id and ``GameNotFound`` (saying so when only moved-aside copies exist)."""
    path = game_path(data_dir, game_id)
    if path.exists():
        return path
    aside = sorted(p.name for p in games_dir(data_dir, create=False).glob(f"{game_id}{GAME_SUFFIX}.*")
                   if not p.name.endswith(".txt"))
    if aside:
        raise GameNotFound(f"The saved game {game_id} was damaged and moved aside as {aside[-1]} "
                           f"in {path.parent}; it cannot be opened.")
    raise GameNotFound(f"No saved game {game_id} in {Path(data_dir)}.")


def unfinished_games(data_dir: str | os.PathLike[str]) -> list[SavedGame]:
    """Every game in progress, last played first, checked by the rules (so a
    game from newer rules or a damaged one is never offered). Never moves
    files. Raises ``OSError`` if the games folder cannot be read."""
    return [game for game, _ in indexed_games(data_dir) if game.status == IN_PROGRESS]


def latest_unfinished_game(data_dir: str | os.PathLike[str]) -> SavedGame | None:
    """The game in progress played last, checked by the rules (so a game from
    newer rules or a damaged one is never offered), or None. Never moves files."""
    return next(iter(unfinished_games(data_dir)), None)


def game_title(game: SavedGame) -> str:
    """How a game in progress is named (the menu's *Continue*): its lesson
    (``"Learn to play, lesson 3/7"``, ``tutorial.lesson_label``) when it is
    the tutorial's game, else its id. The file is read only for a game
    seated as the tutorial is (its header's seat names); one that cannot be
    read is named by its id."""
    seats = (game.header or {}).get("seats")
    names = tuple(s.get("name") for s in seats if isinstance(s, dict)) if isinstance(seats, list) else ()
    if names != SEAT_NAMES:
        return game.game_id
    try:
        raw = game.events if game.events is not None else open_saved(game.path).events
        return lesson_label([engine.from_dict(e) for e in raw]) or game.game_id
    except (StoreError, OSError, ValueError, KeyError, TypeError):
        return game.game_id


def open_saved(path: str | os.PathLike[str]) -> LoadedLog:
    """Load a saved game and check it against the rules (raises the store's
    ``DamagedLog``/``NewerFormat``, ``FileNotFoundError``). Never writes."""
    return load(path, validate_log)


# ----------------------------------------------------------------- the index
#
# ``<games>/.saves-index.json`` keeps each listed game's row beside the saves,
# keyed by its file's size, modification time and inode: a row is used only
# while its file is exactly the one it was made from (a move, a copy renamed
# over it, an edit: the file is read again). Damaged games and games of a
# newer momiji are never kept (they are looked at every time). A missing,
# damaged or foreign index is simply rebuilt; one that cannot be written only
# means the next look reads the files again. So the index is a hint, never
# the truth, and a list of 5,000 games costs one ``stat`` per file.

INDEX_FORMAT = 3  # 3: a tutorial's turn is its lesson


def indexed_games(data_dir: str | os.PathLike[str], *,
                  quarantine_damaged: bool = False) -> list[tuple[SavedGame, SavedGameRow]]:
    """Every saved game and its row, last played first (as ``list_games``,
    whose checks a file the index does not vouch for goes through). The
    games taken from the index carry their header (its seats as
    ``seat_configs`` reads them) but no events. Raises ``OSError`` if the
    games folder cannot be read."""
    old = _read_index(data_dir)
    new: dict[str, dict[str, Any]] = {}
    out = []
    for path in game_files(data_dir):
        try:
            info = path.stat()
        except FileNotFoundError:
            continue
        key = [info.st_size, info.st_mtime_ns, info.st_ino]
        entry = old.get(path.name)
        pair = _from_entry(path, entry) if entry is not None and entry.get("key") == key else None
        if pair is None:
            check = _FoldOnce()
            game = load_saved(path, check, quarantine_damaged=quarantine_damaged)
            if game is None:
                continue
            pair, entry = (game, describe(game, check.state)), None
            if game.status in (IN_PROGRESS, FINISHED):
                entry = _to_entry(key, *pair)
                pair = _from_entry(path, entry) or pair  # the events are not kept: as the index will give it
        if entry is not None:
            new[path.name] = entry
        out.append(pair)
    if new != old:
        write_index(data_dir, json.dumps({"format": INDEX_FORMAT, "rules": RULES_VERSION, "games": new},
                                         separators=(",", ":")).encode("utf-8"))
    out.sort(key=lambda pair: last_played_key(pair[0]), reverse=True)
    return out


class _FoldOnce:
    """``validate_log`` that keeps the state it folded, so a game read for
    the index is folded once (checking it and describing it)."""

    state: engine.GameState | None = None

    def __call__(self, header: dict, events: list[dict]) -> None:
        self.state = checked_state(header, events)


def _read_index(data_dir: str | os.PathLike[str]) -> dict[str, dict[str, Any]]:
    raw = read_index(data_dir)
    try:
        data = json.loads(raw.decode("utf-8")) if raw is not None else None
    except (UnicodeDecodeError, ValueError, RecursionError):
        return {}
    if not isinstance(data, dict) or data.get("format") != INDEX_FORMAT or data.get("rules") != RULES_VERSION:
        return {}
    games = data.get("games")
    return {k: v for k, v in games.items() if isinstance(v, dict)} if isinstance(games, dict) else {}


_ROW_TEXT = ("status", "seats", "turn", "scores", "started", "played", "hints")


def _to_entry(key: list[int], game: SavedGame, row: SavedGameRow) -> dict[str, Any]:
    header = dict(game.header or {})
    header["seats"] = [{"name": s.name, "kind": s.kind, "level": s.level} for s in seat_configs(header)]
    return {"key": key, "header": header, "notes": list(row.notes),
            "last_played": None if game.last_played is None else game.last_played.isoformat(),
            "play_order": game.play_order,
            **{k: getattr(row, k) for k in _ROW_TEXT}}


def _from_entry(path: Path, entry: dict[str, Any]) -> tuple[SavedGame, SavedGameRow] | None:
    """The game and row an index entry holds, its text made safe to show;
    None if the entry is not one this index writes (it is then read again)."""
    try:
        texts = {k: safe_text(entry[k]) for k in _ROW_TEXT}
        notes = tuple(safe_text(n) for n in entry["notes"])
        header = dict(entry["header"])
        header["seats"] = [{"name": safe_text(seat["name"]), "kind": seat["kind"], "level": seat["level"]}
                           for seat in header["seats"]]  # as ``_to_entry`` writes them (seat_configs)
        played = entry["last_played"]
        last_played = None if played is None else as_utc(datetime.fromisoformat(played))
        order = entry["play_order"]
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    if texts["status"] not in (IN_PROGRESS, FINISHED) or not isinstance(header, dict):
        return None
    if order is not None and play_order_of(order) is None:
        return None
    game_id = path.name[: -len(GAME_SUFFIX)]
    game = SavedGame(game_id, path, texts["status"], header, None, None, list(notes), last_played,
                     play_order=order)
    row = SavedGameRow(game_id, texts["status"], texts["seats"], texts["turn"], texts["scores"], path, None,
                       texts["started"], notes, texts["played"], texts["hints"])
    return game, row
