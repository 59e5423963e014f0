"""One writer per game: an exclusive lock held while a game is open for play.

The lock is an advisory ``flock`` (``msvcrt.locking`` on Windows) on a
hidden sibling file, ``.<game-id>.jsonl.lock``, opened on its own file
descriptor: so a second writer is refused whether it is another process
(a second terminal, the SSH server) or another ``GameLog`` in this one.
The file holds who took the lock (what, process, host, since when) so the
refusal can say where the game is open. Readers (list, replay, export)
never take it. The lock file is removed when the lock is released; a taker
that opened a removed file notices and tries again.
"""

from __future__ import annotations

import json
import os
import socket
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .errors import GameInUse, WriteFailed

if sys.platform == "win32":  # pragma: no cover - best effort, untested here
    import msvcrt

    def _try_lock(fd: int) -> bool:
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True


def lock_path(game_file: str | os.PathLike[str]) -> Path:
    """The lock file of ``game_file``: ``.<name>.lock`` next to it."""
    game_file = Path(game_file)
    return game_file.with_name(f".{game_file.name}.lock")


class GameLock:
    """A held lock; :meth:`release` (or garbage collection) gives it up."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd

    @property
    def held(self) -> bool:
        """True until released."""
        return self._fd is not None

    def release(self) -> None:
        """Remove the lock file and unlock (idempotent, never raises)."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        try:
            os.unlink(self.path)
        except OSError:
            pass  # a stale unlocked file is harmless: the next taker locks it
        try:
            os.close(fd)
        except OSError:
            pass

    def __del__(self) -> None:
        self.release()


def acquire(game_file: str | os.PathLike[str], holder: str = "momiji", action: str = "open the game for play"
            ) -> GameLock:
    """Take the write lock of ``game_file`` for ``holder`` (e.g. ``"an SSH
    session"``). Raises :class:`GameInUse` if another writer holds it (saying
    where), :class:`WriteFailed` if the lock file cannot be made (e.g. a
    read-only data dir: then nothing can be written there anyway)."""
    path = lock_path(game_file)
    for _ in range(10):
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_BINARY", 0), 0o600)
        except OSError as exc:
            raise WriteFailed(action, game_file, exc) from exc
        if not _try_lock(fd):
            where = _describe(_read(fd))
            os.close(fd)
            raise GameInUse(game_file, where)
        try:
            same = os.path.samestat(os.fstat(fd), os.stat(path))
        except OSError:
            same = False
        if not same:  # released (and removed) between our open and our lock: again
            os.close(fd)
            continue
        _write_holder(fd, holder)
        return GameLock(path, fd)
    raise GameInUse(game_file, "elsewhere (its lock keeps changing hands)")


def _write_holder(fd: int, holder: str) -> None:
    info = {"by": holder, "pid": os.getpid(), "host": socket.gethostname(),
            "since": datetime.now(UTC).isoformat(timespec="seconds")}
    data = json.dumps(info).encode("utf-8")
    try:
        os.ftruncate(fd, 0)
        os.lseek(fd, 0, os.SEEK_SET)
        os.write(fd, data)
    except OSError:
        pass  # who holds it is a courtesy for the refusal message; the lock itself holds


def _read(fd: int) -> dict[str, Any]:
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        info = json.loads(os.read(fd, 4096).decode("utf-8"))
    except (OSError, ValueError):
        return {}
    return info if isinstance(info, dict) else {}


def _describe(info: dict[str, Any]) -> str:
    """Where the game is open, in words: ``in an SSH session (process 12 on host, since …)``."""
    by = str(info.get("by") or "another momiji")
    where = f"in {by}" if not by.startswith(("in ", "by ")) else by
    details = []
    if isinstance(info.get("pid"), int):
        details.append(f"process {info['pid']}" + (f" on {info['host']}" if info.get("host") else ""))
    if isinstance(info.get("since"), str):
        try:
            details.append(f"since {datetime.fromisoformat(info['since']).astimezone(UTC):%Y-%m-%d %H:%M} UTC")
        except ValueError:
            pass
    return where + (f" ({', '.join(details)})" if details else "")
