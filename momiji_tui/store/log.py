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

The store knows nothing of the rules: events are JSON-able dicts with a
``"type"`` string. Old formats are upgraded on load by the ``MIGRATIONS`` chain.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from . import _fs
from .errors import DamagedLog, GameExists, NewerFormat
from .ids import as_utc, check_game_id, is_game_id, new_game_id
from .paths import game_path

FORMAT = "momiji-log"
CURRENT_FORMAT_VERSION = 2
MOVE_CONTINUES = "move_continues"

Header = dict[str, Any]
Event = dict[str, Any]
Migration = Callable[[Header, list[Event]], tuple[Header, list[Event]]]
Validator = Callable[[Header, list[Event]], None]

def _v1_to_v2(header: Header, events: list[Event]) -> tuple[Header, list[Event]]:
    """Format 1 did not mark moves: every event on disk counts as complete."""
    return header, events


#: ``{N: step}``: ``step(header, events)`` turns format N into format N+1.
MIGRATIONS: dict[int, Migration] = {1: _v1_to_v2}

TORN_TAIL_WARNING = "The last move was cut off when the game was saved; it was dropped."
HALF_MOVE_WARNING = "The last move was only partly saved when the game stopped; it was dropped."


@dataclass
class LoadedLog:
    """A log read from disk, already migrated to ``CURRENT_FORMAT_VERSION``.

    ``warnings`` are sentences for the player; ``committed_size`` is the byte
    length of the complete lines; ``disk_version`` the format found on disk."""

    path: Path
    header: Header
    events: list[Event]
    warnings: list[str] = field(default_factory=list)
    committed_size: int = 0
    disk_version: int = CURRENT_FORMAT_VERSION


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
    else wrong: unreadable file, empty file, bad JSON or a bad header before
    the last line, an event that is not an object with a ``"type"``, a format
    with no migration path, or ``validate(header, events)`` raising.
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise
    except OSError as exc:
        why = "permission denied" if isinstance(exc, PermissionError) else exc.strerror or exc
        raise DamagedLog(path, f"The file could not be read ({why}).") from exc
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
    if version >= 2:
        complete = _complete_moves(events)
        if complete < len(events):
            warnings.append(HALF_MOVE_WARNING)
            committed = sum(len(line) + 1 for line in lines[: complete + 1])
            events = events[:complete]
        events = [_unmark(e) for e in events]
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
        except Exception as exc:  # the rules reject the game: that is damage too
            why = str(exc)
            if not why.lower().startswith("the rules reject"):  # say it once
                why = f"The rules reject this game: {why}"
            raise DamagedLog(path, why) from exc
    return LoadedLog(path, header, events, warnings, committed, version)


def _complete_moves(events: list[Event]) -> int:
    """How many leading events belong to moves saved whole (format 2)."""
    n = len(events)
    while n and events[n - 1].get(MOVE_CONTINUES) is True:
        n -= 1
    return n


def _unmark(event: Event) -> Event:
    if MOVE_CONTINUES in event:
        event = {k: v for k, v in event.items() if k != MOVE_CONTINUES}
    return event


def encode_move(events: list[Event]) -> list[bytes]:
    """The lines of one move: every event but the last says the move
    continues. Raises ``TypeError``/``ValueError`` for a bad event (an event
    must not carry the store's own ``move_continues`` key)."""
    for e in events:
        _check_event(e)
        if MOVE_CONTINUES in e:
            raise ValueError(f"{MOVE_CONTINUES!r} is the store's own key")
    last = len(events) - 1
    return [encode_line(e if i == last else {**e, MOVE_CONTINUES: True}) for i, e in enumerate(events)]


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


def quarantine(path: str | os.PathLike[str], reason: str, now: datetime | None = None) -> Path:
    """Move a damaged file aside as ``<name>.damaged-<UTC time>`` (``-2``, ``-3``…
    if taken) and write ``reason`` next to it in ``<that name>.txt``. Never
    overwrites or deletes anything; the file's bytes are untouched. Returns the
    new path. Raises ``OSError`` if the move fails (the file then stays put)."""
    path = Path(path)
    stamp = f"{as_utc(now or datetime.now(UTC)):%Y%m%dT%H%M%SZ}"
    for n in range(1, 1000):
        target = path.with_name(f"{path.name}.damaged-{stamp}" + (f"-{n}" if n > 1 else ""))
        if os.path.lexists(target) or os.path.lexists(f"{target}.txt"):
            continue
        try:
            _fs.move_exclusive(path, target)
        except FileExistsError:
            continue
        _fs.fsync_dir(path.parent)
        try:
            _fs.write_file(Path(f"{target}.txt"), (reason + "\n").encode("utf-8"))
        except OSError:
            pass  # the note is a courtesy; the file itself is safe
        return target
    raise FileExistsError(f"no free name to move {path} aside")


