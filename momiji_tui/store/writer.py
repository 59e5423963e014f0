"""Writing one game's event log: :class:`GameLog` (the format is in ``log``)."""

from __future__ import annotations

import os
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path

from . import _fs, lock
from . import log as _log
from .aside import move_aside
from .errors import GameExists, RefusedSaves, SaveDiverged, StoreError, WriteFailed
from .ids import as_utc, check_game_id, new_game_id
from .log import (
    CURRENT_FORMAT_VERSION, FORMAT, Event, Header, LoadedLog, Validator, encode_line, encode_move, header_problem,
    load,
)
from .paths import game_path
from .play_order import next_play_order


def utc_now() -> datetime:
    """The store's clock (``log.utc_now``, which tests replace)."""
    return _log.utc_now()


class GameLog:
    """An open log that events are appended to. One writer per file: it
    holds the game's write lock (``store.lock``) until :meth:`close`.

    Get one with :meth:`create` or :meth:`open_for_append`; ``loaded`` holds
    what was on disk when it was opened. Use as a context manager or call
    :meth:`close`. ``holder`` says who writes (shown to a second writer who is
    refused: ``"the momiji app"``, ``"an SSH session"``)."""

    def __init__(self, loaded: LoadedLog, held: lock.GameLock | None = None, holder: str = "momiji") -> None:
        self.loaded = loaded
        self.path = loaded.path
        self.header = loaded.header
        self.holder = holder
        self._lock = held
        self._size = loaded.committed_size  # bytes of complete lines on disk
        self._file: int | None = None  # the open file's descriptor, None when closed
        self._refusals = RefusedSaves(self.path)  # the operator's log of refused saves
        # What the file under ``path`` is: (device, inode, size, mtime) as this
        # writer last left it; None when its size is not known (a failed rollback).
        self._seen: tuple[int, int, int, int] | None = None
        self._ident: tuple[int, int] | None = None
        self.diverged: SaveDiverged | None = None  # set once the file is found not ours
        # The play-order stamp of this writer's next move (``play_order``).
        self._next_order = (loaded.play_order or 0) + 1

    @property
    def game_id(self) -> str:
        return str(self.header["game_id"])

    @classmethod
    def create(cls, data_dir: str | os.PathLike[str], header: Header, *, now: datetime | None = None,
               events: Iterable[Event] = (), holder: str = "momiji") -> GameLog:
        """Start a new log under ``<data_dir>/games`` and hold its write lock.
        ``header`` holds ``rules_version``, ``seats``, ``seed`` and any extra
        JSON-able keys; ``format``, ``format_version``, ``created`` (ISO-8601
        UTC) and ``game_id`` (via :func:`new_game_id`) are filled in when
        missing. ``events`` (e.g. a game's setup) are written with the header
        in the same atomic step, dated ``now`` (default: the store's clock)
        and stamped with the folder's next play order (``play_order``): a
        crash leaves either no file or all of them. Raises
        :class:`InvalidGameId` for a bad id, ``ValueError`` for a bad header,
        ``TypeError``/``ValueError`` for a bad event (nothing is written),
        :class:`GameExists` if that game's file exists (never overwritten),
        :class:`WriteFailed` if the disk refuses (disk full, read-only…:
        nothing is left behind)."""
        moment = as_utc(now or utc_now())
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
        encode_move(first)  # a bad event raises before anything is looked at or written
        try:
            path = game_path(data_dir, full["game_id"], create=True)
        except OSError as exc:
            raise WriteFailed("create the game", Path(data_dir) / "games", exc) from exc
        order = next_play_order(path.parent)
        data = encode_line(full) + b"".join(encode_move(first, moment, order))
        held = lock.acquire(path, holder, action="create the game")
        try:
            _fs.write_file(path, data)
        except FileExistsError:
            held.release()
            raise GameExists(f"a saved game {full['game_id']} already exists at {path}") from None
        except OSError as exc:
            held.release()
            raise WriteFailed("create the game", path, exc) from exc
        last = moment if first else as_utc(datetime.fromisoformat(full["created"]))
        made = cls(LoadedLog(path, full, first, [], len(data), CURRENT_FORMAT_VERSION, last,
                             order if first else None), held, holder)
        made._next_order = order + 1 if first else order
        try:
            made._remember_path()
        except OSError:  # gone at once: the first append finds no file and says so
            pass
        return made

    @classmethod
    def open_for_append(cls, path: str | os.PathLike[str], validate: Validator | None = None, *,
                        holder: str = "momiji") -> GameLog:
        """Open an existing log to add events, holding its write lock. Raises
        :class:`GameInUse` if another writer has it open (saying where),
        :class:`WriteFailed` if the lock cannot be taken (e.g. a read-only
        data dir), else as :func:`load` does. A log in an older format is
        first rewritten atomically in the current one, after its original
        bytes are kept as ``<name>.v<N>-backup``; a log from a newer format or
        newer rules is never rewritten."""
        path = Path(path)
        held = lock.acquire(path, holder)
        try:
            loaded = load(path, validate)
            if loaded.disk_version != CURRENT_FORMAT_VERSION:
                _upgrade_on_disk(loaded)
            opened = cls(loaded, held, holder)
            opened._remember_path()
            opened._next_order = max(opened._next_order, next_play_order(path.parent))
        except BaseException:
            held.release()
            raise
        return opened

    def append(self, event: Event) -> None:
        """Write one event as a whole move, flush and fsync it. Raises
        ``TypeError``/``ValueError`` for an event that is not a JSON-able dict
        with a ``"type"`` (nothing is written) and :class:`WriteFailed` if the
        disk fails or the file is gone (the file is left as it was)."""
        self.extend([event])

    def extend(self, events: Iterable[Event], *, now: datetime | None = None) -> None:
        """Append one move's events, each fsynced as it is written, the last
        one marked as the end of the move and dated ``now`` (default: the
        store's clock; never before the game's previous move, so a clock set
        back cannot make a later move older) and stamped with the next play
        order (``play_order``: one more than this writer's last, and at
        least the folder's next when the game was opened). All are checked
        first, so a bad event raises before any is written; if the disk
        fails, the whole call is undone and :class:`WriteFailed` says why
        (the next call may simply try again);
        if the process dies midway, the next load drops the half-written move.

        Before writing it checks that the file under :attr:`path` is still
        the one this writer holds (same inode, size and modification time as
        it left it): if it was replaced, removed or changed by someone else,
        nothing is written and :class:`SaveDiverged` (a ``WriteFailed``) is
        raised, now and for every later move, until :meth:`recover`."""
        moment = as_utc(now or utc_now())
        if self.loaded.last_played is not None and moment < self.loaded.last_played:
            moment = self.loaded.last_played  # a clock set back: this move is still the latest
        lines = encode_move(list(events), moment, self._next_order)
        if lines:
            self._write(lines)
            self.loaded.last_played, self.loaded.play_order = moment, self._next_order
            self._next_order += 1

    def _open(self) -> int:
        if self._lock is None or not self._lock.held:  # reopened after close: one writer again
            self._lock = lock.acquire(self.path, self.holder)
        # No O_CREAT: if the file was moved or deleted, fail rather than start a headless one.
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | getattr(os, "O_BINARY", 0))
        try:
            if os.fstat(fd).st_size > self._size:
                os.ftruncate(fd, self._size)  # cut a torn tail off first (under the lock)
        except OSError:
            os.close(fd)
            raise
        return fd

    def _remember_path(self) -> None:
        st = os.stat(self.path)
        self._ident = (st.st_dev, st.st_ino)
        self._seen = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)

    def _remember_fd(self, fd: int) -> None:
        st = os.fstat(fd)
        self._seen = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)

    def _check_owned(self) -> None:
        """Raise :class:`SaveDiverged` unless the file under the name is the
        one this writer left (``WriteFailed`` if it cannot even be looked at)."""
        if self.diverged is not None:
            raise self.diverged
        if self._ident is None:
            return
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            self.diverged = SaveDiverged(self.path, "removed")
        except OSError as exc:
            raise WriteFailed("save the move", self.path, exc) from exc
        else:
            if (st.st_dev, st.st_ino) != self._ident:
                self.diverged = SaveDiverged(self.path, "replaced")
            elif st.st_size < self._size or (
                    self._seen is not None and (st.st_size, st.st_mtime_ns) != self._seen[2:]
                    and not self._only_torn_tail(st.st_size)):
                self.diverged = SaveDiverged(self.path, "changed")
        if self.diverged is not None:
            raise self.diverged

    def _only_torn_tail(self, size: int) -> bool:
        """True if all the file holds past this writer's lines is a torn tail
        (no complete line: what a crash while saving leaves; cut before the
        next append, as :func:`load` drops it)."""
        if size <= self._size or size - self._size > 1 << 20:
            return False
        try:
            with open(self.path, "rb") as f:
                f.seek(self._size)
                return b"\n" not in f.read(size - self._size)
        except OSError:
            return False

    def recover(self, events: Iterable[Event], *, now: datetime | None = None) -> Path | None:
        """Keep playing into a recovered copy after :class:`SaveDiverged`:
        the file now under :attr:`path` (if any) is moved aside, never
        overwritten or deleted (``<name>.other-copy-<UTC time>``), and the
        game is written anew under its own name from ``events`` (every event
        of the game as this writer's table holds it), as one move dated
        ``now``. Returns where the other file went (None if there was none).
        Raises :class:`WriteFailed` if the disk refuses (nothing is lost:
        the other file stays where it was or aside)."""
        moment = as_utc(now or utc_now())
        self._close_file()
        if self._lock is None or not self._lock.held:
            self._lock = lock.acquire(self.path, self.holder)
        aside = None
        if os.path.lexists(self.path):
            aside = move_aside(self.path, "Another copy found under this game's name while it was being played; "
                               "the game went on in a recovered copy.", moment, label="other-copy")
        order = max(self._next_order, next_play_order(self.path.parent))
        data = encode_line(self.header) + b"".join(encode_move(list(events), moment, order))
        try:
            _fs.write_file(self.path, data)
        except OSError as exc:
            raise WriteFailed("save the recovered copy", self.path, exc) from exc
        self._size = len(data)
        self.loaded.last_played, self.loaded.play_order = moment, order
        self._next_order = order + 1
        self.diverged = None
        self._remember_path()
        return aside

    def _write(self, lines: list[bytes]) -> None:
        start = self._size
        self._check_owned()
        try:
            if self._file is None:
                self._file = self._open()
            for line in lines:
                _fs.write_all(self._file, line)
                os.fsync(self._file)
                self._size += len(line)
            self._remember_fd(self._file)
        except WriteFailed as exc:  # the lock file could not be written
            self._refusals.refused(exc)
            raise
        except StoreError:
            raise
        except OSError as exc:
            self._rollback(start)
            failed = WriteFailed("save the move", self.path, exc)
            self._refusals.refused(failed)
            raise failed from exc
        except BaseException:
            self._rollback(start)
            raise
        self._refusals.saved()

    def _rollback(self, size: int) -> None:
        """After a failed write, cut the file back to ``size``: no partial line,
        no half call. If even that fails, the next write cuts it first."""
        self._size = size
        fd, self._file = self._file, None
        if fd is None:
            return
        try:
            os.ftruncate(fd, size)
            self._remember_fd(fd)
        except OSError:
            self._seen = None  # size unknown now: load() drops the torn tail; the next append cuts it
        try:
            os.close(fd)
        except OSError:
            pass

    def _close_file(self) -> None:
        """Close the open file, if any (a failing close changes nothing: the
        bytes were synced when written)."""
        fd, self._file = self._file, None
        if fd is not None:
            try:
                os.close(fd)
            except OSError:
                pass

    def close(self) -> None:
        """Close the file and give up the write lock (appending again reopens
        it, if no other writer took the game meanwhile)."""
        self._close_file()
        if self._lock is not None:
            self._lock.release()

    def __del__(self) -> None:  # a log dropped without close(): free its file and its lock
        try:
            self.close()
        except Exception:
            pass

    def __enter__(self) -> GameLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _upgrade_on_disk(loaded: LoadedLog) -> None:
    """Rewrite an older-format log in the current format (original kept as a backup)."""
    try:
        original = loaded.path.read_bytes()[: loaded.committed_size]
        backup = loaded.path.with_name(f"{loaded.path.name}.v{loaded.disk_version}-backup")
        try:
            _fs.write_file(backup, original)
        except FileExistsError:  # an earlier try got this far: fine if it is the same bytes
            if backup.read_bytes() != original:
                raise
        # One move, dated when the game was last played (so Continue keeps its order).
        data = encode_line(loaded.header) + b"".join(encode_move(loaded.events, loaded.last_played))
        _fs.write_file(loaded.path, data, replace=True)
    except FileExistsError:
        raise
    except OSError as exc:
        raise WriteFailed("upgrade the save to the current format", loaded.path, exc) from exc
    loaded.committed_size, loaded.disk_version = len(data), CURRENT_FORMAT_VERSION
