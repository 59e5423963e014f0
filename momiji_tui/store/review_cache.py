"""A post-game review cached beside its save.

``<games>/<game-id>.review.json`` holds one small JSON object: the ``key`` it
was computed for (game id, rules version, review version, the log's length
and digest, seat, iterations) and the ``review`` itself (data the session
layer reads back). It is a cache, never the truth: a file whose key differs
(the log grew, a newer review) or that cannot be read or parsed is ignored,
and the review is computed again. Writes are atomic (``_fs.write_file``), so
a reader never sees half a file; a directory that refuses the write
(read-only, disk full) only means no caching. The store never imports the
engine: it stores what it is given.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

from ._fs import write_file
from .paths import GAME_SUFFIX

REVIEW_SUFFIX = ".review.json"
MAX_CACHE_BYTES = 4 * 1024 * 1024
"""A larger file is not a review of ours (a real one is a few tens of kB)."""


def review_cache_path(save: str | os.PathLike[str]) -> Path:
    """The cache file beside ``save`` (``abc.jsonl`` → ``abc.review.json``)."""
    path = Path(save)
    stem = path.name[:-len(GAME_SUFFIX)] if path.name.endswith(GAME_SUFFIX) else path.stem
    return path.with_name(stem + REVIEW_SUFFIX)


def read_review_cache(save: str | os.PathLike[str], key: dict[str, Any]) -> dict[str, Any] | None:
    """The cached review of ``save`` if it was computed for exactly ``key``;
    None when there is none, or it is stale, damaged or unreadable (never
    raises for a bad file: the caller recomputes). A FIFO, device, link or
    anything but a regular file of at most ``MAX_CACHE_BYTES`` is never read."""
    raw = read_small_regular_file(review_cache_path(save), MAX_CACHE_BYTES)
    if raw is None:
        return None
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):  # RecursionError: nested too deep
        return None
    if not isinstance(data, dict) or data.get("key") != key or not isinstance(data.get("review"), dict):
        return None
    review: dict[str, Any] = data["review"]
    return review


def read_small_regular_file(path: Path, limit: int) -> bytes | None:
    """The bytes of ``path`` if it is a regular file (not a link, FIFO or
    device: opened without following a link and without blocking, then
    checked) of at most ``limit`` bytes; else None. Never raises ``OSError``."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        chunks, total = [], 0
        while total <= limit:
            chunk = os.read(fd, limit + 1 - total)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        return None if total > limit else b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


def write_review_cache(save: str | os.PathLike[str], key: dict[str, Any], review: dict[str, Any]) -> bool:
    """Store ``review`` (JSON-able) for ``key`` beside ``save``, replacing any
    older cache atomically. Returns False, writing nothing, when the
    directory refuses (read-only, disk full…): the review still stands, it
    is just not cached. Raises ``TypeError``/``ValueError`` if ``review`` is
    not JSON-able."""
    data = json.dumps({"key": key, "review": review}, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")
    try:
        write_file(review_cache_path(save), data, replace=True)
    except OSError:
        return False
    return True


def drop_review_cache(save: str | os.PathLike[str]) -> None:
    """Remove the review cached beside ``save`` (when the game is deleted);
    best effort: a cache left behind is only ignored later, never trusted."""
    try:
        os.unlink(review_cache_path(save))
    except OSError:
        pass
