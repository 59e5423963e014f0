"""Where a lobby keeps its shared tables' games: save files under
``<data>/tables/games/`` (:class:`FileSharedGames`, the default) or the
database (``database_games.DatabaseGames``, ``momiji serve --database``).
Both answer the same :class:`SharedGames` questions, so the lobby never
asks which store it has."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from ..store import is_game_id
from . import seat_log
from .shared_table import LobbyError
from .seat_log import SeatSummary
from .shared_table import SharedTable
from .table import SeatConfig

log = logging.getLogger("momiji_tui.lobby")


class SharedGames(Protocol):
    """The shared tables' games of one lobby."""

    def new_shared(self, seats: list[SeatConfig], *, seed: int, landscape_mode: str,
                   owners: Sequence[str]) -> SharedTable:
        """A new shared game, saved. Raises ``ValueError``, the store's
        ``WriteFailed`` (nothing saved)."""
        ...

    def open_shared(self, game_id: str) -> SharedTable:
        """A shared game, loaded for play. Raises :class:`LobbyError` in words."""
        ...

    def summary(self, game_id: str) -> SeatSummary | None:
        """Its seats as its log tells them; None if it cannot be read."""
        ...

    def owners_index(self) -> dict[str, set[str]]:
        """Account id -> ids of the unfinished shared games where it owns a seat."""
        ...

    def owned_by(self, account_id: str) -> set[str] | None:
        """Ids of the unfinished shared games where ``account_id`` owns a
        seat, read now (another process may have started one); None: the
        lobby's own index is enough (one process per store)."""
        ...

    def migrate(self) -> None:
        """Once per lobby, before listing: bring old records up to date."""
        ...

    def close(self) -> None:
        """The server stops."""
        ...


class FileSharedGames:
    """Shared games as save files in ``tables_dir / "games"`` (the file store)."""

    def __init__(self, tables_dir: Path) -> None:
        self.tables_dir = tables_dir

    def game_path(self, game_id: str) -> Path:
        """The save file of ``game_id``. Raises :class:`LobbyError` for an id that is not one."""
        if not is_game_id(game_id):
            raise LobbyError("There is no such table.")
        return self.tables_dir / "games" / f"{game_id}.jsonl"

    def new_shared(self, seats: list[SeatConfig], *, seed: int, landscape_mode: str,
                   owners: Sequence[str]) -> SharedTable:
        """See :class:`SharedGames` (``owners`` are recorded by seat events, not here)."""
        return SharedTable.new(seats, seed=seed, landscape_mode=landscape_mode, data_dir=self.tables_dir)

    def open_shared(self, game_id: str) -> SharedTable:
        """See :class:`SharedGames`."""
        path = self.game_path(game_id)
        if not path.is_file():
            raise LobbyError("There is no such table.")
        try:
            return SharedTable.resume(path)
        except Exception as exc:  # a damaged save must not take the server down
            log.error("cannot resume shared game %s: %s", game_id, exc)
            raise LobbyError(f"That game cannot be opened: {exc}") from None

    def summary(self, game_id: str) -> SeatSummary | None:
        """See :class:`SharedGames`."""
        return seat_log.read_summary(self.game_path(game_id))

    def owners_index(self) -> dict[str, set[str]]:
        """See :class:`SharedGames`."""
        return seat_log.owners_index(self.tables_dir / "games")

    def owned_by(self, account_id: str) -> set[str] | None:
        """None: on files, shared tables are this process's own (see :class:`SharedGames`)."""
        return None

    def migrate(self) -> None:
        """The seats files of older versions become seat events (:mod:`.seat_log`)."""
        seat_log.migrate_seats_files(self.tables_dir)

    def close(self) -> None:
        """Nothing to close: each table closes its own file."""
