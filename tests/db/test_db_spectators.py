"""Spectators on the database (``momiji serve --database``, several
processes): three lobbies on one real PostgreSQL database stand for three
server processes; alice plays in A, bob in B, carol watches from C. Every
wait is bounded on a state (``wait_until``)."""

from __future__ import annotations

import asyncio

import pytest
from ssh_harness import wait_until

from momiji_tui.engine import Collect
from momiji_tui.session.database_games import DatabaseGames
from momiji_tui.session.database_lobby import DatabaseLobby
from momiji_tui.session.lobby import Player, Seated
from momiji_tui.session.replica import ReplicaTable


class FakeMember:
    def __init__(self, account: str, name: str) -> None:
        self.player = Player(account, name)
        self.events: list = []

    def lobby_event(self, event) -> None:
        self.events.append(event)

    def seated(self) -> Seated | None:
        found = [e for e in self.events if isinstance(e, Seated)]
        return found[-1] if found else None


async def no_beat(seconds: float) -> None:
    await asyncio.Event().wait()


@pytest.fixture
async def lobbies(pg_url, tmp_path):
    made: list[DatabaseLobby] = []

    async def make(name: str) -> DatabaseLobby:
        lobby = DatabaseLobby(tmp_path / name, games=DatabaseGames.open(pg_url), deal_seed=lambda: 37,
                              beat_pause=no_beat, bot_delay=0, seat_wait=None)
        await lobby.start_following()
        made.append(lobby)
        return lobby

    yield make
    for lobby in made:
        if not lobby._closed:
            await lobby.stop_following()
            lobby.close()


async def test_a_game_played_in_other_processes_is_watched_from_a_third(lobbies):
    a, b, c = await lobbies("a"), await lobbies("b"), await lobbies("c")
    alice, bob, carol = FakeMember("key-a", "alice"), FakeMember("key-b", "bob"), FakeMember("key-c", "carol")
    a.enter(alice)
    b.enter(bob)
    c.enter(carol)
    pending = a.create_table(alice, ["human"])
    await wait_until(lambda: pending.table_id in b.pending)
    b.join_table(bob, pending.table_id)
    await wait_until(lambda: alice.seated() is not None and bob.seated() is not None)
    game_id = alice.seated().table.game_id
    await wait_until(lambda: [i.game_id for i in c.watchable()] == [game_id],
                     describe=lambda: f"C lists {c.watchable()}")

    watch = c.watch(carol, game_id)
    assert isinstance(watch.table, ReplicaTable) and watch.table is c.live[game_id].table
    assert all(s.hand is None for s in watch.view().seats)  # RULES §8
    label = c.label(carol)
    # The players, in their own processes, see who watches (the lobby's rows).
    await wait_until(lambda: label in a.watchers_of(game_id) and label in b.watchers_of(game_id),
                     describe=lambda: f"A: {a.watchers_of(game_id)}, B: {b.watchers_of(game_id)}")

    # A move made in A reaches the watcher's replica in C; C runs no bot of it.
    table = alice.seated().table if alice.seated().table.current == alice.seated().seat else bob.seated().table
    seat = table.current
    table.submit(next(cmd for cmd in table.legal(seat) if isinstance(cmd, Collect)))
    await wait_until(lambda: len(watch.table.events) == len(table.events))
    assert c.live[game_id].bot_task is None

    # The watcher leaves: C stops following the game; the players no longer see the name.
    c.stop_watching(carol)
    assert game_id not in c.live
    await wait_until(lambda: a.watchers_of(game_id) == () and b.watchers_of(game_id) == ())

    # Watching again, then vanishing (the session ends): the same clean-up.
    c.watch(carol, game_id)
    await wait_until(lambda: label in a.watchers_of(game_id))
    c.exit(carol)
    assert game_id not in c.live and not c.spectators.watching
    await wait_until(lambda: a.watchers_of(game_id) == ())


async def test_over_ssh_a_watcher_on_another_host_follows_the_game_and_the_players_see_the_name(
        pg_url, tmp_path, clients):
    """Two game servers on one database; alice and bob play on A, carol
    watches from B by keys; her leaving takes her name off their table."""
    from ssh_harness import ESC, TIMEOUT, new_key, take_turn_by_keys, wait_app
    from test_db_serve_shared import two_servers
    from test_ssh_shared_table import table_for_two
    from test_ssh_spectators import watch_first_game

    from momiji_tui.ui.screens.watch import WatchScreen

    host_a, host_b = await two_servers(pg_url, tmp_path)
    try:
        alice, bob, a_app, b_app = await table_for_two(host_a, clients, seed=4242)
        carol = await clients.terminal(host_b.port, username="carol", key=new_key())
        await carol.wait_for_text("Welcome, carol")
        c_app = await wait_app(host_b, "carol")
        await watch_first_game(carol, c_app)
        label = host_b.lobby.label(c_app)
        await alice.wait_for_text(f"Watching: {label}")
        table = a_app.table
        watched = c_app.screen.watched.table
        assert watched is not table and watched.game_id == table.game_id  # B follows its own replica
        term, app = (alice, a_app) if table.current == a_app.seat else (bob, b_app)
        await take_turn_by_keys(term, app, prefer="collect")
        await wait_until(lambda: len(watched.events) == len(table.events))
        assert isinstance(c_app.screen, WatchScreen) and all(s.hand is None for s in c_app.screen.watched.view().seats)
        carol.send(ESC)
        await alice.wait_for_no_text("Watching:")
        await wait_until(lambda: table.game_id not in host_b.lobby.live)
    finally:
        for host in (host_a, host_b):
            await asyncio.wait_for(host.close(timeout=TIMEOUT), 2 * TIMEOUT)
