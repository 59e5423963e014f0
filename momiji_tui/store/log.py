"""One game's event log on disk: ``<data dir>/games/<game-id>.jsonl``.

Line 1 is a header object, every further line one event object (compact
JSON, UTF-8, ending with ``\\n``). A line counts only once its ``\\n`` is on
disk: a last line without one is a *torn tail* (a crash while saving); it is
dropped on load, reported, and cut off before the next append.

Format 2 marks moves: the events of one ``extend`` call (one player's move)
are written and fsynced one by one, and every one but the last carries
``"move_continues": true``. If the last event on disk still says the move
continues, a crash cut that move in half: its events are dropped on load
(and reported), so a game never resumes with half a move. The mark is the
store's: callers never see it.

Format 3 also dates moves: the last event of each move carries
``"saved_at"`` (UTC, ISO-8601, milliseconds), the store's clock when it was
written; the last one is when the game was last played (``last_played``,
which orders Continue and the saved games). Older files have none: their
last play is their creation time. Like the move mark, it is the store's own.

Format 4 may hold events a momiji of format 3 cannot read: who controls a
seat of a shared table (``SeatControlChanged``). The lines are
written as in format 3; the bump only makes an older momiji list such a
game as *newer version* instead of calling it damaged and moving it aside.

A header may carry ``seed_sha256`` (any format): the SHA-256 a shared
table committed to before its first move (``session/deal_seed.py``). Older
momijis ignore it, so it needs no new format.

Format 5 may hold the hints a seat was shown (``HintShown``):
lines as in format 4; an older momiji lists such a game as *newer version*.

Format 6 also orders moves across the games of a library: the last event
of each move may carry ``"play_order"``, a whole number from a counter the
games folder shares (``play_order.next_play_order``: one more than the
highest stamp in the folder when the game was opened, then one more for
each move). A game's ``play_order`` is its last move's; "last played"
orders by it, then by time, so a clock set back or fast never reorders
games played one after the other. Files without it (older formats, or
written by the database store) come after every stamped game, by time
among themselves. Like the move mark, it is the store's own.

One writer at a time: a ``GameLog`` (``writer``) holds the game's write lock
(``lock``) from open to close; readers (:func:`load`) never take it and
never change a file.

The store knows nothing of the rules: events are JSON-able dicts with a
``"type"`` string. Old formats are upgraded on load by the ``MIGRATIONS`` chain.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .aside import quarantine
from .errors import DamagedLog, HeaderRejected, NewerFormat, NewerRules
from .ids import as_utc, is_game_id

__all__ = ["quarantine"]  # (moved to .aside; still importable from here)

FORMAT = "momiji-log"
CURRENT_FORMAT_VERSION = 6
MOVE_CONTINUES = "move_continues"
SAVED_AT = "saved_at"
PLAY_ORDER = "play_order"
STORE_KEYS = (MOVE_CONTINUES, SAVED_AT, PLAY_ORDER)
MAX_SAVE_BYTES = 64 * 2**20
"""A larger file is not a save (a game's log is well under 1 MB): it is
reported as damaged without being read into memory."""
MAX_PLAY_ORDER = 2**53 - 1
"""A larger stamp is not ours (ignored: the move counts as unstamped)."""

Header = dict[str, Any]
Event = dict[str, Any]
Migration = Callable[[Header, list[Event]], tuple[Header, list[Event]]]
Validator = Callable[[Header, list[Event]], None]

def _v1_to_v2(header: Header, events: list[Event]) -> tuple[Header, list[Event]]:
    """Format 1 did not mark moves: every event on disk counts as complete."""
    return header, events


def _v2_to_v3(header: Header, events: list[Event]) -> tuple[Header, list[Event]]:
    """Format 2 did not date moves: the game was last played when it was created."""
    return header, events


def _v3_to_v4(header: Header, events: list[Event]) -> tuple[Header, list[Event]]:
    """Format 3 had no seat-control events: its lines are format 4 as they are."""
    return header, events


def _v4_to_v5(header: Header, events: list[Event]) -> tuple[Header, list[Event]]:
    """Format 4 had no hint events: its lines are format 5 as they are."""
    return header, events


def _v5_to_v6(header: Header, events: list[Event]) -> tuple[Header, list[Event]]:
    """Format 5 did not order moves across games: its lines are format 6 as
    they are (a game without ``play_order`` stamps)."""
    return header, events


#: ``{N: step}``: ``step(header, events)`` turns format N into format N+1.
MIGRATIONS: dict[int, Migration] = {1: _v1_to_v2, 2: _v2_to_v3, 3: _v3_to_v4, 4: _v4_to_v5, 5: _v5_to_v6}


def utc_now() -> datetime:
    """The store's clock (tests replace it)."""
    return datetime.now(UTC)


def stamp(moment: datetime) -> str:
    """``moment`` as the store writes it: ISO-8601 UTC with milliseconds."""
    return as_utc(moment).isoformat(timespec="milliseconds")


def play_order_of(value: object) -> int | None:
    """``value`` if it is a play-order stamp this store writes (a whole
    number from 1 to ``MAX_PLAY_ORDER``), else None."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 < value <= MAX_PLAY_ORDER:
        return value
    return None

TORN_TAIL_WARNING = "The last move was cut off when the game was saved; it was dropped."
HALF_MOVE_WARNING = "The last move was only partly saved when the game stopped; it was dropped."


@dataclass
class LoadedLog:
    """A log read from disk, already migrated to ``CURRENT_FORMAT_VERSION``.

    ``warnings`` are sentences for the player; ``committed_size`` is the byte
    length of the complete lines; ``disk_version`` the format found on disk;
    ``last_played`` when the last move was saved (UTC, never later than the
    store's clock; the creation time for files older than format 3);
    ``play_order`` the last move's play-order stamp (None if it has none)."""

    path: Path
    header: Header
    events: list[Event]
    warnings: list[str] = field(default_factory=list)
    committed_size: int = 0
    disk_version: int = CURRENT_FORMAT_VERSION
    last_played: datetime | None = None
    play_order: int | None = None


_SHA256_HEX = re.compile(r"[0-9a-f]{64}")


def header_problem(header: object) -> str | None:
    """Why ``header`` is not a valid current-format header, in plain words; None if it is."""
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        return 'This is not a momiji-tui save (the first line lacks "format": "momiji-log").'
    if header.get("format_version") != CURRENT_FORMAT_VERSION:
        return f"The header has format version {header.get('format_version')!r}."
    if not is_game_id(header.get("game_id")):
        return "The header has no valid game id."
    if not isinstance(header.get("rules_version"), str):
        return "The header does not say which rules version the game uses."
    try:
        datetime.fromisoformat(header["created"])
    except (KeyError, TypeError, ValueError):
        return "The header has no valid creation time."
    if not isinstance(header.get("seats"), list):
        return "The header does not list the seats."
    seed = header.get("seed", "missing")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        return "The header's seed is not a whole number or null."
    commitment = header.get("seed_sha256", "")
    if not isinstance(commitment, str) or (commitment and not _SHA256_HEX.fullmatch(commitment)):
        return "The header's seed_sha256 is not 64 lowercase hex digits."
    return None


def encode_line(obj: object) -> bytes:
    """Compact JSON + ``\\n`` as UTF-8. Raises ``TypeError``/``ValueError`` if not JSON-able."""
    text = json.dumps(obj, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return (text + "\n").encode("utf-8")


def _check_event(event: object) -> Event:
    if not isinstance(event, dict):
        raise TypeError(f"an event must be a dict, not {type(event).__name__}")
    if not isinstance(event.get("type"), str) or not event["type"]:
        raise ValueError('an event needs a non-empty "type" string')
    return event


def load(path: str | os.PathLike[str], validate: Validator | None = None) -> LoadedLog:
    """Read, check and migrate the log at ``path``.

    A torn last line is dropped and reported in ``warnings``. Raises
    ``FileNotFoundError`` if there is no file; :class:`NewerFormat` for a
    format above ``CURRENT_FORMAT_VERSION``; :class:`DamagedLog` for anything
    else wrong: unreadable file, not a regular file, a file over
    ``MAX_SAVE_BYTES``, empty file, bad JSON or
    a bad header before the last line, an event that is not an object with a ``"type"``, a format
    with no migration path, or ``validate(header, events)`` raising.
    """
    path = Path(path)
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):  # e.g. a link to /dev/zero: never ends
            raise DamagedLog(path, "It is not a regular file.")
        if info.st_size > MAX_SAVE_BYTES:  # e.g. a disk image: never read whole into memory
            raise DamagedLog(path, f"It is too large to be a saved game ({info.st_size} bytes).")
        data = path.read_bytes()
    except FileNotFoundError:
        raise
    except OSError as exc:
        why = "permission denied" if isinstance(exc, PermissionError) else exc.strerror or exc
        raise DamagedLog(path, f"The file could not be read ({why}).") from exc
    return parse_log(path, data, validate)


def parse_log(path: Path, data: bytes, validate: Validator | None = None) -> LoadedLog:
    """Check and migrate a log's bytes as :func:`load` does (``path`` names it
    in errors and in the result; the database store passes its rows as the
    lines of the file they would make). Raises as :func:`load` does."""
    if not data:
        raise DamagedLog(path, "The file is empty.")
    *lines, tail = data.split(b"\n")
    warnings = [TORN_TAIL_WARNING] if tail else []
    if not lines:
        raise DamagedLog(path, "The file has no complete first line (it was cut off while saving).")
    objects = _parse_compact(data[: len(data) - len(tail)])
    if objects is None:  # not all compact lines: parse line by line, naming the first bad one
        objects = []
        for number, line in enumerate(lines, start=1):
            try:
                objects.append(json.loads(line.decode("utf-8")))
            except (ValueError, RecursionError):
                raise DamagedLog(path, f"Line {number} is not valid JSON.") from None
    header, events = objects[0], objects[1:]
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise DamagedLog(path, header_problem(header) or "Bad header.")
    version = header.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise DamagedLog(path, "The header has no format version.")
    if version > CURRENT_FORMAT_VERSION:
        raise NewerFormat(path, version, CURRENT_FORMAT_VERSION)
    for number, event in enumerate(events, start=2):
        if not isinstance(event, dict):
            raise DamagedLog(path, f"Line {number} is not an event object.")
    committed = len(data) - len(tail)
    last_played, play_order = None, None
    if version >= 2:
        complete = _complete_moves(events)
        if complete < len(events):
            warnings.append(HALF_MOVE_WARNING)
            committed = sum(len(line) + 1 for line in lines[: complete + 1])
            events = events[:complete]
        last_played = _last_saved_at(events)
        play_order = _last_play_order(events)
        _unmark(events)
    header, events = _migrate(path, header, events, version)
    problem = header_problem(header)
    if problem:
        raise DamagedLog(path, problem)
    for number, event in enumerate(events, start=2):
        if not isinstance(event.get("type"), str) or not event["type"]:
            raise DamagedLog(path, f'Line {number} is an event without a "type".')
    if validate is not None:
        try:
            validate(header, events)
        except NewerRules as exc:  # not damage: made by a newer momiji
            raise NewerRules(path, str(exc.found), str(exc.supported)) from None
        except HeaderRejected as exc:
            raise DamagedLog(path, str(exc)) from exc
        except Exception as exc:  # the rules reject the game: that is damage too
            why = str(exc)
            if not why.lower().startswith("the rules reject"):  # say it once
                why = f"The rules reject this game: {why}"
            raise DamagedLog(path, why) from exc
    if last_played is None:
        last_played = min(as_utc(datetime.fromisoformat(header["created"])), utc_now())
    return LoadedLog(path, header, events, warnings, committed, version, last_played, play_order)


def _last_saved_at(events: list[Event]) -> datetime | None:
    """When the game was last played: the latest ``saved_at`` of its moves
    (None if none is dated). The events' own order wins where the clock
    disagrees: a later move is never older than an earlier one, so a clock
    set back makes no move older than the one before it; a time in the
    future (a clock set fast) counts as now (``utc_now``)."""
    latest = None
    for event in events:
        value = event.get(SAVED_AT)
        if isinstance(value, str):
            try:
                moment = as_utc(datetime.fromisoformat(value))
            except ValueError:
                continue
            if latest is None or moment > latest:
                latest = moment
    if latest is None:
        return None
    return min(latest, utc_now())


def _last_play_order(events: list[Event]) -> int | None:
    """The play-order stamp of the last stamped move (None if none is)."""
    for event in reversed(events):
        order = play_order_of(event.get(PLAY_ORDER))
        if order is not None:
            return order
    return None


def _complete_moves(events: list[Event]) -> int:
    """How many leading events belong to moves saved whole (format 2)."""
    n = len(events)
    while n and events[n - 1].get(MOVE_CONTINUES) is True:
        n -= 1
    return n


def _unmark(events: list[Event]) -> None:
    """Take the store's own keys (``STORE_KEYS``) out of ``events``, in place:
    they are the dicts this parse just made, nobody else holds them."""
    for event in events:
        for key in STORE_KEYS:
            event.pop(key, None)


def encode_move(events: list[Event], saved_at: datetime | None = None, play_order: int | None = None) -> list[bytes]:
    """The lines of one move: every event but the last says the move
    continues; the last carries ``saved_at`` and ``play_order`` (each when
    given). Raises ``TypeError``/``ValueError`` for a bad event (an event
    must not carry the store's own keys, ``STORE_KEYS``)."""
    for e in events:
        _check_event(e)
        for key in STORE_KEYS:
            if key in e:
                raise ValueError(f"{key!r} is the store's own key")
    last = len(events) - 1
    end: dict[str, object] = {} if saved_at is None else {SAVED_AT: stamp(saved_at)}
    if play_order is not None:
        end[PLAY_ORDER] = play_order
    return [encode_line({**e, **end} if i == last else {**e, MOVE_CONTINUES: True}) for i, e in enumerate(events)]


_DECODER = json.JSONDecoder()


def _parse_compact(committed: bytes) -> list[Any] | None:
    """The JSON value of every line of ``committed`` (complete lines only), in
    one pass; None unless every line is exactly one value with nothing around
    it (the slower line-by-line parse then decides, with the same result)."""
    try:
        text = committed.decode("utf-8")
        out = []
        pos, end_all, raw_decode = 0, len(text), _DECODER.raw_decode
        while pos < end_all:
            obj, end = raw_decode(text, pos)
            if end != text.find("\n", pos):  # something after the value, or a value over two lines
                return None
            out.append(obj)
            pos = end + 1
        return out
    except (ValueError, RecursionError, IndexError):
        return None


def _migrate(path: Path, header: Header, events: list[Event], version: int) -> tuple[Header, list[Event]]:
    while version < CURRENT_FORMAT_VERSION:
        step = MIGRATIONS.get(version)
        if step is None:
            raise DamagedLog(path, f"It uses save format {version}, which this version cannot read.")
        try:
            header, events = step(header, events)
        except Exception as exc:  # an old file the step cannot make sense of
            raise DamagedLog(path, f"It could not be upgraded from save format {version} ({exc!r}).") from exc
        version += 1
        header["format_version"] = version
    return header, events
