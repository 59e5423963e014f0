"""The daily deal: one deal a day for everyone, as duplicate bridge does it.

The deal's logic (days, seeds, boards) is pure; the functions that play it
(:func:`start_daily`, :func:`board_text`) are handed the store
(``store/daily.py``, ``store/database/daily.py``) and the moment: this
module reads no clock and opens no file itself.

- A *day* is a UTC calendar day (:func:`day_of`): the deal changes at 00:00
  UTC everywhere. A *week* is an ISO week, Monday to Sunday UTC (:func:`week_of`).
- The day's seed is HMAC-SHA256 of ``"momiji-daily:<YYYY-MM-DD>"`` under the
  server's secret, its first 128 bits (:func:`daily_seed`): nobody without the
  secret can know it in advance. Its SHA-256 (``deal_seed.seed_sha256``) is
  shown before play; the seed is shown from the next day on
  (:func:`revealed_seed`), and the game's save carries both, so ``momiji
  verify`` checks it.
- Everyone meets the same table (:data:`DAILY_SEATS`): the player in seat 1
  as "You" (the same name for all, so the bots see the same views), then the
  bots Kaede and Ginnan, both Normal, starter panoramas. The bots' seeds come
  from the game's seed (``Table.bot_command``), so the same moves get the
  same answers.
- A player plays it once a day; the score is the player's final total
  (RULES §7). A server's boards rank a game only if it ended within its
  UTC day (:func:`ranked_score`): from 00:00 UTC its seed is on the board.
  The boards rank by score, highest first; equal scores share a rank
  (1, 2, 2, 4) (:func:`rank_board`); the week's board ranks the sum of the
  week's scores.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING

from .. import engine
from ..store.daily import DailyPlay, DailyStore, FileDailyStore
from . import deal_seed
from .table import BOT, HUMAN, SeatConfig, Table

if TYPE_CHECKING:
    from .database_games import DatabaseGames

__all__ = ["DailyPlay", "DailyStore"]

log = logging.getLogger("momiji_tui.session")

DAILY_SEATS = (SeatConfig("You", HUMAN), SeatConfig("Kaede", BOT, "normal"), SeatConfig("Ginnan", BOT, "normal"))
"""The daily deal's table: the player, then two Normal bots (starter panoramas)."""
DAILY_LANDSCAPE_MODE = "starter"
PLAYER_SEAT = 0
SEED_BITS = 128


def day_of(moment: datetime) -> date:
    """The UTC calendar day of ``moment`` (an aware datetime; naive is taken as UTC)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).date()


def week_of(day: date) -> tuple[date, date]:
    """The ISO week holding ``day``: (its Monday, its Sunday)."""
    monday = day - timedelta(days=day.weekday())
    return monday, monday + timedelta(days=6)


def daily_seed(secret: bytes, day: date) -> int:
    """The deal seed of ``day``: the first :data:`SEED_BITS` bits of
    HMAC-SHA256(secret, ``"momiji-daily:" + day.isoformat()``), an int in
    ``[0, 2**128)``. Raises ``ValueError`` for an empty secret."""
    if not secret:
        raise ValueError("the daily deal needs a secret")
    mac = hmac.new(secret, f"momiji-daily:{day.isoformat()}".encode("ascii"), hashlib.sha256).digest()
    return int.from_bytes(mac[: SEED_BITS // 8], "big")


def revealed_seed(secret: bytes, day: date, today: date) -> int | None:
    """``day``'s seed once it may be shown (``day`` is before ``today``), else None."""
    return daily_seed(secret, day) if day < today else None


@dataclass(frozen=True)
class BoardRow:
    """A line of a leaderboard: rank (equal scores share one), name, score,
    and how many daily deals the score adds up (1 on a day's board)."""

    rank: int
    name: str
    score: int
    account_id: str
    games: int = 1


