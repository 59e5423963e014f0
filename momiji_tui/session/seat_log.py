"""Who controls each seat of a shared table, read from the game's own log, and
the migration of the seats files that held it before.

A shared game's log records every change of hands as a
``SeatControlChanged`` event (``engine/events.py``), appended by the lobby
like a move: the owners' account ids (``"seated"``), a player leaving
(``"left"``), a bot playing for them after the wait (``"bot after a
wait"``) and their return (``"back"``). Folding the log alone says who
controlled each seat at each point.

Before, that lived beside the log in ``<data>/tables/seats/<game-id>.json``
(format ``momiji-shared-table``, version 1). :func:`migrate_seats_files`
turns each such file into events appended to its game's log (one move, under
the game's write lock, fsynced) and only then moves it aside as
``<game-id>.json.migrated`` (a finished game gets no events: its seats no
longer matter, and its last event stays ``GameEnded``); a damaged one is moved aside as
``*.damaged-<time>`` (the store's :func:`~momiji_tui.store.quarantine`) and
reported, and its game opens with its header's seats.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..engine.events import SeatControlChanged
from ..store import DamagedLog, NewerFormat, StoreError, is_game_id, load, quarantine
from .table import ACCOUNT_ID_RE
from .table import HUMAN, Table

log = logging.getLogger("momiji_tui.lobby")

PLAYER, BOT_CONTROL = "player", "bot"
SEATED, LEFT, BOT_AFTER_WAIT, BACK = "seated", "left", "bot after a wait", "back"
OLD_SEATS_FORMAT = "momiji-shared-table"
MIGRATED_SUFFIX = ".migrated"


def seated(seat: int, account: str) -> SeatControlChanged:
    """``account`` owns ``seat`` and plays it (the table starts)."""
    return SeatControlChanged(seat, PLAYER, account, SEATED)


def left(seat: int, account: str | None) -> SeatControlChanged:
    """The owner went away; the seat waits for them (nobody plays it)."""
    return SeatControlChanged(seat, PLAYER, account, LEFT)


def bot_for(seat: int, account: str | None) -> SeatControlChanged:
    """A bot plays ``seat`` for its absent owner."""
    return SeatControlChanged(seat, BOT_CONTROL, account, BOT_AFTER_WAIT)


def back(seat: int, account: str | None) -> SeatControlChanged:
    """The owner is back and plays the seat again."""
    return SeatControlChanged(seat, PLAYER, account, BACK)


@dataclass(frozen=True)
class SeatSummary:
    """A shared game as its log tells it, without folding the rules:
    ``names`` and ``owners`` (account id or None) per seat, ``bot_for`` the
    seats a bot plays for their owner, and whether it ``finished``."""

    names: tuple[str, ...]
    owners: tuple[str | None, ...]
    bot_for: frozenset[int]
    finished: bool


def summarize(header: dict[str, Any], events: list[dict[str, Any]]) -> SeatSummary:
    """Read the seats of a loaded shared log (the store's dicts). Raises
    ``ValueError`` for a header without a list of seats."""
    seats = header.get("seats")
    if not isinstance(seats, list):
        raise ValueError("the header lists no seats")
    names = tuple(str(s.get("name", "")) if isinstance(s, dict) else "" for s in seats)
    owners: list[str | None] = [None] * len(names)
    bots: set[int] = set()
    finished = False
    for e in events:
        kind = e.get("type")
        if kind == "GameEnded":
            finished = True
        elif kind == "SeatControlChanged":
            seat = e.get("seat")
            if isinstance(seat, int) and 0 <= seat < len(names):
                player = e.get("player")
                owners[seat] = player if isinstance(player, str) else None
                (bots.add if e.get("control") == BOT_CONTROL else bots.discard)(seat)
    return SeatSummary(names, tuple(owners), frozenset(bots), finished)


def read_summary(path: Path) -> SeatSummary | None:
    """:func:`summarize` of the log at ``path``; None for a log that is
    missing, damaged or from a newer momiji (listings skip it)."""
    try:
        loaded = load(path)
        return summarize(loaded.header, loaded.events)
    except (OSError, StoreError, ValueError):
        return None


def owners_index(games_dir: Path) -> dict[str, set[str]]:
    """Account id -> ids of the unfinished shared games where it owns a seat."""
    index: dict[str, set[str]] = {}
    for path in sorted(games_dir.glob("*.jsonl")) if games_dir.is_dir() else []:
        if not is_game_id(path.stem):
            continue
        summary = read_summary(path)
        if summary is None or summary.finished:
            continue
        for owner in summary.owners:
            if owner is not None:
                index.setdefault(owner, set()).add(path.stem)
    return index


# -- migration of the seats files older versions wrote ----------------------------
def events_of_seats_file(record: object) -> list[SeatControlChanged]:
    """The events an old seats file stands for, in order: each human seat's
    owner seated, then every takeover ("bot") and return ("returned").
    Raises ``ValueError`` for a file that is not a seats file."""
    if (not isinstance(record, dict) or record.get("format") != OLD_SEATS_FORMAT
            or not isinstance(record.get("seats"), list) or not isinstance(record.get("takeovers"), list)):
        raise ValueError("it is not a momiji seats file")
    owners: dict[int, str] = {}
    out: list[SeatControlChanged] = []
    for i, seat in enumerate(record["seats"]):
        if not isinstance(seat, dict):
            raise ValueError(f"seat {i} is not an object")
        account = seat.get("account")
        if seat.get("kind") == HUMAN:
            if not isinstance(account, str) or not ACCOUNT_ID_RE.fullmatch(account):
                raise ValueError(f"seat {i} has no valid account")
            owners[i] = account
            out.append(seated(i, account))
    for entry in record["takeovers"]:
        seat_no = entry.get("seat") if isinstance(entry, dict) else None
        if not isinstance(seat_no, int) or seat_no not in owners:
            raise ValueError(f"a takeover names no human seat: {entry!r}")
        what = entry.get("what")
        if what not in ("bot", "returned"):
            raise ValueError(f"a takeover says neither bot nor returned: {entry!r}")
        out.append((bot_for if what == "bot" else back)(seat_no, owners[seat_no]))
    return out


def migrate_seats_files(tables_dir: Path, *, holder: str = "the momiji server") -> None:
    """Turn every ``<tables_dir>/seats/<id>.json`` into seat events in
    ``<tables_dir>/games/<id>.jsonl`` (see the module docstring). Never
    raises for one game: a problem is logged and that file is kept (a game
    open elsewhere or a full disk: tried again at the next start; a damaged
    seats file: moved aside)."""
    folder = tables_dir / "seats"
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        if is_game_id(path.stem):
            migrate_seats_file(path, tables_dir / "games" / f"{path.stem}.jsonl", holder=holder)


def migrate_seats_file(path: Path, game_path: Path, *, holder: str = "the momiji server") -> bool:
    """Migrate one seats file into its game's log; True once it is moved
    aside as migrated. Logs and returns False when it cannot be done now."""
    game_id = path.stem
    try:
        events = events_of_seats_file(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError) as exc:
        _set_aside_damaged(path, game_id, f"The seats file is damaged ({exc}).")
        return False
    try:
        table = Table.resume(game_path, holder=holder)
    except (FileNotFoundError, DamagedLog, NewerFormat, StoreError) as exc:
        log.error("cannot migrate the seats file of %s: its game cannot be opened (%s)", game_id, exc)
        return False
    try:
        already = any(isinstance(e, SeatControlChanged) for e in table.events)  # a crash after the append
        # A finished game's last event stays GameEnded (lists and replays look for it).
        if events and not already and not table.finished:
            table.record(events)
    except ValueError as exc:  # the seats do not fit the game
        table.close()
        _set_aside_damaged(path, game_id, f"The seats file does not match its game ({exc}).")
        return False
    except StoreError as exc:
        table.close()
        log.error("cannot migrate the seats file of %s: %s", game_id, exc)
        return False
    table.close()
    try:
        os.replace(path, path.with_name(path.name + MIGRATED_SUFFIX))
    except OSError as exc:
        log.error("the seats of %s are in its log now, but %s could not be moved aside: %s", game_id, path, exc)
        return False
    log.info("game %s: its seats file is now %d events in its log", game_id, len(events))
    return True


def _set_aside_damaged(path: Path, game_id: str, why: str) -> None:
    try:
        aside = quarantine(path, why)
        log.error("the seats file of %s is damaged (%s); kept aside as %s; the game opens with "
                  "its header's seats", game_id, why, aside.name)
    except (OSError, StoreError) as exc:
        log.error("the seats file of %s is damaged (%s) and could not be moved aside: %s", game_id, why, exc)
