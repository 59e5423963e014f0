"""The lobby's ratings: the half of the :class:`~.lobby.Lobby` that rates a
shared game when it finishes and says the ratings where players look (the
lobby's lists, the table's news, the score sheet).

A finished shared game is rated by the :class:`~.rating_book.RatingBook`
(files or the database, exactly once however many processes see it end);
what its result does is :mod:`.ratings`' (pure). The lobby keeps the
ratings it has seen (an account's at login, every account's after a game
rated here) so drawing a list never asks the store. A store that fails is
logged and the game waits (in this process) until the next game ends to be
tried again; play never waits for it.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..store.ratings import Rating, RatingChange
from .rating_book import DatabaseRatingBook, FileRatingBook, RatingBook
from .ratings import BOT_RATINGS, GameResult, game_result, rated_account, rating_text
from .shared_table import LiveTable, SeatNews
from .table import BOT, seat_configs

if TYPE_CHECKING:
    from pathlib import Path

    from .database_games import DatabaseGames

log = logging.getLogger("momiji_tui.lobby")


class LobbyRatings:
    """Ratings for a lobby (a mixin of :class:`~.lobby.Lobby`)."""

    ratings: RatingBook | None
    known_ratings: dict[str, Rating]
    rating_changes: dict[str, dict[str, RatingChange]]
    unrated: dict[str, GameResult]

    def _init_ratings(self, enabled: bool, data_dir: Path, games: DatabaseGames | None) -> None:
        """Keep ratings in ``games``' database, else in ``data_dir``; none if not ``enabled``."""
        self.ratings = None
        if enabled:
            self.ratings = DatabaseRatingBook(games.store) if games is not None else FileRatingBook(data_dir)
        self.known_ratings = {}
        self.rating_changes = {}  # game id -> what it changed (games that finished while live here)
        self._ratings_asked: set[str] = set()
        self.unrated = {}  # game id -> a result the store failed to take, tried again at the next game's end

    def look_up_rating(self, account_id: str) -> Rating | None:
        """``account_id``'s rating, read from the store now (and remembered);
        None for an account not rated, or when ratings are off or the store
        fails (logged)."""
        account = rated_account(account_id)
        if self.ratings is None or account is None:
            return None
        try:
            found = self.ratings.look_up([account]).get(account)
        except Exception as exc:  # OSError, psycopg.Error: a login must not fail for a rating
            log.error("cannot read the rating of %s: %s", account, exc)
            return self.known_ratings.get(account)
        if found is not None:
            self.known_ratings[account] = found
        return found

    def look_up_ratings(self, account_ids: Iterable[str]) -> None:
        """Remember the ratings of those of ``account_ids`` never asked about
        in this process (one read for all of them; e.g. the players online in
        the other processes of a shared lobby). A store that fails is logged."""
        wanted = {a for a in map(rated_account, account_ids) if a is not None} - self._ratings_asked
        if self.ratings is None or not wanted:
            return
        try:
            self.known_ratings.update(self.ratings.look_up(sorted(wanted)))
        except Exception as exc:  # OSError, psycopg.Error: the lists show no rating for them
            log.error("cannot read the ratings of %d players: %s", len(wanted), exc)
            return
        self._ratings_asked |= wanted

    def rating_tag(self, account_id: str | None) -> str:
        """What a list shows after a player's name: ``" · 27.1"``, or ``""``
        (ratings off, a guest, or no game rated yet)."""
        account = rated_account(account_id)
        rating = self.known_ratings.get(account) if self.ratings is not None and account is not None else None
        return f" · {rating.ordinal:.1f}" if rating is not None and rating.games else ""

    def rating_line(self, game_id: str, names: dict[str, str]) -> str | None:
        """The score sheet's line for a game rated here: ``"Ratings: alice
        rating 27.1 (+0.8), bob rating 3.2 (−0.4)"``; ``names``: account id ->
        the name to show, in seat order (the line's order). None if the game
        was not rated."""
        changes = self.rating_changes.get(game_id)
        if not changes:
            return None
        order = [a for a in names if a in changes] + [a for a in changes if a not in names]
        parts = [f"{names.get(account, account)} {rating_text(None, changes[account])}" for account in order]
        return "Ratings: " + ", ".join(parts) + "."

    def ratings_at_start(self, live: LiveTable) -> str | None:
        """What the players of a table that starts are told: ``"Rated game:
        alice rating 27.1, bob unrated, Kaede (normal) bot 22.0."``,
        or why it is not rated; None when ratings are off."""
        if self.ratings is None:
            return None
        accounts = [rated_account(s.account_id) for s in live.seats if s.account_id is not None]
        if len({a for a in accounts if a is not None}) < 2:
            return "Not a rated game: a game is rated when two players with keys play it to the end."
        parts = []
        for seat, config in zip(live.seats, live.table.seats, strict=True):
            account = rated_account(seat.account_id)
            if config.kind == BOT and config.level in BOT_RATINGS:
                parts.append(f"{seat.name} bot {BOT_RATINGS[config.level].ordinal:.1f}")
            elif account is not None:
                parts.append(f"{seat.name} {rating_text(self.known_ratings.get(account))}")
            else:
                parts.append(f"{seat.name} guest, unrated")
        return "Rated game: " + ", ".join(parts) + "."

    def _announce_ratings(self, live: LiveTable) -> None:
        """Tell the players of a table that starts its ratings (:meth:`ratings_at_start`)."""
        line = self.ratings_at_start(live)
        for seat in live.seats:
            if seat.member is not None and line is not None:
                seat.member.lobby_event(SeatNews(live.table, line))

    def _rate(self, live: LiveTable) -> None:
        """Rate ``live``'s game, which just finished (a shared game of two or
        more rated accounts), and tell its players. Games this lobby could
        not rate before (the store failed) are tried again first, in the
        order they finished."""
        if self.ratings is None:
            return
        table = live.table
        configs = seat_configs(table.log.header) if table.log is not None else table.seats
        levels = [c.level if c.kind == BOT else None for c in configs]
        try:
            result = game_result(live.game_id, levels, [s.account_id for s in live.seats], table.score())
        except ValueError as exc:  # a header whose bot level has no rating
            log.error("game %s: not rated: %s", live.game_id, exc)
            return
        if result is None:
            return
        for waiting in list(self.unrated.values()):
            self._record_rating(waiting)
        changes = self._record_rating(result)
        if changes is None:
            return
        names = {s.account_id: s.name for s in live.seats if s.account_id is not None}
        line = self.rating_line(live.game_id, names)
        for seat in live.seats:
            if seat.member is not None and line is not None:
                seat.member.lobby_event(SeatNews(table, line))

    def _record_rating(self, result: GameResult) -> dict[str, RatingChange] | None:
        """Hand ``result`` to the store; its changes, or None when the store
        failed (logged; the result waits in :attr:`unrated` for the next try)."""
        assert self.ratings is not None
        try:
            changes, applied = self.ratings.record(result)
        except Exception as exc:  # OSError, psycopg.Error: the game stays unrated until the next try
            log.error("game %s: the ratings were not updated: %s", result.game_id, exc)
            self.unrated[result.game_id] = result
            return None
        self.unrated.pop(result.game_id, None)
        self.rating_changes[result.game_id] = changes
        for account, change in changes.items():
            self.known_ratings[account] = change.after
        if applied:
            logging.getLogger("momiji").info("ratings updated: game %s, %s", result.game_id, ", ".join(
                f"{account} {change.after.ordinal:.1f} ({change.delta:+.1f})" for account, change in changes.items()))
        return changes


__all__ = ["LobbyRatings"]
