"""Small durable-file helpers (POSIX semantics; best effort on Windows).

Every call to the OS goes through this module's ``os`` (and the other store
modules' own), so tests can fail any one of them on purpose
(``tests/store/store_faults.py``).
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path


def fsync_dir(directory: Path) -> None:
    """Make a rename or a new file in ``directory`` durable (no-op on Windows)."""
    if os.name == "nt":
        return
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_all(fd: int, data: bytes) -> None:
    """``os.write`` until all of ``data`` is written (raises ``OSError``)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def move_exclusive(src: Path, dst: Path) -> None:
    """Rename ``src`` to ``dst``, raising ``FileExistsError`` if ``dst`` exists:
    never overwrites (``os.rename`` would, on POSIX). If it fails midway the
    file is left at ``src`` (the half-made ``dst`` link is undone when it can be)."""
    try:
        os.link(src, dst)
    except FileExistsError:
        raise
    except OSError:  # no hard links here (some filesystems): check, then rename
        if os.path.lexists(dst):
            raise FileExistsError(dst) from None
        os.rename(src, dst)
        return
    try:
        os.unlink(src)
    except OSError:
        try:
            os.unlink(dst)  # undo: the file stays where it was
        except OSError:
            pass  # both names point at the same bytes: nothing is lost
        raise


def _link_new(tmp: Path, path: Path) -> None:
    """Give the finished temp file its name, never overwriting ``path``
    (``FileExistsError``); the caller removes the temp name afterwards."""
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise
    except OSError:  # no hard links here (some filesystems): check, then rename
        if os.path.lexists(path):
            raise FileExistsError(path) from None
        os.rename(tmp, path)


def write_file(path: Path, data: bytes, *, replace: bool = False) -> None:
    """Write ``data`` to ``path`` atomically: temp file in the same directory,
    fsync, then move into place (``os.replace`` if ``replace``, else refuse
    with ``FileExistsError`` when ``path`` exists). Readers never see half a
    file. Raises ``OSError`` if the disk refuses (``path`` is then as before)."""
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600)
    try:
        try:
            write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        if replace:
            os.replace(tmp, path)
        else:
            _link_new(tmp, path)
    finally:
        try:
            os.unlink(tmp)
        except OSError:
            pass  # gone already (moved into place), or a stray hidden temp file
    try:
        fsync_dir(path.parent)
    except OSError:
        if not replace:  # not known to be durable: take the new file back, report the failure
            try:
                os.unlink(path)
            except OSError:
                pass
        raise
