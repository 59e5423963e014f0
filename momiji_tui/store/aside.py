"""Moving a damaged save aside: kept, never overwritten, never deleted."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

from . import _fs, lock
from .errors import WriteFailed
from .ids import as_utc


def quarantine(path: str | os.PathLike[str], reason: str, now: datetime | None = None) -> Path:
    """Move a damaged file aside as ``<name>.damaged-<UTC time>`` (``-2``, ``-3``…
    if taken) and write ``reason`` next to it in ``<that name>.txt``. Never
    overwrites or deletes anything; the file's bytes are untouched. Returns the
    new path. Takes the game's write lock for the move, so a game open for
    play is never moved. Raises :class:`GameInUse` if it is open, and
    :class:`WriteFailed` if the move fails (e.g. a read-only data dir: the
    file then stays where it was)."""
    path = Path(path)
    held = lock.acquire(path, "momiji list", action="move the damaged file aside")
    try:
        return move_aside(path, reason, now)
    finally:
        held.release()


def move_aside(path: Path, reason: str, now: datetime | None, *, label: str = "damaged") -> Path:
    """Move ``path`` to ``<name>.<label>-<UTC time>`` (``-2``… if taken) with
    ``reason`` in ``<that name>.txt``; the caller holds the game's lock.
    Returns the new path; raises :class:`WriteFailed` (the file stays) or
    ``FileExistsError`` (no free name)."""
    stamp = f"{as_utc(now or datetime.now(UTC)):%Y%m%dT%H%M%SZ}"
    for n in range(1, 1000):
        target = path.with_name(f"{path.name}.{label}-{stamp}" + (f"-{n}" if n > 1 else ""))
        if os.path.lexists(target) or os.path.lexists(f"{target}.txt"):
            continue
        try:
            _fs.move_exclusive(path, target)
        except FileExistsError:
            continue
        except OSError as exc:
            raise WriteFailed(f"move the {label} file aside", path, exc) from exc
        try:
            _fs.fsync_dir(path.parent)
            _fs.write_file(Path(f"{target}.txt"), (reason + "\n").encode("utf-8"))
        except OSError:
            pass  # the note (and the directory's fsync) are a courtesy; the file itself is safe
        return target
    raise FileExistsError(f"no free name to move {path} aside")
