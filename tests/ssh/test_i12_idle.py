"""Waiting is not punished. The idle timeout applies in the
lobby and in solo games, never to a seat waiting at a table or a game in
progress with others. No wall clock: each session's idle check is run by
hand after moving its last-input time back (the server's own loop clock)."""

from __future__ import annotations

from ssh_harness import new_key, wait_app, wait_until

from test_ssh_shared_table import create_table, join_first_table

LONG_AGO = 10_000.0  # seconds; far past the idle timeout below
TIMEOUT = 600.0


def sessions_of(game, app):
    return [s for s in game.handle._state.sessions if s.app is app]


def make_idle(game, app) -> None:
    """Pretend ``app``'s session had no input for LONG_AGO s, then check it."""
    [session] = sessions_of(game, app)
    session._last_input -= LONG_AGO
    session._check_idle()


async def test_idle_in_the_lobby_ends_the_session(start_game, clients):
    game = await start_game(idle_timeout=TIMEOUT)
    term = await clients.terminal(game.port, username="dave", key=new_key())
    await term.wait_for_text("Welcome, dave")
    make_idle(game, await wait_app(game, "dave"))
    await term.wait_for_text("Disconnected: no input for too long.")


async def test_a_player_waiting_at_a_table_or_playing_with_others_is_never_idle(start_game, clients):
    game = await start_game(idle_timeout=TIMEOUT)
    alice = await clients.terminal(game.port, username="alice", key=new_key())
    await alice.wait_for_text("Welcome, alice")
    a_app = await wait_app(game, "alice")
    await create_table(alice, a_app)
    make_idle(game, a_app)  # waiting for a second player
    assert a_app.is_running and game.lobby.pending_of(a_app) is not None
    bob = await clients.terminal(game.port, username="bob", key=new_key())
    await bob.wait_for_text("Welcome, bob")
    b_app = await wait_app(game, "bob")
    await join_first_table(bob, b_app)
    await wait_until(lambda: a_app.table is not None and a_app.table is b_app.table)
    for app in (a_app, b_app):  # a game in progress with others
        make_idle(game, app)
    await alice.wait_for_text("Hand ")
    assert a_app.is_running and b_app.is_running and game.handle.session_count == 2
    assert "no input for too long" not in alice.text + bob.text
