"""``momiji serve --database URL``: one server process whose
games (solo and shared tables) are saved in PostgreSQL, listed from it by
owner and resumed from it; nothing in the data dir's game folders.

Real PostgreSQL (tests/db/conftest.py), real asyncssh clients on loopback,
bounded waits; the process tests run ``momiji serve`` itself."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys

from ssh_harness import CTRL_S, TIMEOUT, new_key, scripted_bot, take_turn_by_keys, wait_until
from test_ssh_serve_cli import ROOT, serve
from test_ssh_workers import hand_line, workers
from test_ssh_shared_table import table_for_two

from momiji_tui.session.database_games import DatabaseGames
from momiji_tui.session.table import validate_log
from momiji_tui.ssh.game_server import start_game_server
from momiji_tui.store.database import SyncGameStore


def saved(pg_url: str, owner: str | None = None) -> list:
    with SyncGameStore(pg_url) as store:
        return store.list_games(validate_log, owner=owner)


async def test_momiji_serve_database_saves_a_solo_game_there_and_the_same_key_resumes_it(pg_url, tmp_path, clients):
    data = tmp_path / "served"
    key = new_key()
    async with serve(data, "--database", pg_url) as server:
        port = int((await server.wait_log(r"listening on 127\.0\.0\.1 port (\d+)")).group(1))
        await server.wait_log(r"games in the database at 127\.0\.0\.1:\d+/t_")
        alice = await clients.terminal(port, username="alice", key=key)
        await alice.wait_for_text("Welcome, alice")
        alice.send("n")
        await alice.wait_for_text("New game")
        alice.send(CTRL_S)
        await alice.wait_for_text("Hand ")
        games: list = []

        def listed() -> bool:
            games[:] = saved(pg_url)
            return len(games) == 1

        await wait_until(listed, TIMEOUT, lambda: f"games in the database: {games}")
        [game] = games
        assert game.status == "in progress" and game.header["seats"][0]["name"].startswith("alice")
        assert list(data.rglob("*.jsonl")) == []  # nothing in the data dir's game folders
        alice.conn.abort()  # a dropped connection

        again = await clients.terminal(port, username="alice", key=key)
        await again.wait_for_text(f"Continue your last game ({game.game_id})")
        await again.wait_for_text("Resume my games (1)")
        other = await clients.terminal(port, username="alice", key=new_key())  # another key sees nothing
        await other.wait_for_text("Resume my games (0)")
        again.send("c")
        await again.wait_for_text("Hand ")
        assert await server.stop() == 0
        assert server.find("Traceback") is None
    assert not (data / "players").exists() and not (data / "tables").exists()  # no file store folders


async def test_two_players_at_a_shared_table_on_the_database_every_move_saved_there(pg_url, isolated_dirs, clients):
    games = DatabaseGames.open(pg_url)
    game = await start_game_server(data_dir=isolated_dirs, games=games, port=0, bot_delay=0,
                                   make_bot=scripted_bot, housekeeping_every=None)
    try:
        alice, bob, a_app, b_app = await table_for_two(game, clients, seed=4243)
        table = a_app.table
        players = {a_app.seat: (alice, a_app), b_app.seat: (bob, b_app)}
        for _ in range(3):
            term, app = players[table.current]
            await term.wait_for_text("Your turn")
            await take_turn_by_keys(term, app, prefer="collect")
        stored = saved(pg_url, owner=a_app.player.account_id)
        assert [g.game_id for g in stored] == [table.game_id]
        assert saved(pg_url, owner=b_app.player.account_id)[0].events == stored[0].events
        assert len([e for e in stored[0].events if e["type"] != "SeatControlChanged"]) > 3
        assert table.log.position == len(table.events) == len(stored[0].events)
        assert list(isolated_dirs.rglob("*.jsonl")) == []
    finally:
        await asyncio.wait_for(game.close(timeout=TIMEOUT), 2 * TIMEOUT)
    assert games.store._loop.is_closed()  # the lobby closed the database with the server


def test_momiji_serve_on_a_database_that_cannot_be_used_is_one_line_and_exit_1(pg_cluster, tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL")}
    result = subprocess.run(
        [sys.executable, "-m", "momiji_tui.cli", "serve", "--port", "0", "--data-dir", str(tmp_path / "d"),
         "--bot-workers", "0", "--database", pg_cluster.url("no_such_database")],
        capture_output=True, text=True, timeout=TIMEOUT * 3, cwd=ROOT, env=env)
    assert result.returncode == 1, result.stderr
    assert "Could not connect to the database at 127.0.0.1:" in result.stderr
    assert "no_such_database" in result.stderr and "Traceback" not in result.stderr
    assert "listening on" not in result.stderr


async def start_solo_by_keys(term) -> str:
    """n, Start: a solo game against one bot, up to the player's turn; returns the hand line."""
    term.send("n")
    await term.wait_for_text("New game")
    term.send(CTRL_S)
    await term.wait_for_text("Your turn")
    return hand_line(term)