def rank_board(totals: list[tuple[str, str, int, int]]) -> list[BoardRow]:
    """``(account_id, name, score, games)`` ranked: highest score first,
    equal scores share a rank and then go by name; the next rank skips
    (1, 2, 2, 4)."""
    ordered = sorted(totals, key=lambda t: (-t[2], t[1], t[0]))
    rows: list[BoardRow] = []
    for i, (account, name, score, games) in enumerate(ordered):
        rank = rows[-1].rank if rows and rows[-1].score == score else i + 1
        rows.append(BoardRow(rank, name, score, account, games))
    return rows


def day_board(plays: list[DailyPlay], day: date) -> list[BoardRow]:
    """The board of ``day``: each finished play of that day, ranked by score."""
    return rank_board([(p.account_id, p.name, p.score, 1) for p in plays if p.day == day and p.score is not None])


def week_board(plays: list[DailyPlay], day: date) -> list[BoardRow]:
    """The board of ``day``'s ISO week: each player's finished daily scores
    of that week summed (the name of their latest play), ranked."""
    first, last = week_of(day)
    sums: dict[str, tuple[str, int, int, date]] = {}
    for p in plays:
        if p.score is None or not first <= p.day <= last:
            continue
        name, total, games, latest = sums.get(p.account_id, (p.name, 0, 0, p.day))
        if p.day >= latest:
            name, latest = p.name, p.day
        sums[p.account_id] = (name, total + p.score, games + 1, latest)
    return rank_board([(a, n, s, g) for a, (n, s, g, _) in sums.items()])


def already_played_line(day: date) -> str:
    """The one line that refuses a second try on ``day``."""
    return (f"You have already played the daily deal of {day.isoformat()} (UTC); "
            "the next one starts at 00:00 UTC.")


def board_lines(title: str, rows: list[BoardRow], me: str | None = None) -> list[str]:
    """A board as text lines: a title, then ``rank. name score`` (``me``'s
    row marked with ``*``); "no finished games" when empty."""
    out = [title]
    if not rows:
        return [*out, "  (no finished games yet)"]
    for r in rows:
        games = f"  ({r.games} deals)" if r.games > 1 else ""
        mark = "*" if r.account_id == me else " "
        out.append(f"{mark}{r.rank:>3}. {r.name:<24} {r.score:>4}{games}")
    return out


# -- playing it, with a store (files or the database) handed in ---------------------------
class DailyTable(Table):
    """A daily deal's table: a solo table whose header commits to its seed."""

    commits_seed = True


#: Makes the day's table: ``(seats, seed, game_id, day) -> table`` (``day``:
#: YYYY-MM-DD, for ``Table.new(daily=…)``), saved where the player's games go.
MakeTable = Callable[[list[SeatConfig], int, str, str], Table]


@dataclass(frozen=True)
class DailyOffer:
    """What a player is told before the day's deal: the UTC day and the
    SHA-256 its seed is committed to."""

    day: date
    seed_sha256: str


def todays_offer(secret: bytes, now: datetime) -> DailyOffer:
    """The deal of ``now``'s UTC day: its day and commitment (the seed stays hidden)."""
    day = day_of(now)
    return DailyOffer(day, deal_seed.seed_sha256(daily_seed(secret, day)))


def start_daily(store: DailyStore, account_id: str, name: str, now: datetime, make_table: MakeTable,
                new_id: Callable[[], str]) -> Table | str:
    """Claim ``account_id``'s daily deal of ``now``'s UTC day and make its
    table (``make_table``, with the game id ``new_id()``), or return the one
    line that refuses a second try. Raises what ``make_table`` and the store
    raise (``WriteFailed``): the claim is then given back."""
    day = day_of(now)
    seed = daily_seed(store.secret(), day)
    game_id = new_id()
    if not store.claim(DailyPlay(day, account_id, name, game_id)):
        return already_played_line(day)
    try:
        return make_table(list(DAILY_SEATS), seed, game_id, day.isoformat())
    except BaseException:
        store.release(day, account_id)
        raise


