"""``momiji daily``: the daily deal played locally (``session/daily.py``).

Locally the daily secret is kept in the data directory (``store/daily.py``):
the deal is the same for every game of that folder, and the player's own
history is the board (a server's boards rank its players: docs/SERVER.md).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any
from pathlib import Path

from .session import daily
from .session.table import SeatConfig, Table
from .store.daily import FileDailyStore

LOCAL_ACCOUNT = "local"
"""The account of the player of a data directory (a server's are SSH identities)."""


def final_score_in(games: Path) -> daily.FinalScore:
    """``final_score(play)`` for the saves in ``games``: the player's final
    total, or None (not ended, missing, unreadable)."""
    from .session.table import validate_log
    from .store import load
    from .store.errors import StoreError

    def final_score(play: daily.DailyPlay) -> int | None:
        try:
            return daily.final_score(load(games / f"{play.game_id}.jsonl", validate_log).events)
        except (StoreError, OSError, ValueError):
            return None

    return final_score


def start_local(data: Path) -> Path | str:
    """Claim today's daily deal for the data directory's player and save its
    game: its save file (today's game again while it is unfinished), or the
    line refusing a second try today. Raises the store's ``WriteFailed``."""
    from .store import log, new_game_id

    store = FileDailyStore(data)
    play = daily.todays_play(store, LOCAL_ACCOUNT, log.utc_now())
    if play is not None and play.score is None:
        path = data / "games" / f"{play.game_id}.jsonl"
        if path.is_file() and final_score_in(data / "games")(play) is None:
            return path  # begun today, not ended: continue it

    def make(seats: list[SeatConfig], seed: int, game_id: str, day: str) -> Table:
        table = daily.DailyTable.new(seats, seed=seed, data_dir=data, game_id=game_id, daily=day)
        table.close()
        return table

    made = daily.start_daily(store, LOCAL_ACCOUNT, "You", log.utc_now(), make, new_game_id)
    if isinstance(made, str):
        return made
    assert made.save_file is not None
    return made.save_file


def cmd_daily(args: argparse.Namespace, data: Path) -> int:
    """Play today's daily deal (exit 1 with one line if already played), or
    with ``--board`` print the commitment, yesterday's seed and your history."""
    from .store import log
    from .store.errors import StoreError

    from .cli_database import database_url

    url = database_url(args)
    if args.board and url:
        return server_board(url)
    if getattr(args, "database", None):
        print("momiji daily: --database shows a server's boards (with --board); the daily deal is played "
              "from the data dir or over SSH.", file=sys.stderr)
        return 2
    store = FileDailyStore(data)
    try:
        if args.board:
            for line in daily.board_text(store, log.utc_now(), final_score_in(data / "games"),
                                         LOCAL_ACCOUNT, everyone=False):
                print(line)
            return 0
        made = start_local(data)
    except (StoreError, OSError, ValueError) as exc:  # e.g. the disk refused, a damaged secret file
        print(f"The daily deal cannot be started: {exc}", file=sys.stderr)
        return 1
    if isinstance(made, str):
        print(made, file=sys.stderr)
        return 1
    from .ui.app import MomijiApp
    from .cli import _run_app

    return _run_app(MomijiApp(data, resume_path=made))


def server_board(url: str) -> int:
    """``momiji daily --board --database URL``: a server's boards of the day
    and of the week, as its lobby shows them (exit 2 if the database cannot
    be used)."""
    from . import cli_database
    from .session.table import validate_log
    from .store import log
    from .store.database.daily import DatabaseDailyStore

    def action(store: Any) -> int:
        def final_score(play: daily.DailyPlay) -> int | None:
            try:
                loaded = store.load_game(play.game_id, validate_log).loaded
                return daily.ranked_score(loaded.events, loaded.last_played, play.day)
            except Exception:  # missing or unreadable now: no score yet
                return None

        for line in daily.board_text(DatabaseDailyStore(store), log.utc_now(), final_score):
            print(line)
        return 0

    return cli_database.run_on_database(action, url)
