"""Fault injection for the store: raise a chosen ``OSError`` at one kind of
write call, as the store makes it.

Every store module calls the OS through its own module-level ``os``; the
:class:`FaultyOS` proxy stands in for it and fails the chosen *points*:

``create`` (``os.open`` with ``O_CREAT``), ``open`` (``os.open`` without it),
``write``, ``fsync``, ``link``, ``rename`` (``rename``/``replace``),
``mkdir`` (``mkdir``/``makedirs``), ``unlink`` (``unlink``/``remove``),
``truncate`` (``ftruncate``/``truncate``). Everything else passes through.

(A plain module, not a conftest, so its name is unique across the test tree.)
"""

from __future__ import annotations

import errno
import importlib
import os

STORE_MODULES = ("_fs", "log", "lock", "library", "paths", "writer", "aside")
POINTS = ("create", "open", "write", "fsync", "link", "rename", "mkdir", "unlink", "truncate")
ERRORS = {"ENOSPC": errno.ENOSPC, "EROFS": errno.EROFS, "EACCES": errno.EACCES, "EIO": errno.EIO}
_POINT_OF = {"write": "write", "fsync": "fsync", "link": "link", "rename": "rename", "replace": "rename",
             "mkdir": "mkdir", "makedirs": "mkdir", "unlink": "unlink", "remove": "unlink",
             "ftruncate": "truncate", "truncate": "truncate"}


class FaultyOS:
    """``os``, except that the calls at ``points`` raise ``OSError(code)``.
    ``hits`` counts the calls that were made to fail."""

    def __init__(self, points: set[str], code: int) -> None:
        self.points = set(points)
        self.code = code
        self.hits = 0

    def _fail(self, name: str) -> None:
        self.hits += 1
        raise OSError(self.code, f"{os.strerror(self.code)} (injected at os.{name})")

    def __getattr__(self, name: str):
        real = getattr(os, name)
        if name == "open":
            def faulty_open(path, flags, *args, **kwargs):
                point = "create" if flags & os.O_CREAT else "open"
                if point in self.points:
                    self._fail(name)
                return real(path, flags, *args, **kwargs)
            return faulty_open
        point = _POINT_OF.get(name)
        if point is None or point not in self.points:
            return real

        def faulty(*args, **kwargs):
            self._fail(name)
        return faulty


def inject(monkeypatch, points: str | set[str], error: str = "ENOSPC") -> FaultyOS:
    """Make the store's calls at ``points`` fail with ``error`` (an ``ERRORS`` key)
    until the test ends; returns the proxy (``.hits``)."""
    proxy = FaultyOS({points} if isinstance(points, str) else set(points), ERRORS[error])
    for name in STORE_MODULES:
        try:
            module = importlib.import_module(f"momiji_tui.store.{name}")
        except ImportError:
            continue
        if hasattr(module, "os"):
            monkeypatch.setattr(module, "os", proxy)
    return proxy


def snapshot(folder) -> dict[str, bytes]:
    """Every file under ``folder`` (relative name → bytes)."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}