def only_game(pg_url: str):
    [game] = saved(pg_url)
    return game


async def test_two_serve_processes_on_one_database_a_players_game_follows_them_to_the_other(
        pg_url, tmp_path, clients):
    """Two hosts (two ``momiji serve`` on two ports, two data dirs) sharing one database."""
    key = new_key()
    async with serve(tmp_path / "a", "--database", pg_url) as host_a, \
            serve(tmp_path / "b", "--database", pg_url) as host_b:
        port_a = int((await host_a.wait_log(r"listening on 127\.0\.0\.1 port (\d+)")).group(1))
        port_b = int((await host_b.wait_log(r"listening on 127\.0\.0\.1 port (\d+)")).group(1))
        on_a = await clients.terminal(port_a, username="alice", key=key)
        hand = await start_solo_by_keys(on_a)
        game = only_game(pg_url)
        on_a.conn.abort()
        on_b = await clients.terminal(port_b, username="alice", key=key)
        await on_b.wait_for_text(f"Continue your last game ({game.game_id})")
        on_b.send("c")
        await on_b.wait_for_text("Your turn")
        assert hand_line(on_b) == hand  # the same position, read from the database
        assert only_game(pg_url).events == game.events
        assert await host_a.stop() == 0 and await host_b.stop() == 0
        assert host_a.find("Traceback") is None and host_b.find("Traceback") is None


async def test_workers_on_the_database_a_killed_worker_loses_no_game(pg_url, tmp_path, clients):
    key = new_key()
    async with workers(tmp_path / "served", "--database", pg_url) as server:
        port = int((await server.wait_log(r"2 workers listening on 127\.0\.0\.1 port (\d+)")).group(1))
        alice = await clients.terminal(port, username="alice", key=key)
        await alice.wait_for_text("Welcome, alice")
        victim = await server.served_by(alice.conn)
        hand = await start_solo_by_keys(alice)
        game = only_game(pg_url)

        os.kill(victim, signal.SIGKILL)
        await asyncio.wait_for(alice.conn.wait_closed(), TIMEOUT)
        await server.wait_log(rf"worker \d \(pid {victim}\) died: killed by SIGKILL")
        again = await clients.terminal(port, username="alice", key=key)  # the other worker, or the new one
        await again.wait_for_text(f"Continue your last game ({game.game_id})")
        again.send("c")
        await again.wait_for_text("Your turn")
        assert hand_line(again) == hand
        assert only_game(pg_url).events == game.events  # nothing lost, nothing doubled
        assert not list((tmp_path / "served").rglob("*.jsonl"))
        assert sorted(p.name for p in (tmp_path / "served").iterdir() if p.is_dir()) == []  # no players/, tables/
        server.proc.send_signal(signal.SIGTERM)
        assert await server.wait_exit() == 0
        assert not server.find_all("Traceback")
