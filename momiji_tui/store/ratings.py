"""Ratings kept in files: ``<data>/ratings/ratings.json``, one JSON object
(the file store of ``momiji serve``; the database keeps them in its own
tables, ``store/database/ratings.py``).

The file holds every rated account's rating and, per rated game, each of
its accounts' rating before and after that game. A game's ratings are
applied once: :meth:`RatingsFile.apply_once` reads, computes and writes
under an exclusive lock (``flock`` on ``ratings/.lock``, blocking: another
process waits its turn), and a game already in the file is not applied
again (its recorded changes are returned). The file is replaced atomically
(``_fs.write_file``), so a crash leaves the old file or the new one. A file
that cannot be read as ratings is moved aside (``aside.move_aside``) and logged;
the ratings start again empty. A file of a newer version is not damaged: it
is left as it is, and no game is rated over it.

The store holds numbers only: how a result moves them is the session's
(``session/ratings.py``), passed in as ``update``.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import _fs
from .aside import move_aside
from .errors import StoreError

log = logging.getLogger("momiji_tui.store")

RATINGS_FORMAT = "momiji-ratings"
RATINGS_VERSION = 1


@dataclass(frozen=True)
class Rating:
    """One account's rating: ``mu`` (the skill believed), ``sigma`` (how
    uncertain it is; > 0), ``games`` (rated games played)."""

    mu: float
    sigma: float
    games: int = 0

    @property
    def ordinal(self) -> float:
        """``mu − 3·sigma``: the rating shown (a newcomer's is 0; it rises
        as the player wins and as the system grows sure of them)."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class RatingChange:
    """What one game did to one account's rating."""

    before: Rating
    after: Rating

    @property
    def delta(self) -> float:
        """How far the shown rating moved (``after.ordinal − before.ordinal``)."""
        return self.after.ordinal - self.before.ordinal


Update = Callable[[Mapping[str, Rating]], Mapping[str, Rating]]
"""Given the ratings of a game's accounts before it, their ratings after it."""


def rating_to_json(rating: Rating) -> dict[str, Any]:
    """``{"mu", "sigma", "games"}``."""
    return {"mu": rating.mu, "sigma": rating.sigma, "games": rating.games}


def rating_from_json(obj: object) -> Rating:
    """The :class:`Rating` of :func:`rating_to_json`'s object. Raises ``ValueError`` (also for
    a number that is not finite)."""
    if not isinstance(obj, dict):
        raise ValueError("a rating is not an object")
    mu, sigma, games = obj.get("mu"), obj.get("sigma"), obj.get("games", 0)
    if (not isinstance(mu, int | float) or not isinstance(sigma, int | float) or sigma <= 0
            or not isinstance(games, int) or games < 0 or not _finite(mu) or not _finite(sigma)):
        raise ValueError(f"not a rating: {obj!r}"[:200])
    return Rating(float(mu), float(sigma), games)


def _finite(number: int | float) -> bool:
    """True for a number a float holds (not NaN, ±Infinity, or an int past 1e308)."""
    try:
        return math.isfinite(number)
    except OverflowError:
        return False


def changes_to_json(changes: Mapping[str, RatingChange]) -> dict[str, Any]:
    """``{account: {"before": rating, "after": rating}}``."""
    return {account: {"before": rating_to_json(c.before), "after": rating_to_json(c.after)}
            for account, c in changes.items()}


def changes_from_json(obj: object) -> dict[str, RatingChange]:
    """The changes of :func:`changes_to_json`'s object. Raises ``ValueError``."""
    if not isinstance(obj, dict):
        raise ValueError("a game's rating changes are not an object")
    out = {}
    for account, change in obj.items():
        if not isinstance(change, dict):
            raise ValueError("a rating change is not an object")
        out[str(account)] = RatingChange(rating_from_json(change.get("before")), rating_from_json(change.get("after")))
    return out


def apply_update(accounts: Sequence[str], before: Mapping[str, Rating], update: Update) -> dict[str, RatingChange]:
    """Run ``update`` on ``before`` (one rating per account of ``accounts``)
    and pair each account's before and after. Raises ``ValueError`` if
    ``update`` leaves an account out."""
    after = update(before)
    missing = [a for a in accounts if a not in after]
    if missing:
        raise ValueError(f"the update gave no rating for {missing}")
    return {a: RatingChange(before[a], after[a]) for a in accounts}


