"""Where a server keeps its players' ratings: the ratings file of its data
directory (``store/ratings.py``) or, with ``momiji serve --database``, the
database's ratings tables (``store/database/ratings.py``). Both answer the
same :class:`RatingBook` questions, and both apply a game exactly once.

What a result does to the ratings is :mod:`.ratings`' (pure); here it is
only handed to the store as the ``update`` of its one transaction, so the
ratings it starts from are the ones the store holds at that moment.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from ..store.ratings import Rating, RatingChange, RatingsFile
from .ratings import NEW, GameResult, rate

if TYPE_CHECKING:  # psycopg is optional: loaded only by momiji serve --database
    from ..store.database import SyncGameStore


class RatingBook(Protocol):
    """A server's ratings."""

    def look_up(self, accounts: Iterable[str]) -> dict[str, Rating]:
        """The ratings of those of ``accounts`` that have one. Raises
        ``OSError`` (files) or ``psycopg.Error`` (the database)."""
        ...

    def record(self, result: GameResult) -> tuple[dict[str, RatingChange], bool]:
        """Rate ``result``'s game unless it was rated already; its changes,
        and True when this call applied them. Raises as :meth:`look_up`."""
        ...


class FileRatingBook:
    """Ratings in ``<data>/ratings/ratings.json``."""

    def __init__(self, data_dir: Path) -> None:
        self.file = RatingsFile(data_dir / "ratings", NEW)

    def look_up(self, accounts: Iterable[str]) -> dict[str, Rating]:
        """See :class:`RatingBook`."""
        return self.file.read(accounts)

    def record(self, result: GameResult) -> tuple[dict[str, RatingChange], bool]:
        """See :class:`RatingBook`."""
        return self.file.apply_once(result.game_id, result.accounts, lambda before: rate(result, before))


class DatabaseRatingBook:
    """Ratings in the database's ``ratings`` and ``rated_games`` tables."""

    def __init__(self, store: SyncGameStore) -> None:
        self.store = store

    def look_up(self, accounts: Iterable[str]) -> dict[str, Rating]:
        """See :class:`RatingBook`."""
        from ..store.database.ratings import read_ratings

        wanted = list(accounts)
        return self.store.run(lambda conn: read_ratings(conn, wanted))

    def record(self, result: GameResult) -> tuple[dict[str, RatingChange], bool]:
        """See :class:`RatingBook`."""
        from ..store.database.ratings import apply_once

        return self.store.run(lambda conn: apply_once(conn, result.game_id, result.accounts, NEW,
                                                      lambda before: rate(result, before)))


__all__ = ["DatabaseRatingBook", "FileRatingBook", "RatingBook"]
