"""Over SSH on a database, the palette's "Saved games" lists the player's own
games from the database, not the data dir (where nothing is
saved then). One game server on a real PostgreSQL, a real asyncssh client."""

from __future__ import annotations

import asyncio

from ssh_harness import CTRL_S, TIMEOUT, new_key, scripted_bot, wait_app, wait_until

from momiji_tui.session.database_games import DatabaseGames
from momiji_tui.ssh.game_server import start_game_server
from momiji_tui.ui.screens.saved import SavedGamesScreen


async def test_saved_games_over_ssh_on_a_database_lists_the_players_games_there(pg_url, isolated_dirs, clients):
    server = await start_game_server(data_dir=isolated_dirs, games=DatabaseGames.open(pg_url), port=0,
                                     bot_delay=0, make_bot=scripted_bot, housekeeping_every=None)
    try:
        alice = await clients.terminal(server.port, username="alice", key=new_key(), size=(120, 30))
        await alice.wait_for_text("Welcome, alice")
        app = await wait_app(server, "alice")
        alice.send("n")
        await alice.wait_for_text("New game")
        alice.send(CTRL_S)
        await alice.wait_for_text("Hand ")
        game_id = app.table.game_id
        other = await clients.terminal(server.port, username="bob", key=new_key(), size=(120, 30))
        await other.wait_for_text("Welcome, bob")
        bob = await wait_app(server, "bob")
        app.call_later(lambda: app.push_screen(SavedGamesScreen()))  # what the palette's "Saved games" opens
        await alice.wait_for_text(game_id)
        await alice.wait_for_text("in progress")
        bob.call_later(lambda: bob.push_screen(SavedGamesScreen()))
        await other.wait_for_text("No saved games yet.")  # bob's list holds none of alice's games
        await wait_until(lambda: isinstance(bob.screen, SavedGamesScreen))
    finally:
        await asyncio.wait_for(server.close(timeout=TIMEOUT), 2 * TIMEOUT)