class RatingsFile:
    """The ratings file of a data directory (see the module docstring).
    ``new``: the rating of an account never rated."""

    def __init__(self, folder: Path, new: Rating) -> None:
        self.folder = folder
        self.path = folder / "ratings.json"
        self.new = new

    def read(self, accounts: Iterable[str]) -> dict[str, Rating]:
        """The ratings of those of ``accounts`` that have one. Raises ``OSError``."""
        players, _ = self._load(set_aside=False)
        return {a: players[a] for a in accounts if a in players}

    def changes_of(self, game_id: str) -> dict[str, RatingChange] | None:
        """What rating ``game_id`` changed, or None if it was not rated. Raises ``OSError``."""
        _, games = self._load(set_aside=False)
        return games.get(game_id)

    def apply_once(self, game_id: str, accounts: Sequence[str], update: Update) -> tuple[dict[str, RatingChange], bool]:
        """Rate ``game_id`` for ``accounts`` unless it is rated already.
        Returns its changes and True when this call applied them (False: they
        were applied before, by this process or another). Raises ``OSError``
        (the disk refuses, or the file is of a newer version: nothing
        changed), ``ValueError`` from ``update``."""
        self.folder.mkdir(parents=True, exist_ok=True)
        with self._locked():
            players, games = self._load(set_aside=True)
            if game_id in games:
                return games[game_id], False
            before = {a: players.get(a, self.new) for a in accounts}
            changes = apply_update(accounts, before, update)
            for account, change in changes.items():
                players[account] = change.after
            games[game_id] = changes
            data = {"format": RATINGS_FORMAT, "version": RATINGS_VERSION,
                    "players": {a: rating_to_json(r) for a, r in sorted(players.items())},
                    "games": {g: changes_to_json(c) for g, c in sorted(games.items())}}
            _fs.write_file(self.path, json.dumps(data, indent=1).encode("utf-8"), replace=True)
            return changes, True

    def _load(self, *, set_aside: bool) -> tuple[dict[str, Rating], dict[str, dict[str, RatingChange]]]:
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return {}, {}
        try:
            data = json.loads(raw.decode("utf-8"))  # bytes not UTF-8: a ValueError, damaged like bad JSON
            if not isinstance(data, dict) or data.get("format") != RATINGS_FORMAT:
                raise ValueError("it is not a momiji ratings file")
            version = data.get("version")
            if isinstance(version, int) and not isinstance(version, bool) and version > RATINGS_VERSION:
                newer = (f"the ratings file {self.path} was written by a newer momiji (version {version}); "
                         f"this momiji reads {RATINGS_VERSION}: update momiji to rate games")
                if set_aside:
                    raise OSError(newer)  # not damaged: never moved aside, never written over
                log.error("%s", newer)
                return {}, {}
            if version != RATINGS_VERSION:
                raise ValueError(f"it is version {version!r}, this momiji reads {RATINGS_VERSION}")
            raw_players, raw_games = data.get("players"), data.get("games")
            if not isinstance(raw_players, dict) or not isinstance(raw_games, dict):
                raise ValueError("it lists no players or no games")
            players = {str(a): rating_from_json(r) for a, r in raw_players.items()}
            games = {str(g): changes_from_json(c) for g, c in raw_games.items()}
        except ValueError as exc:
            if not set_aside:
                log.error("the ratings file %s is damaged (%s)", self.path, exc)
                return {}, {}
            try:
                aside = move_aside(self.path, f"The ratings file is damaged ({exc}).", None)
                log.error("the ratings file was damaged (%s); kept aside as %s; ratings start again", exc, aside.name)
            except (OSError, StoreError) as err:
                raise OSError(f"the ratings file {self.path} is damaged ({exc}) and cannot be moved aside: "
                              f"{err}") from None
            return {}, {}
        return players, games

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        fd = os.open(self.folder / ".lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            if sys.platform != "win32":
                import fcntl

                fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)  # closing releases the lock


__all__ = [
    "RATINGS_FORMAT", "Rating", "RatingChange", "RatingsFile", "Update", "apply_update",
    "changes_from_json", "changes_to_json", "rating_from_json", "rating_to_json",
]
