"""What a table writes its moves through: the file store's ``GameLog`` and the
database's ``DatabaseGameLog`` are the two implementations."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import Protocol

from .log import Event, Header, LoadedLog


class GameWriter(Protocol):
    """One game's open log, holding the right to append to it until
    :meth:`close`. ``loaded`` is the game as it was when opened, ``header``
    its save header, ``path`` what names it (a file, or the game id)."""

    loaded: LoadedLog
    header: Header
    path: Path

    @property
    def game_id(self) -> str:
        """The game's id."""
        ...

    def extend(self, events: Iterable[Event], *, now: datetime | None = None) -> None:
        """Save one move's events, whole or not at all. Raises ``WriteFailed``
        when the move could not be saved (nothing was), ``Conflict`` when
        another writer saved first (the database store)."""
        ...

    def close(self) -> None:
        """Give up the right to append (the game stays resumable)."""
        ...
