"""Two game servers sharing one database share the lobby and the tables: two
``start_game_server`` instances in this test process, each with its own
connections to one real PostgreSQL database and its own port; real asyncssh
clients on loopback play by keys. Every wait is bounded on a state or a
screen's text, never a sleep."""

from __future__ import annotations

import pytest

import asyncio
import signal
from types import SimpleNamespace

from ssh_harness import CTRL_S, ENTER, TIMEOUT, new_key, scripted_bot, take_turn_by_keys, wait_app, wait_until
from test_ssh_serve_cli import serve
from test_ssh_workers import workers
from test_ssh_shared_table import create_table, join_first_table

from momiji_tui.session.database_games import DatabaseGames
from momiji_tui.session.replica import ReplicaTable
from momiji_tui.session.table import Table
from momiji_tui.ssh.game_server import start_game_server
from momiji_tui.ui.screens.scoring import ScoringScreen
from momiji_tui.ui.screens.table import TableScreen


LOBBY_TTL = 10.0
"""Seconds after its last heartbeat (every 0.25 s) that a live ``momiji
serve`` is taken for dead: far beyond a stall of a busy machine."""


async def two_servers(pg_url, root):
    servers = []
    for name in ("a", "b"):
        servers.append(await start_game_server(
            data_dir=root / name, games=DatabaseGames.open(pg_url), port=0, bot_delay=0, make_bot=scripted_bot,
            housekeeping_every=None, seat_wait=None))
    return servers


@pytest.mark.slow
async def test_players_on_two_servers_meet_at_one_table_and_finish_the_game(pg_url, tmp_path, clients):
    host_a, host_b = await two_servers(pg_url, tmp_path)
    try:
        alice = await clients.terminal(host_a.port, username="alice", key=new_key())
        await alice.wait_for_text("Welcome, alice")
        a_app = await wait_app(host_a, "alice")
        bob = await clients.terminal(host_b.port, username="bob", key=new_key())
        await bob.wait_for_text("Welcome, bob")
        b_app = await wait_app(host_b, "bob")
        await alice.wait_for_text("  bob — ")  # who is online, across servers
        await create_table(alice, a_app, seed=4242, seats=3)  # alice, a seat for a player, a bot
        await join_first_table(bob, b_app)  # the table opened on A, listed and joined on B
        await wait_until(lambda: isinstance(a_app.screen, TableScreen) and isinstance(b_app.screen, TableScreen))
        ta, tb = a_app.table, b_app.table
        assert isinstance(ta, ReplicaTable) and isinstance(tb, ReplicaTable) and ta is not tb
        assert ta.game_id == tb.game_id and {a_app.seat, b_app.seat} == {0, 1}
        players = {a_app.seat: (alice, a_app), b_app.seat: (bob, b_app)}
        turns = 0
        while True:
            # Both servers' replicas hold every move (bots included) and agree whose turn it is.
            await wait_until(lambda: ta.events == tb.events and (ta.finished or ta.current in players),
                             describe=lambda: f"A holds {len(ta.events)} events, B {len(tb.events)}")
            if ta.finished:
                break
            term, app = players[ta.current]
            await term.wait_for_text("Your turn")  # the other server's last move has reached this screen
            await take_turn_by_keys(term, app, prefer="collect")
            turns += 1
            assert turns < 400, "the game does not end"
        for term, app in players.values():
            await term.wait_for_text("Final scores")
            await wait_until(lambda app=app: isinstance(app.screen, ScoringScreen))
        await wait_until(lambda: tb.events == ta.events)
        stored = host_a.lobby.db.store.load_game(ta.game_id)
        assert stored.position == len(ta.events) == tb.log.position  # every event once, in one log
    finally:
        for host in (host_a, host_b):
            await asyncio.wait_for(host.close(timeout=TIMEOUT), 2 * TIMEOUT)


