"""Ratings of the players of shared tables: pure (a result in, new ratings
out), with openskill's Plackett–Luce model, made for games of several
players (ranks of any length, ties included).

Which games count: a finished shared game whose seats are owned by at least
two different rated accounts (players with a key: :func:`rated_account`).
A seat a bot took over after its owner left still counts as its owner's.

Who is in the rate call: every seat, each as a team of one, with its rank
(:func:`ranks`). A bot seat enters at its level's fixed rating
(:data:`BOT_RATINGS`), a guest at a newcomer's (:data:`NEW`); neither is
ever updated or stored: only the rated accounts' new ratings come out. So
a player's games against bots count too: beating Hard moves a rating more
than beating Easy.

The fixed bot ratings come from the bots' measured head-to-head win rates
(docs/BOTS.md): Hard beat Normal in 65.3% of games, Normal beat Easy in
99.5%. Normal sits at a newcomer's mean (25), and the others are placed
where the model's own ``predict_win`` gives those rates
(tests/session/test_ratings.py checks it).

The rating shown is the ordinal ``mu − 3·sigma`` (0 for a newcomer, as
openskill's ``ordinal()``), with how much the last game moved it:
``"rating 27.1 (+0.8)"``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from ..engine.scoring import ScoreSheet
from ..store.ratings import Rating, RatingChange

MODEL = PlackettLuce()
"""openskill's Plackett–Luce model with its defaults (mu 25, sigma 25/3,
beta 25/6, tau 25/300)."""

NEW = Rating(MODEL.mu, MODEL.sigma, 0)
"""A newcomer's rating (and a guest's, fixed)."""

BOT_SIGMA = 1.0
"""How uncertain a bot's fixed rating is (it is measured over thousands of games)."""

BOT_RATINGS: dict[str, Rating] = {
    "easy": Rating(9.4, BOT_SIGMA),
    "normal": Rating(25.0, BOT_SIGMA),
    "hard": Rating(27.4, BOT_SIGMA),
}
"""Each bot level's fixed rating (see the module docstring)."""

GUEST_PREFIX = "guest-"


def rated_account(account_id: str | None) -> str | None:
    """The account a seat's owner is rated under, or None (a guest, whose id
    lives one login, or no owner). The one place that says how an account is
    identified: a key holder's ``account_id`` (ssh/identity.py)."""
    if account_id is None or account_id.startswith(GUEST_PREFIX):
        return None
    return account_id


@dataclass(frozen=True)
class RatedSeat:
    """A seat in the rate call: a rated ``account``, or a ``fixed`` rating
    (a bot's, a guest's) that is never updated."""

    account: str | None = None
    fixed: Rating | None = None


@dataclass(frozen=True)
class GameResult:
    """A finished game as the ratings see it: its seats and their ranks (1
    is first; equal ranks are a tie)."""

    game_id: str
    seats: tuple[RatedSeat, ...]
    ranks: tuple[int, ...]

    @property
    def accounts(self) -> tuple[str, ...]:
        """The rated accounts, in seat order."""
        return tuple(s.account for s in self.seats if s.account is not None)


def ranks(sheet: ScoreSheet) -> tuple[int, ...]:
    """Each seat's rank (1 = first) by total, then acorns (RULES §7). Seats
    equal in both share a rank: for the winners that is RULES §7's shared
    victory; below first place RULES is silent and the same order is used."""
    keys = [(s.total, s.acorns) for s in sheet.seats]
    return tuple(1 + sum(1 for other in keys if other > key) for key in keys)


def game_result(game_id: str, bot_levels: Sequence[str | None], owners: Sequence[str | None],
                sheet: ScoreSheet) -> GameResult | None:
    """The result to rate, or None when the game does not count (fewer than
    two rated accounts, or one account in two seats). ``bot_levels``: per
    seat, the level of a seat that was a bot from the start, else None;
    ``owners``: per seat, the owner's account id (None for a bot). Raises
    ``ValueError`` for lists of different lengths or an unknown bot level."""
    if not len(bot_levels) == len(owners) == len(sheet.seats):
        raise ValueError("a level, an owner and a score per seat")
    seats = []
    for level, owner in zip(bot_levels, owners, strict=True):
        if level is not None:
            if level not in BOT_RATINGS:
                raise ValueError(f"no rating for bot level {level!r}")
            seats.append(RatedSeat(fixed=BOT_RATINGS[level]))
        else:
            account = rated_account(owner)
            seats.append(RatedSeat(account) if account is not None else RatedSeat(fixed=NEW))
    result = GameResult(game_id, tuple(seats), ranks(sheet))
    accounts = result.accounts
    if len(accounts) < 2 or len(set(accounts)) != len(accounts):
        return None
    return result


def rate(result: GameResult, before: Mapping[str, Rating]) -> dict[str, Rating]:
    """The rated accounts' ratings after ``result``, from ``before`` (one per
    account of ``result.accounts``): one ``PlackettLuce.rate`` call, every
    seat a team of one, ranks as given (ties as the library ranks them).
    Raises ``KeyError`` for an account missing from ``before``."""
    teams = []
    for seat in result.seats:
        r = before[seat.account] if seat.account is not None else seat.fixed
        assert r is not None
        teams.append([MODEL.rating(mu=r.mu, sigma=r.sigma)])
    rated = MODEL.rate(teams, ranks=[float(r) for r in result.ranks])
    out = {}
    for seat, team in zip(result.seats, rated, strict=True):
        if seat.account is not None:
            out[seat.account] = Rating(team[0].mu, team[0].sigma, before[seat.account].games + 1)
    return out


def rating_text(rating: Rating | None, change: RatingChange | None = None) -> str:
    """``"rating 27.1 (+0.8)"`` (after a game), ``"rating 27.1"``, or
    ``"unrated"`` (None, or no game rated yet)."""
    if change is not None:
        return f"rating {change.after.ordinal:.1f} ({change.delta:+.1f})"
    if rating is None or rating.games == 0:
        return "unrated"
    return f"rating {rating.ordinal:.1f}"


__all__ = [
    "BOT_RATINGS", "GameResult", "MODEL", "NEW", "RatedSeat", "Rating", "RatingChange",
    "game_result", "ranks", "rate", "rated_account", "rating_text",
]
