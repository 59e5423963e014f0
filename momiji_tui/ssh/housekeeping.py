"""What a long-running game server does besides serving: private folders,
guest data removed after its retention, and a periodic summary line.

All of it takes its clock as an argument, so tests run it without waiting.
"""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import stat
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from pathlib import Path

from momiji_tui.ssh.oplog import server_event

log = logging.getLogger("momiji_tui.ssh")

GUEST_PREFIX = "guest-"
"""Account ids of guests start with this (``Identity.guest``)."""

DAY = 86400.0


def make_private(root: Path, *, file_store: bool = True) -> None:
    """Create ``root`` and, for a server whose games are files
    (``file_store``; not with ``--database``, which uses neither),
    ``root/players`` and ``root/tables``, as 0700, and make every folder
    already under ``root`` 0700, so no other local user can list account ids
    or read games (folders made by an older version were 0755).

    Raises:
        OSError: ``root`` cannot be created. A folder that cannot be changed
            is logged and skipped.
    """
    root.mkdir(parents=True, exist_ok=True, mode=0o700)
    for sub in (root / "players", root / "tables") if file_store else ():
        sub.mkdir(exist_ok=True, mode=0o700)
    if os.name != "posix":
        return
    for folder in [root, *_folders(root)]:
        try:
            if stat.S_IMODE(folder.stat().st_mode) & 0o077:
                folder.chmod(0o700)
        except OSError as error:
            log.warning("cannot make %s private: %s", folder, error)


def _folders(root: Path) -> Iterable[Path]:
    for dirpath, dirnames, _ in os.walk(root):
        for name in dirnames:
            yield Path(dirpath) / name


def sweep_guests(root: Path, retention_days: float, now: float,
                 in_use: Iterable[str] = ()) -> list[str]:
    """Remove the folders of guests (``players/guest-*``) untouched for
    ``retention_days`` days: a guest cannot come back to its games, so they
    would pile up forever.

    Args:
        root: the data directory.
        retention_days: days since the newest change inside a guest's
            folder; 0 or less keeps guest data forever.
        now: the current time (``time.time()`` seconds).
        in_use: account ids logged in now, never removed.

    Returns:
        list[str]: the account ids removed. Errors are logged, never raised.
    """
    players = root / "players"
    if retention_days <= 0 or not players.is_dir():
        return []
    keep, horizon, removed = set(in_use), now - retention_days * DAY, []
    try:
        candidates = [p for p in players.iterdir() if p.name.startswith(GUEST_PREFIX)]
    except OSError as error:
        log.warning("cannot list %s: %s", players, error)
        return []
    for folder in candidates:
        if folder.name in keep or not folder.is_dir() or folder.is_symlink():
            continue
        try:
            newest = max([folder.stat().st_mtime, *(p.stat().st_mtime for p in folder.rglob("*"))])
            if newest > horizon:
                continue
            shutil.rmtree(folder)
        except OSError as error:
            log.warning("cannot remove guest data %s: %s", folder, error)
            continue
        removed.append(folder.name)
    if removed:
        server_event("guests removed", f"{len(removed)} guest folders older than "
                                       f"{retention_days:g} days")
    return removed


def rss_bytes() -> int | None:
    """The process's resident memory now (Linux ``/proc/self/statm``), else
    its peak (``getrusage``), else None."""
    try:
        with open("/proc/self/statm", "rb") as file:
            return int(file.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        pass
    try:
        import resource

        return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) * 1024
    except (ImportError, OSError):
        return None


def summary_line(sessions: int, tables: int, rss: int | None) -> str:
    """``"12 sessions, 3 tables, rss 84 MB"`` (``1 session``, ``1 table``)."""
    memory = f"{rss / 2**20:.0f} MB" if rss is not None else "unknown"
    return f"{sessions} session{'s' * (sessions != 1)}, {tables} table{'s' * (tables != 1)}, rss {memory}"


async def run_periodically(
    every: float,
    jobs: Sequence[Callable[[], object]],
    sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
) -> None:
    """Run every job, then sleep ``every`` seconds, until cancelled. A job
    that raises is logged and the loop goes on."""
    while True:
        for job in jobs:
            try:
                job()
            except Exception:
                log.exception("housekeeping job failed")
        await sleep(every)


def wall_clock() -> float:
    """``time.time()``: file times are wall-clock times."""
    return time.time()