class GameLog:
    """An open log that events are appended to. One writer per file.

    Get one with :meth:`create` or :meth:`open_for_append`; ``loaded`` holds
    what was on disk when it was opened. Use as a context manager or call
    :meth:`close`."""

    def __init__(self, loaded: LoadedLog) -> None:
        self.loaded = loaded
        self.path = loaded.path
        self.header = loaded.header
        self._size = loaded.committed_size  # bytes of complete lines on disk
        self._file: Any = None

    @property
    def game_id(self) -> str:
        return str(self.header["game_id"])

    @classmethod
    def create(cls, data_dir: str | os.PathLike[str], header: Header, *, now: datetime | None = None,
               events: Iterable[Event] = ()) -> GameLog:
        """Start a new log under ``<data_dir>/games``. ``header`` holds
        ``rules_version``, ``seats``, ``seed`` and any extra JSON-able keys;
        ``format``, ``format_version``, ``created`` (ISO-8601 UTC) and
        ``game_id`` (via :func:`new_game_id`) are filled in when missing.
        ``events`` (e.g. a game's setup) are written with the header in the
        same atomic step: a crash leaves either no file or all of them.
        Raises :class:`InvalidGameId` for a bad id, ``ValueError`` for a bad
        header, ``TypeError``/``ValueError`` for a bad event (nothing is
        written), :class:`GameExists` if that game's file exists (never overwritten)."""
        moment = as_utc(now or datetime.now(UTC))
        full: Header = {"format": FORMAT, "format_version": CURRENT_FORMAT_VERSION}
        for key, value in full.items():
            if key in header and (type(header[key]) is not type(value) or header[key] != value):
                raise ValueError(f"header[{key!r}] is set by the store, not the caller")
        full.update(header)
        full.setdefault("game_id", new_game_id(moment))
        full.setdefault("created", moment.isoformat(timespec="seconds"))
        check_game_id(full["game_id"])
        problem = header_problem(full)
        if problem:
            raise ValueError(problem)
        first = list(events)
        data = encode_line(full) + b"".join(encode_move(first))
        path = game_path(data_dir, full["game_id"], create=True)
        try:
            _fs.write_file(path, data)
        except FileExistsError:
            raise GameExists(f"a saved game {full['game_id']} already exists at {path}") from None
        return cls(LoadedLog(path, full, first, [], len(data)))

    @classmethod
    def open_for_append(cls, path: str | os.PathLike[str], validate: Validator | None = None) -> GameLog:
        """Open an existing log to add events (raises as :func:`load` does).
        A log in an older format is first rewritten atomically in the current
        one, after its original bytes are kept as ``<name>.v<N>-backup``."""
        loaded = load(path, validate)
        if loaded.disk_version != CURRENT_FORMAT_VERSION:
            original = loaded.path.read_bytes()[: loaded.committed_size]
            backup = loaded.path.with_name(f"{loaded.path.name}.v{loaded.disk_version}-backup")
            _fs.write_file(backup, original)  # FileExistsError if a backup is already there
            data = encode_line(loaded.header) + b"".join(encode_move(loaded.events))
            _fs.write_file(loaded.path, data, replace=True)
            loaded.committed_size, loaded.disk_version = len(data), CURRENT_FORMAT_VERSION
        return cls(loaded)

    def append(self, event: Event) -> None:
        """Write one event as a whole move, flush and fsync it. Raises
        ``TypeError``/``ValueError`` for an event that is not a JSON-able dict
        with a ``"type"`` (nothing is written), ``FileNotFoundError`` if the
        file is gone, and ``OSError`` if the disk fails (the partial line is
        cut off)."""
        self.extend([event])

    def extend(self, events: Iterable[Event]) -> None:
        """Append one move's events, each flushed and fsynced as it is
        written, the last one marked as the end of the move. All are checked
        first, so a bad event raises before any is written; if the disk fails,
        the whole call is undone; if the process dies midway, the next load
        drops the half-written move."""
        lines = encode_move(list(events))
        if lines:
            self._write(lines)

    def _write(self, lines: list[bytes]) -> None:
        start = self._size
        if self._file is None:
            # No O_CREAT: if the file was moved or deleted, fail rather than start a headless one.
            flags = os.O_WRONLY | os.O_APPEND | getattr(os, "O_BINARY", 0)
            self._file = os.fdopen(os.open(self.path, flags), "ab")
            if os.fstat(self._file.fileno()).st_size > self._size:
                os.ftruncate(self._file.fileno(), self._size)  # cut a torn tail off first
        fd = self._file.fileno()
        for line in lines:
            try:
                self._file.write(line)
                self._file.flush()
                os.fsync(fd)
            except BaseException:
                self._rollback(start)
                raise
            self._size += len(line)

    def _rollback(self, size: int) -> None:
        """After a failed write, cut the file back to ``size``: no partial line, no half call."""
        self._size = size
        try:
            self._file.close()
        except OSError:
            pass
        self._file = None
        try:
            os.truncate(self.path, self._size)
        except OSError:
            pass  # load() drops the torn tail; the next append cuts it again

    def close(self) -> None:
        """Close the file (appending again reopens it)."""
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self) -> GameLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
