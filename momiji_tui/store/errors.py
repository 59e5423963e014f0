"""Errors raised by the store. All derive from :class:`StoreError`."""

from __future__ import annotations

import os
from pathlib import Path


class StoreError(Exception):
    """Base class of every error the store raises on purpose."""


class InvalidGameId(StoreError, ValueError):
    """A game id is not of the form ``YYYYMMDD-HHMMSS-xxxxxx`` (see ``ids``)."""


class GameExists(StoreError, FileExistsError):
    """A game with this id (or a file at this path) already exists; nothing was written."""


class GameNotFound(StoreError, LookupError):
    """No saved game has this id."""


class DamagedLog(StoreError):
    """A save file cannot be read: bad JSON, bad header, rejected by the rules, unreadable.

    ``path`` is the file, ``reason`` a sentence a player can read.
    """

    def __init__(self, path: str | os.PathLike[str], reason: str) -> None:
        self.path = Path(path)
        self.reason = reason
        super().__init__(f"The saved game {self.path.name} cannot be read: {reason}")


class NewerFormat(StoreError):
    """A save file was written by a newer momiji-tui, in a format this version cannot read."""

    def __init__(self, path: str | os.PathLike[str], found: int, supported: int) -> None:
        self.path = Path(path)
        self.found = found
        self.supported = supported
        super().__init__(
            f"The saved game {self.path.name} was made by a newer momiji-tui "
            f"(format {found}); this version reads up to {supported}."
        )