#: ``final_score(play)``: the player's final total in the play's game, or None
#: (not ended, or the game cannot be read).
FinalScore = Callable[[DailyPlay], int | None]


def todays_play(store: DailyStore, account_id: str, now: datetime) -> DailyPlay | None:
    """``account_id``'s play of ``now``'s UTC day, if they have one (an
    unfinished one is continued, not played again)."""
    today = day_of(now)
    return next((p for p in store.plays(today, today) if p.account_id == account_id), None)


def settle_scores(store: DailyStore, plays: list[DailyPlay], final_score: FinalScore) -> list[DailyPlay]:
    """``plays`` with the scores of games that have ended since, recorded in
    ``store``. A score the store refuses to keep (``OSError``: a full or
    read-only disk) is logged and still returned: it is settled again next time."""
    out = []
    for p in plays:
        if p.score is None and (score := final_score(p)) is not None:
            try:
                store.record_score(p.day, p.account_id, score)
            except OSError as exc:
                log.warning("the daily score of %s on %s is not kept: %s", p.account_id, p.day, exc)
            p = DailyPlay(p.day, p.account_id, p.name, p.game_id, score)
        out.append(p)
    return out


def board_text(store: DailyStore, now: datetime, final_score: FinalScore,
               me: str | None = None, *, everyone: bool = True) -> list[str]:
    """The lines of ``momiji daily --board`` and the lobby's board: today's
    commitment and yesterday's seed, then (``everyone``) the boards of the
    day and of the week, or (not ``everyone``: a local player) ``me``'s own
    history, a day a line."""
    today = day_of(now)
    secret = store.secret()
    yesterday = today - timedelta(days=1)
    shown = revealed_seed(secret, yesterday, today) or 0
    lines = [f"Daily deal of {today.isoformat()} (a UTC day): seed SHA-256 {todays_offer(secret, now).seed_sha256}.",
             f"Yesterday's seed ({yesterday.isoformat()}): {shown} (SHA-256 {deal_seed.seed_sha256(shown)})."]
    if not everyone:
        mine = settle_scores(store, store.history(me or ""), final_score)
        lines.append("Your daily deals:")
        lines += [f"  {p.day.isoformat()}  {'playing' if p.score is None else p.score:>7}  {p.game_id}"
                  for p in mine] or ["  (none yet: momiji daily)"]
        return lines
    first, _ = week_of(today)
    plays = settle_scores(store, store.plays(first, today), final_score)
    lines += board_lines(f"Today ({today.isoformat()}):", day_board(plays, today), me)
    lines += board_lines(f"This week (from Monday {first.isoformat()}):", week_board(plays, today), me)
    return lines


def final_score(events: list[dict]) -> int | None:
    """The player's final total (RULES §7) in a daily game's saved events,
    or None while it has not ended. Raises ``ValueError`` for events the
    rules reject."""
    state = engine.fold(engine.from_dict(e) for e in events)
    if state.phase != "ended":
        return None
    return engine.score(state).seats[PLAYER_SEAT].total


def ranked_score(events: list[dict], ended: datetime | None, day: date) -> int | None:
    """The player's final total in a daily game of ``day`` (:func:`final_score`)
    for a server's boards: None also when its last move was saved (``ended``)
    at or after 00:00 UTC the next day, when the boards show ``day``'s seed
    (:func:`revealed_seed`): a game finished then could be played knowing
    every hand and the deck. Raises as :func:`final_score`."""
    score = final_score(events)
    if score is None or ended is None:
        return score
    if ended.tzinfo is None:
        ended = ended.replace(tzinfo=UTC)
    return score if day_of(ended) <= day else None


def open_daily_store(data_dir: str | os.PathLike[str], games: DatabaseGames | None) -> DailyStore:
    """Where a server keeps its daily deals: the database of ``games`` when
    it has one (every host agrees), else ``data_dir``'s files."""
    if games is None:
        return FileDailyStore(data_dir)
    from ..store.database.daily import DatabaseDailyStore

    return DatabaseDailyStore(games.store)
