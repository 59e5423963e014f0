"""Ratings on PostgreSQL (store/database/ratings.py): a finished shared game
rates its players in the database, once, however many hosts see it end."""

from __future__ import annotations

import threading
import time

import pytest
from rated_play import Member as FakeMember
from rated_play import play_to_the_end

from momiji_tui.session.database_games import DatabaseGames
from momiji_tui.session.lobby import Lobby
from momiji_tui.session.rating_book import DatabaseRatingBook
from momiji_tui.session.ratings import NEW, GameResult, RatedSeat, game_result, rate
from momiji_tui.session.shared_table import live_from_log
from momiji_tui.store.database import SyncGameStore
from momiji_tui.store.database.ratings import apply_once
from momiji_tui.store.ratings import Rating

ALICE, BOB = "key-alice", "key-bob"
GAME = "20261203-160000-abcdef"


@pytest.fixture
def games(pg_url):
    opened = DatabaseGames.open(pg_url)
    yield opened
    opened.close()


def test_a_finished_shared_game_on_the_database_rates_its_players_once(games, pg_url, tmp_path, pg_admin):
    lobby = Lobby(tmp_path, games=games, deal_seed=lambda: 3, seat_wait=None, ratings=True)
    alice, bob = FakeMember(ALICE, "alice"), FakeMember(BOB, "bob")
    lobby.enter(alice)
    lobby.enter(bob)
    pending = lobby.create_table(alice, ["human", "bot"], bot_level="hard")
    lobby.join_table(bob, pending.table_id)
    table = alice.seated()[-1].table
    play_to_the_end(table)

    result = game_result(table.game_id, [None, None, "hard"], [ALICE, BOB, None], table.score())
    assert result is not None
    after = rate(result, {ALICE: NEW, BOB: NEW})
    with SyncGameStore(pg_url) as other:  # another host's connection
        assert DatabaseRatingBook(other).look_up([ALICE, BOB]) == after
    assert any(t.startswith("Ratings:") for t in bob.news())
    assert not list(tmp_path.rglob("ratings.json"))  # the database keeps them, not the data dir

    # A second host that saw the same game end: its own connection, its own lobby.
    second = DatabaseGames.open(pg_url)
    try:
        host2 = Lobby(tmp_path / "host2", games=second, seat_wait=None, ratings=True)
        lobby.close()
        host2._rate(live_from_log(second.open_shared(table.game_id), "normal"))
        assert host2.rating_changes[table.game_id][ALICE].after == after[ALICE]  # told what was applied
        host2.close()
    finally:
        second.close()
    assert pg_admin.execute("SELECT count(*) FROM rated_games").fetchone() == (1,)
    assert pg_admin.execute("SELECT games FROM ratings ORDER BY account_id").fetchall() == [(1,), (1,)]


def test_two_hosts_rating_the_same_game_at_once_apply_it_once(pg_url, pg_admin):
    """Host 1 is inside its transaction when host 2 asks: host 2 waits on the
    game's row, then finds it rated and gets host 1's changes."""
    result = GameResult(GAME, (RatedSeat(ALICE), RatedSeat(BOB)), (1, 2))
    inside, release = threading.Event(), threading.Event()
    calls: list[int] = []

    def slow_update(before):
        calls.append(1)
        inside.set()
        release.wait(30)
        return rate(result, before)

    def counted_update(before):
        calls.append(2)
        return rate(result, before)

    outcomes: dict[int, tuple] = {}
    with SyncGameStore(pg_url) as host1, SyncGameStore(pg_url) as host2:
        def run(n, store, update):
            outcomes[n] = store.run(lambda conn: apply_once(conn, GAME, result.accounts, NEW, update))

        first = threading.Thread(target=run, args=(1, host1, slow_update))
        first.start()
        assert inside.wait(30)
        second = threading.Thread(target=run, args=(2, host2, counted_update))
        second.start()
        deadline = time.monotonic() + 30  # until host 2's backend waits on the lock (not a timing assumption)
        while pg_admin.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                               ).fetchone() != (1,):
            assert time.monotonic() < deadline, "host 2 never waited on the game's row"
            time.sleep(0.02)
        release.set()
        first.join(30)
        second.join(30)
    assert calls == [1]
    (changes1, applied1), (changes2, applied2) = outcomes[1], outcomes[2]
    assert applied1 and not applied2 and changes1 == changes2
    assert pg_admin.execute("SELECT games FROM ratings ORDER BY account_id").fetchall() == [(1,), (1,)]


def test_a_failed_update_leaves_the_game_unrated(pg_url, pg_admin):
    result = GameResult(GAME, (RatedSeat(ALICE), RatedSeat(BOB)), (1, 2))

    def broken(before):
        raise ValueError("no")

    with SyncGameStore(pg_url) as store:
        with pytest.raises(ValueError):
            store.run(lambda conn: apply_once(conn, GAME, result.accounts, NEW, broken))
        assert pg_admin.execute("SELECT count(*) FROM rated_games").fetchone() == (0,)
        changes, applied = DatabaseRatingBook(store).record(result)  # tried again: applied now
    assert applied and changes[ALICE].before == NEW and isinstance(changes[BOB].after, Rating)