async def test_a_killed_server_loses_no_game_its_player_returns_to_the_seat_on_the_other(
        pg_url, pg_admin, tmp_path, clients):
    """Two ``momiji serve`` processes (real processes, two ports) on one
    database; alice on A and bob on B at one table. A is killed (SIGKILL):
    bob's server keeps the table; once A's heartbeat has expired, B records
    that alice left (the seat wait starts), and alice, connecting to B, goes
    straight back to her seat.

    When a process is dead is the test's to say, not the machine's speed: a
    live server is taken for dead only after ``LOBBY_TTL`` seconds without a
    heartbeat (a loaded machine once stalled one past a 1 s expiry, and B
    swept A's waiting table), and A's expiry is set to the past as it is killed."""
    key = new_key()
    presence = ("--database", pg_url, "--lobby-heartbeat", "0.25", "--lobby-ttl", str(LOBBY_TTL))
    async with serve(tmp_path / "a", *presence) as host_a, serve(tmp_path / "b", *presence) as host_b:
        port_a = int((await host_a.wait_log(r"listening on 127\.0\.0\.1 port (\d+)")).group(1))
        port_b = int((await host_b.wait_log(r"listening on 127\.0\.0\.1 port (\d+)")).group(1))
        alice = await clients.terminal(port_a, username="alice", key=key)
        await alice.wait_for_text("Welcome, alice")
        bob = await clients.terminal(port_b, username="bob", key=new_key())
        await bob.wait_for_text("Welcome, bob")
        alice.send("t")
        await alice.wait_for_text("Create a table")
        alice.send(CTRL_S)  # two seats: alice and one open for a player
        await alice.wait_for_text("Waiting for")
        await bob.wait_for_text("Join a table (1 open)")
        bob.send("j")
        await bob.wait_for_text("T1  alice · ")
        bob.send(ENTER)
        await alice.wait_for_text("Hand ")
        await bob.wait_for_text("Hand ")
        [(game_id, before)] = pg_admin.execute(
            "SELECT game_id, (SELECT count(*) FROM events e WHERE e.game_id = g.game_id) FROM games g").fetchall()

        host_a.proc.kill()  # SIGKILL: no goodbye in the log, no leaving the lobby
        await asyncio.wait_for(alice.conn.wait_closed(), TIMEOUT)
        expired = pg_admin.execute("UPDATE lobby_processes SET expires = now() - interval '1 second'"
                                   " WHERE pid = %s", (host_a.proc.pid,)).rowcount
        assert expired == 1  # A's time is up now, as if LOBBY_TTL seconds had passed

        def a_gone() -> bool:  # B's next heartbeat swept the dead process
            return pg_admin.execute("SELECT count(*) FROM lobby_processes").fetchone()[0] == 1

        await wait_until(a_gone, LOBBY_TTL + TIMEOUT)  # B judges others only LOBBY_TTL s after it started
        await bob.wait_for_text("left the table")
        again = await clients.terminal(port_b, username="alice", key=key)
        await again.wait_for_text("You are back.")  # straight to her seat, on B
        await again.wait_for_text("Hand ")
        await bob.wait_for_text("is back at the table")
        added = pg_admin.execute("SELECT event->>'reason' FROM events WHERE game_id = %s AND position > %s"
                                 " ORDER BY position", (game_id, before)).fetchall()
        assert added == [("left",), ("back",)]  # the game as it was; B wrote that she left, then that she is back
        assert await host_b.stop() == 0
        assert host_b.find("Traceback") is None


class GameInDatabase:
    """A game as the database holds it now, read again at every look: what
    ``take_turn_by_keys`` asks of a table, for a server in another process."""

    def __init__(self, games: DatabaseGames, game_id: str) -> None:
        self.games, self.game_id = games, game_id

    def now(self) -> Table:
        return self.games.resume(Table, self.game_id)

    @property
    def events(self) -> list:
        return self.now().events

    def legal(self, seat: int) -> list:
        return self.now().legal(seat)

    def view(self, seat: int):
        return self.now().view(seat)


async def test_players_on_two_workers_meet_at_one_table_and_finish_the_game(pg_url, tmp_path, clients):
    """``momiji serve --workers 2 --database``: alice and bob land on
    different workers (bob reconnects until he does, at most 12 tries); the
    table alice opens is listed and joined on bob's worker, both screens
    show the same game (whose turn it is, the other's name), and they play
    it to its end by keys, each move reaching the other worker's screen.
    The test reads the game from the database to choose each move."""
    async with workers(tmp_path / "served", "--database", pg_url) as server:
        port = int((await server.wait_log(r"2 workers listening on 127\.0\.0\.1 port (\d+)")).group(1))
        alice = await clients.terminal(port, username="alice", key=new_key())
        await alice.wait_for_text("Welcome, alice")
        alices = await server.served_by(alice.conn)
        for _ in range(12):
            bob = await clients.terminal(port, username="bob", key=new_key())
            await bob.wait_for_text("Welcome, bob")
            if await server.served_by(bob.conn) != alices:
                break
            bob.conn.abort()
        else:
            raise AssertionError("12 connections all landed on alice's worker")
        alice.send("t")
        await alice.wait_for_text("Create a table")
        alice.send(CTRL_S)
        await alice.wait_for_text("Waiting for")
        await bob.wait_for_text("Join a table (1 open)")  # opened on the other worker
        bob.send("j")
        await bob.wait_for_text("T1  alice · ")
        bob.send(ENTER)
        await alice.wait_for_text("Hand ")
        await bob.wait_for_text("Hand ")
        await alice.wait_for_text("bob")
        await bob.wait_for_text("alice")
        await wait_until(lambda: ("Your turn" in alice.text) != ("Your turn" in bob.text))
        games = DatabaseGames.open(pg_url)
        try:
            [game_id] = games.store.game_ids(unfinished=True)
            game = GameInDatabase(games, game_id)
            names = [seat.name for seat in game.now().seats]
            terms = {i: alice if name.startswith("alice") else bob
                     for i, name in enumerate(names) if name.startswith(("alice", "bob"))}
            assert sorted(terms) == [0, 1] and terms[0] is not terms[1]
            turns = 0
            while True:
                await wait_until(lambda: (t := game.now()).finished or t.current in terms,
                                 describe=lambda: f"{len(game.events)} events, none is a player's turn")
                table = game.now()
                if table.finished:
                    break
                term = terms[table.current]
                await term.wait_for_text("Your turn")  # the other worker's last move has reached this screen
                await take_turn_by_keys(term, SimpleNamespace(table=game, seat=table.current), prefer="collect",
                                        choice_shown=lambda term=term: "Collect which column?" in term.text)
                turns += 1
                assert turns < 400, "the game does not end"
            await alice.wait_for_text("Final scores")
            await bob.wait_for_text("Final scores")
            assert game.now().finished and len(game.now().seats) == 2
        finally:
            games.close()
        server.proc.send_signal(signal.SIGTERM)
        assert await server.wait_exit() == 0
        assert not server.find_all("Traceback")
