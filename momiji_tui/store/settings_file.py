"""The player's settings file: one small JSON object in the platform config
folder (``settings.json``), written atomically (``_fs.write_file``).

A file that cannot be read as a JSON object is damaged: it is moved aside as
``settings.json.damaged-<UTC time>`` (never overwritten, never deleted) and
the defaults are used; if it cannot be moved, it is left where it is and
nothing is written over it. A folder that cannot be written just does not
remember (the caller says so).
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from platformdirs import user_config_path

from . import _fs
from .errors import WriteFailed, io_reason
from .ids import as_utc

CONFIG_ENV = "MOMIJI_CONFIG_DIR"
SETTINGS_NAME = "settings.json"


def settings_path() -> Path:
    """``$MOMIJI_CONFIG_DIR/settings.json``, else ``settings.json`` in
    platformdirs' user config folder for momiji-tui. Creates nothing."""
    env = os.environ.get(CONFIG_ENV)
    folder = Path(env).expanduser() if env else user_config_path("momiji-tui")
    return folder / SETTINGS_NAME


@dataclass(frozen=True)
class ReadSettings:
    """What ``read_settings`` found: the ``values`` ({} when there is no
    file or it is damaged), the ``problem`` in words (or None), and whether
    the file may be written (False: a damaged file is still in its place)."""

    values: dict[str, object]
    problem: str | None = None
    writable: bool = True


def read_settings(path: Path, now: datetime | None = None) -> ReadSettings:
    """Read the settings file at ``path``. Never raises for a missing,
    unreadable or damaged file: a damaged one is moved aside (see the module)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return ReadSettings({})
    except OSError as exc:
        return ReadSettings({}, f"The settings could not be read ({io_reason(exc)}: {path}); "
                                "the defaults are used and nothing is remembered.", writable=False)
    try:
        values = json.loads(data.decode("utf-8"))
        if not isinstance(values, dict):
            raise ValueError("not a JSON object")
    except (UnicodeDecodeError, ValueError) as exc:
        return _set_aside(path, f"{exc}", now)
    except RecursionError:  # nested deeper than Python's JSON reader goes
        return _set_aside(path, "nested too deep", now)
    return ReadSettings(values)


def _set_aside(path: Path, why: str, now: datetime | None) -> ReadSettings:
    """Move the damaged settings file aside; say where it went (or why it stayed)."""
    stamp = f"{as_utc(now or datetime.now(UTC)):%Y%m%dT%H%M%SZ}"
    for n in range(1, 100):
        target = path.with_name(f"{path.name}.damaged-{stamp}" + (f"-{n}" if n > 1 else ""))
        try:
            _fs.move_exclusive(path, target)
        except FileExistsError:
            continue
        except OSError as exc:
            return ReadSettings({}, f"The settings file {path} is damaged ({why}) and could not be moved "
                                    f"aside ({io_reason(exc)}); it was left as it is, the defaults are used "
                                    "and nothing is remembered.", writable=False)
        return ReadSettings({}, f"The settings file was damaged ({why}); it was kept as {target.name} "
                                "and the defaults are used.")
    return ReadSettings({}, f"The settings file {path} is damaged ({why}); the defaults are used.",
                        writable=False)


@contextlib.contextmanager
def _settings_lock(path: Path) -> Iterator[None]:
    """Hold the settings' lock (``flock`` on ``.settings.json.lock`` beside
    it; none on Windows) while a write re-reads and merges: two apps that
    change two settings at once both keep theirs."""
    if sys.platform == "win32":  # pragma: no cover - best effort, untested here
        yield
        return
    import fcntl

    fd = os.open(path.with_name(f".{path.name}.lock"), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def merge_settings(path: Path, changes: dict[str, object], dropped: Iterable[str] = ()) -> dict[str, object]:
    """Write only what changed: under the settings' lock, re-read the file,
    set ``changes``, remove the ``dropped`` keys, keep every other key as the
    file has it now (another app may have written one meanwhile), and write
    it atomically. Returns the values written. Raises ``WriteFailed`` if the
    disk refuses or the file is damaged and could not be moved aside."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with _settings_lock(path):
            read = read_settings(path)
            if not read.writable:
                raise WriteFailed("remember the settings", path, OSError(None, read.problem or "damaged"))
            values = {**read.values, **changes}
            for key in dropped:
                values.pop(key, None)
            write_settings(path, values)
    except WriteFailed:
        raise
    except OSError as exc:
        raise WriteFailed("remember the settings", path, exc) from exc
    return values


def write_settings(path: Path, values: dict[str, object]) -> None:
    """Write ``values`` to ``path`` atomically (the folder is made if needed).
    Raises ``WriteFailed`` if the disk refuses (the old file is then as before)."""
    data = (json.dumps(values, indent=2, sort_keys=True) + "\n").encode("utf-8")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _fs.write_file(path, data, replace=True)
    except OSError as exc:
        raise WriteFailed("remember the settings", path, exc) from exc