async def test_a_version_2_database_gets_the_ratings_tables_keeping_its_games(pg_url, pg_admin):
    from momiji_tui.store.database import open_store, schema
    from momiji_tui.store.database.connect import open_connection

    conn = await open_connection(pg_url, autocommit=True)
    real = schema.SCHEMA_VERSION
    try:
        schema.SCHEMA_VERSION = 2
        await schema.ensure_schema(conn)  # what momiji with schema 2 made
    finally:
        schema.SCHEMA_VERSION = real
        await conn.close()
    pg_admin.execute("INSERT INTO games (game_id, header, rules_version, save_format, created, last_played)"
                     " VALUES (%s, '{}', '2026.11-2', 5, now(), now())", (GAME,))
    assert pg_admin.execute("SELECT to_regclass('ratings')").fetchone() == (None,)
    await (await open_store(pg_url)).close()
    assert pg_admin.execute("SELECT version FROM momiji_schema").fetchone() == (schema.SCHEMA_VERSION,)
    assert pg_admin.execute("SELECT game_id FROM games").fetchall() == [(GAME,)]
    assert pg_admin.execute("SELECT count(*) FROM ratings").fetchone() == (0,)


async def _no_beat(seconds: float) -> None:
    import asyncio

    await asyncio.Event().wait()  # no heartbeats: the test needs none


async def test_two_processes_of_the_shared_lobby_both_see_the_end_and_the_game_is_rated_once(pg_url, tmp_path,
                                                                                           pg_admin):
    """Alice plays in process A, Bob in process B (two DatabaseLobby, each
    its own connection): both replicas reach the end, both rate it, the
    database applies it once and both players are told the same ratings."""
    from ssh_harness import wait_until

    from momiji_tui.session.database_lobby import DatabaseLobby

    made = []
    try:
        for name in ("a", "b"):
            lobby = DatabaseLobby(tmp_path / name, games=DatabaseGames.open(pg_url), deal_seed=lambda: 5,
                                  beat_pause=_no_beat, bot_delay=0, seat_wait=None, ratings=True)
            await lobby.start_following()
            made.append(lobby)
        a, b = made
        alice, bob = FakeMember(ALICE, "alice"), FakeMember(BOB, "bob")
        a.enter(alice)
        b.enter(bob)
        pending = a.create_table(alice, ["human"])
        await wait_until(lambda: pending.table_id in b.pending)
        b.join_table(bob, pending.table_id)
        await wait_until(lambda: alice.seated() and bob.seated())
        ta, tb = alice.seated()[-1].table, bob.seated()[-1].table
        play_to_the_end(ta)  # every move made in A; B's replica follows
        await wait_until(lambda: tb.finished and ta.game_id in b.rating_changes)
        assert a.rating_changes[ta.game_id] == b.rating_changes[ta.game_id]
        told = [[t for t in m.news() if t.startswith("Ratings:")] for m in (alice, bob)]
        assert told[0] == told[1] and len(told[0]) == 1
        assert pg_admin.execute("SELECT count(*) FROM rated_games").fetchone() == (1,)
        assert pg_admin.execute("SELECT games FROM ratings ORDER BY account_id").fetchall() == [(1,), (1,)]
    finally:
        for lobby in made:
            await lobby.stop_following()
            lobby.close()


async def test_the_shared_lobby_shows_the_ratings_of_players_in_other_processes(pg_url, tmp_path):
    from ssh_harness import wait_until

    from momiji_tui.session.database_lobby import DatabaseLobby

    with SyncGameStore(pg_url) as store:  # alice and bob have a rated game behind them
        changes, _ = DatabaseRatingBook(store).record(GameResult(GAME, (RatedSeat(ALICE), RatedSeat(BOB)), (1, 2)))
    made = []
    try:
        for name in ("a", "b"):
            lobby = DatabaseLobby(tmp_path / name, games=DatabaseGames.open(pg_url), beat_pause=_no_beat,
                                  bot_delay=0, seat_wait=None, ratings=True)
            await lobby.start_following()
            made.append(lobby)
        a, b = made
        a.enter(FakeMember(ALICE, "alice"))
        b.enter(FakeMember(BOB, "bob"))
        b.enter(FakeMember("key-carol", "carol"))  # never rated: no tag
        tag = f" · {changes[ALICE].after.ordinal:.1f}"

        def players_in_b():
            return dict(b.snapshot().players)

        await wait_until(lambda: any(n.startswith("alice") for n in players_in_b()), describe=players_in_b)
        b.refresh()
        names = players_in_b()
        assert f"alice{tag}" in names and f"bob · {changes[BOB].after.ordinal:.1f}" in names
        assert "carol" in names
    finally:
        for lobby in made:
            await lobby.stop_following()
            lobby.close()
