"""The play order a games folder shares: which game was played last, by the
order of the moves rather than by the clock.

A writer stamps the last event of each move with ``"play_order"`` (``log``,
format 6): the first move it saves gets :func:`next_play_order` of its
folder (one more than the highest stamp any game there holds), each later
move one more than the one before. "Last played" sorts by that stamp, then
by time, so a game played after another is listed first even when the clock
was set back in between, and a game saved with a clock set fast stays first
only until another game is played. Two writers open at once may stamp the
same number: their games then sort by time.

The stamp is read from the files themselves, never from a cache: the tail of
each game file (``TAIL_BYTES``), where its last move is.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from .log import PLAY_ORDER, play_order_of
from .paths import GAME_SUFFIX

TAIL_BYTES = 8192
"""How much of each file's end is read for its last stamp (a move is a few
hundred bytes; a stamp further back than this is not seen)."""

_MARK = f'"{PLAY_ORDER}":'.encode()


def next_play_order(folder: str | os.PathLike[str]) -> int:
    """One more than the highest play-order stamp of the ``*.jsonl`` games
    in ``folder`` (1 when none has one). Files that cannot be read, are not
    regular files or hold no stamp count as 0. Never raises."""
    try:
        with os.scandir(folder) as entries:
            names = [e.name for e in entries if e.name.endswith(GAME_SUFFIX)]
    except OSError:
        return 1
    return 1 + max((last_play_order(Path(folder) / name) for name in names), default=0)


def last_play_order(path: Path) -> int:
    """The last play-order stamp in the file at ``path`` (0 if none is found
    in its last ``TAIL_BYTES``, or it cannot be read). Never blocks on a FIFO;
    never raises."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError:
        return 0
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return 0
        start = max(0, info.st_size - TAIL_BYTES)
        tail = os.pread(fd, TAIL_BYTES, start)
    except OSError:
        return 0
    finally:
        os.close(fd)
    lines = tail.split(b"\n")[:-1]  # complete lines only: a torn tail has no "\n"
    if start > 0 and lines:
        lines = lines[1:]  # the first one began before the tail
    for line in reversed(lines):
        if _MARK in line:
            try:
                event = json.loads(line)
            except (ValueError, RecursionError):
                continue
            order = play_order_of(event.get(PLAY_ORDER)) if isinstance(event, dict) else None
            if order is not None:
                return order
    return 0
