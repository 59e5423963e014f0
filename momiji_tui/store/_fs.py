"""Small durable-file helpers (POSIX semantics; best effort on Windows)."""

from __future__ import annotations

import contextlib
import os
import tempfile
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


def move_exclusive(src: Path, dst: Path) -> None:
    """Rename ``src`` to ``dst``, raising ``FileExistsError`` if ``dst`` exists:
    never overwrites (``os.rename`` would, on POSIX)."""
    try:
        os.link(src, dst)
    except FileExistsError:
        raise
    except OSError:  # no hard links here (some filesystems): check, then rename
        if os.path.lexists(dst):
            raise FileExistsError(dst) from None
        os.rename(src, dst)
        return
    os.unlink(src)


def write_file(path: Path, data: bytes, *, replace: bool = False) -> None:
    """Write ``data`` to ``path`` atomically: temp file in the same directory,
    fsync, then move into place (``os.replace`` if ``replace``, else refuse
    with ``FileExistsError`` when ``path`` exists). Readers never see half a file."""
    fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        if replace:
            os.replace(tmp, path)
        else:
            move_exclusive(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
    fsync_dir(path.parent)
