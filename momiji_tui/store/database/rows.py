"""Rows ↔ the save format: a game read from the database is checked exactly
as its save file would be (``log.parse_log``), from the lines its rows make.

Kept apart from the queries so it can be read (and tested) without a server.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from ..errors import DamagedLog
from ..log import Event, Header, LoadedLog, Validator, encode_line, encode_move, parse_log

#: Events that end a game: a move holding one marks the game finished.
GAME_ENDED = "GameEnded"


def game_name(game_id: str) -> Path:
    """What names a database game in a :class:`DamagedLog`/``LoadedLog``: its
    id (the file it exports to is ``<id>.jsonl``)."""
    return Path(game_id)


def move_objects(events: Sequence[Event], saved_at: datetime) -> list[Event]:
    """One move's events as the save file's line objects (the move mark on all
    but the last, ``saved_at`` on the last). Raises ``TypeError``/``ValueError``
    for an event that is not a JSON-able dict with a ``"type"``, as
    ``GameLog.extend`` does."""
    return [json.loads(line) for line in encode_move(list(events), saved_at)]


def check_rows(game_id: str, rows: Sequence[tuple[int, Any]]) -> None:
    """Every row must hold an event object with a ``"type"`` and the
    positions must run 1, 2, 3… with no gap. Raises :class:`DamagedLog`
    naming the first position at fault."""
    for expected, (position, event) in enumerate(rows, start=1):
        if position != expected:
            raise DamagedLog(game_name(game_id), f"The event at position {expected} is missing from the database.")
        if not isinstance(event, dict):
            raise DamagedLog(game_name(game_id), f"The event at position {position} is not an event object.")
        if not isinstance(event.get("type"), str) or not event["type"]:
            raise DamagedLog(game_name(game_id), f'The event at position {position} has no "type".')


def loaded_from_rows(game_id: str, header: object, rows: Sequence[tuple[int, Any]],
                     validate: Validator | None = None) -> LoadedLog:
    """The game as :func:`~momiji_tui.store.load` would give its save file:
    migrated, checked (``validate`` too), move marks removed. Raises
    :class:`DamagedLog` (a damaged row or header, rules that reject it) or
    :class:`NewerFormat`/``NewerRules`` (made by a newer momiji)."""
    check_rows(game_id, rows)
    try:
        data = encode_line(header) + b"".join(encode_line(event) for _, event in rows)
    except (TypeError, ValueError) as exc:
        raise DamagedLog(game_name(game_id), f"A row cannot be read as JSON ({exc}).") from None
    return parse_log(game_name(game_id), data, validate)


def file_bytes(header: Header, rows: Sequence[tuple[int, Any]]) -> bytes:
    """The save file a game's rows make, line for line (header, then each
    stored event object as it is)."""
    return encode_line(header) + b"".join(encode_line(event) for _, event in rows)


def is_finished(events: Sequence[Event]) -> bool:
    """True if one of ``events`` ends the game."""
    return any(e.get("type") == GAME_ENDED for e in events)
