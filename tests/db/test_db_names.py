"""Names bound to keys on PostgreSQL (store/database/names.py, schema 3):
a second key cannot show as a name the first key holds, on one host or
two; two hosts racing for one name or one code: exactly one wins.
Real PostgreSQL (tests/db/conftest.py), loopback SSH clients."""

from __future__ import annotations

import asyncio
import threading
from datetime import UTC, datetime, timedelta

from ssh_harness import TIMEOUT, new_key, scripted_bot
from test_bound_names import Member, forged

from momiji_tui.session.bound_names import bind_key, code_hash
from momiji_tui.session.database_games import DatabaseGames
from momiji_tui.session.lobby import Lobby
from momiji_tui.ssh.game_server import bind_player, start_game_server
from momiji_tui.ssh.identity import Identity
from momiji_tui.store.database.names import DatabaseNames

NOW = datetime(2026, 12, 3, 16, 0, tzinfo=UTC)


def fingerprint() -> str:
    return new_key().get_fingerprint("sha256")


def race(stores: list[DatabaseNames], work) -> None:
    """``work(store, i)`` for i in 0..5, each in a thread, started together, two or three per store."""
    start = threading.Barrier(6)

    def run(i: int) -> None:
        start.wait()
        work(stores[i % len(stores)], i)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def test_two_hosts_on_one_database_agree_on_who_holds_a_name(pg_url):
    hosts = [DatabaseGames.open(pg_url) for _ in range(3)]  # three connections: three hosts
    try:
        stores = [DatabaseNames(games.store) for games in hosts]
        keys = [fingerprint() for _ in range(6)]
        given: dict[str, str] = {}
        race(stores, lambda store, i: given.__setitem__(
            keys[i], bind_key(store, "alice", keys[i], f"key-{i:032x}", NOW).name))
        assert sorted(given.values()) == sorted(["alice", *(f"alice-{n}" for n in range(2, 7))])
        [winner] = [k for k, name in given.items() if name == "alice"]
        for store in stores:
            record = store.lookup("ALICE")
            assert record is not None and record.keys == {winner} and record.name == "alice"

        # One code, typed on two hosts at once: it adds one key.
        stores[0].add_code(code_hash("ABCDEFGHJK"), "alice", NOW + timedelta(minutes=10), NOW)
        won: list[str] = []
        others = [fingerprint() for _ in range(6)]
        race(stores, lambda store, i: store.use_code(code_hash("abcde-fghjk"), others[i], NOW)
             and won.append(others[i]))
        assert len(won) == 1 and stores[2].lookup("alice").keys == {winner, won[0]}
        stores[1].add_code(code_hash("KKKKKKKKKK"), "alice", NOW, NOW - timedelta(minutes=1))
        assert stores[0].use_code(code_hash("KKKKK-KKKKK"), fingerprint(), NOW) is None  # expired
    finally:
        for games in hosts:
            games.close()


async def test_a_second_key_cannot_show_as_a_name_the_first_key_holds_on_another_host(pg_url, tmp_path, clients):
    hosts = [await start_game_server(data_dir=tmp_path / name, games=DatabaseGames.open(pg_url), port=0,
                                     bot_delay=0, make_bot=scripted_bot, housekeeping_every=None)
             for name in ("a", "b")]
    try:
        first = new_key()
        alice = await clients.terminal(hosts[0].port, username="alice", key=first)
        await alice.wait_for_text("Welcome, alice.")
        other = await clients.terminal(hosts[1].port, username="alice", key=new_key())  # another host
        await other.wait_for_text("The name alice belongs to another key: you are alice-2 here.")
        await other.wait_for_text("Welcome, alice-2.")
        guest = await clients.terminal(hosts[1].port, username="alice", size=(100, 30))
        await guest.wait_for_text("you are alice-3 (guest) here.")
        await guest.wait_for_text("  alice — in the lobby")  # from host A, through the shared lobby
        await guest.wait_for_text("  alice-2 — in the lobby")
        back = await clients.terminal(hosts[1].port, username="alice", key=first)  # the owner, on B
        await back.wait_for_text("Welcome, alice.")
        assert "belongs to another key" not in back.text
    finally:
        for host in hosts:
            await asyncio.wait_for(host.close(timeout=TIMEOUT), 2 * TIMEOUT)


def test_a_forged_short_prefix_no_longer_helps_on_the_database(pg_url, tmp_path):
    real = fingerprint()
    fake = forged(real)
    assert fake[:11] == real[:11]  # the old 4-character tag: the same
    games = DatabaseGames.open(pg_url)
    try:
        book = DatabaseNames(games.store)
        lobby = Lobby(tmp_path)
        shown = []
        for fp in (real, fake):
            player, session = bind_player(book, Identity.from_key(fp, "alice"), NOW)
            assert session is not None and player.bound
            member = Member(player)
            lobby.enter(member)
            shown.append(lobby.label(member))
        assert shown == ["alice", "alice-2"]
        assert book.lookup("alice").keys == {real}
    finally:
        games.close()


async def test_a_version_3_database_gets_the_names_tables_keeping_its_games(pg_url, pg_admin):
    from momiji_tui.store.database import open_store, schema
    from momiji_tui.store.database.connect import open_connection

    conn = await open_connection(pg_url, autocommit=True)
    real = schema.SCHEMA_VERSION
    try:
        schema.SCHEMA_VERSION = 3
        await schema.ensure_schema(conn)  # what momiji with schema 3 (ratings) made
    finally:
        schema.SCHEMA_VERSION = real
        await conn.close()
    pg_admin.execute("INSERT INTO games (game_id, header, rules_version, save_format, created, last_played)"
                     " VALUES ('20261201-070000-00000a', '{}', '2026.11-2', 5, now(), now())")
    assert pg_admin.execute("SELECT to_regclass('player_names')").fetchone() == (None,)
    await (await open_store(pg_url)).close()
    assert pg_admin.execute("SELECT version FROM momiji_schema").fetchone() == (4,)
    assert pg_admin.execute("SELECT count(*) FROM games").fetchone() == (1,)
    assert pg_admin.execute("SELECT count(*) FROM player_names").fetchone() == (0,)
