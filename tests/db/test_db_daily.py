"""The daily deal on PostgreSQL (store/database/daily.py): two hosts on one
database agree on the secret, on who has played the day and on the boards;
the games are the database's, verified as files are."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from momiji_tui import engine
from momiji_tui.session import daily
from momiji_tui.session.database_games import DatabaseGames
from momiji_tui.session.table import Table, validate_log
from momiji_tui.session.verify import VERIFIED, verify_game
from momiji_tui.store import new_game_id
from momiji_tui.store.daily import DailyPlay

NOON = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)


def play_out(table: Table) -> list[dict]:
    while not table.finished:
        seat = table.current
        table.submit(table.bot_command(seat) if table.seats[seat].is_bot else table.legal(seat)[0])
    return [{k: v for k, v in engine.to_dict(e).items() if k != "game_id"} for e in table.events]


def test_two_hosts_agree_on_the_daily_deal_and_its_boards(pg_url):
    one, two = DatabaseGames.open(pg_url), DatabaseGames.open(pg_url)  # two hosts, one database
    try:
        store_one, store_two = daily.open_daily_store("unused", one), daily.open_daily_store("unused", two)
        assert store_one.secret() == store_two.secret() and len(store_one.secret()) == 32
        played = {}
        for account, games, store in (("alice", one, store_one), ("bob", two, store_two)):
            def make(seats, seed, game_id, day, games=games, account=account):
                return games.new_table(daily.DailyTable, seats, seed=seed, landscape_mode="starter",
                                       owners=[account], game_id=game_id, daily=day)
            table = daily.start_daily(store, account, account, NOON, make, new_game_id)
            assert isinstance(table, Table)
            played[account] = play_out(table)
            table.close()
        assert played["alice"] == played["bob"]  # the same deal, the same bots' answers
        # Alice on the other host the same UTC day: refused; nothing recorded twice.
        refused = daily.start_daily(store_two, "alice", "alice", NOON.replace(hour=23), lambda *a: None, new_game_id)
        assert isinstance(refused, str) and refused.startswith("You have already played the daily deal of 2026-12-03")

        def final_score(play: DailyPlay):
            return daily.final_score(one.store.load_game(play.game_id, validate_log).loaded.events)

        lines = daily.board_text(store_one, NOON, final_score, me="bob")
        today = lines[lines.index("Today (2026-12-03):") + 1:lines.index("This week (from Monday 2026-11-30):")]
        assert len(today) == 2 and all(line.split()[-1].isdigit() for line in today)
        scores = {p.account_id: p.score for p in store_two.plays(NOON.date(), NOON.date())}  # settled for both
        assert scores["alice"] == scores["bob"] is not None
        loaded = two.store.load_game(store_two.history("alice")[0].game_id).loaded
        assert loaded.header["seed_sha256"] == daily.todays_offer(store_two.secret(), NOON).seed_sha256
        assert verify_game(loaded.header, loaded.events).status == VERIFIED
    finally:
        one.close()
        two.close()


def test_a_failed_game_gives_the_claim_back_on_the_database(pg_url):
    games = DatabaseGames.open(pg_url)
    try:
        store = daily.open_daily_store("unused", games)

        def refuse(seats, seed, game_id, day):
            raise ValueError("no")

        with pytest.raises(ValueError):
            daily.start_daily(store, "alice", "alice", NOON, refuse, new_game_id)
        assert store.history("alice") == []
    finally:
        games.close()


async def test_the_lobbys_daily_deal_on_the_database_two_players_one_deal_once(pg_url, isolated_dirs, clients):
    import asyncio

    from ssh_harness import TIMEOUT, new_key, scripted_bot, wait_app, wait_until

    from momiji_tui.ssh.game_server import start_game_server
    from momiji_tui.ui.screens.table import TableScreen

    games = DatabaseGames.open(pg_url)
    game = await start_game_server(data_dir=isolated_dirs, games=games, port=0, bot_delay=0,
                                   make_bot=scripted_bot, housekeeping_every=None)
    try:
        game.lobby.daily_clock = lambda: NOON
        apps = []
        for name in ("alice", "bob"):
            term = await clients.terminal(game.port, username=name, key=new_key(), size=(120, 40))
            await term.wait_for_text("Daily deal")
            app = await wait_app(game, name)
            term.send("d")
            await wait_until(lambda app=app: isinstance(app.screen, TableScreen))
            apps.append(app)
        a, b = (app.table for app in apps)
        assert a.game_id != b.game_id and a.events[0].deck == b.events[0].deck  # one deal
        assert a.seed_sha256 == b.seed_sha256 == daily.todays_offer(game.lobby.daily.secret(), NOON).seed_sha256
        assert list(isolated_dirs.rglob("*.jsonl")) == []  # the games are the database's
        with_owner = {p.account_id: p.game_id for p in game.lobby.daily.plays(NOON.date(), NOON.date())}
        assert set(with_owner.values()) == {a.game_id, b.game_id}
    finally:
        await asyncio.wait_for(game.close(timeout=TIMEOUT), 2 * TIMEOUT)


async def test_a_version_4_database_gets_the_daily_tables_keeping_its_ratings(pg_url, pg_admin):
    from momiji_tui.store.database import open_store, schema
    from momiji_tui.store.database.connect import open_connection

    conn = await open_connection(pg_url, autocommit=True)
    real = schema.SCHEMA_VERSION
    try:
        schema.SCHEMA_VERSION = 4
        await schema.ensure_schema(conn)  # what momiji with schema 4 (ratings, names) made
    finally:
        schema.SCHEMA_VERSION = real
        await conn.close()
    pg_admin.execute("INSERT INTO ratings (account_id, mu, sigma) VALUES ('key-a', 25, 8)")
    assert pg_admin.execute("SELECT to_regclass('daily_plays')").fetchone() == (None,)
    await (await open_store(pg_url)).close()
    assert pg_admin.execute("SELECT version FROM momiji_schema").fetchone() == (schema.SCHEMA_VERSION,)
    assert pg_admin.execute("SELECT count(*) FROM daily_plays").fetchone() == (0,)
    assert pg_admin.execute("SELECT account_id FROM ratings").fetchall() == [("key-a",)]


def test_momiji_daily_board_database_prints_a_servers_boards(pg_url, isolated_dirs, capsys, monkeypatch):
    from momiji_tui import cli
    from momiji_tui.store import log as store_log

    games = DatabaseGames.open(pg_url)
    try:
        store = daily.open_daily_store("unused", games)
        for account, score in (("key-ann", 40), ("key-bo", 55)):
            assert store.claim(DailyPlay(NOON.date(), account, account[4:], new_game_id()))
            store.record_score(NOON.date(), account, score)
    finally:
        games.close()
    monkeypatch.setattr(store_log, "utc_now", lambda: NOON)
    code = cli.main(["daily", "--board", "--database", pg_url])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    lines = out.splitlines()
    today = lines[lines.index("Today (2026-12-03):") + 1:lines.index("This week (from Monday 2026-11-30):")]
    assert [line.split() for line in today] == [["1.", "bo", "55"], ["2.", "ann", "40"]]
    code = cli.main(["daily", "--database", pg_url])
    assert code == 2 and "--database shows a server's boards" in capsys.readouterr().err
