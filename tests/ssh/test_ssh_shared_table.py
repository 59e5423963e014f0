"""Shared tables over SSH: several players in one game, each on their own screen.

In-process game server on port 0, asyncssh clients, pyte screens; moves are
sent as keys; every wait bounded; fixed seeds.
"""

from __future__ import annotations

import pytest

import json
import threading

from ssh_harness import (
    CTRL_S,
    ENTER,
    SHIFT_TAB,
    new_key,
    scripted_bot,
    take_turn_by_keys,
    wait_app,
    wait_until,
)

from momiji_tui.session.lobby import SharedTable
from momiji_tui.store import list_games
from momiji_tui.ui.screens.join import JoinScreen
from momiji_tui.ui.screens.lobby import LobbyScreen
from momiji_tui.ui.screens.scoring import ScoringScreen
from momiji_tui.ui.screens.table import TableScreen


async def create_table(term, app, *, seed: int | None = None, seats: int = 2) -> None:
    """t, then the form by keys: seat count, then open the table. Keys that
    move the focus are followed by a wait for the focus to arrive (keys sent
    at once would reach the widget that had the focus before). A shared deal
    is secret: ``seed`` goes to the lobby's seed source, not the form."""

    async def focus_on(widget_id: str) -> None:
        await wait_until(lambda: getattr(app.focused, "id", None) == widget_id,
                         describe=lambda: f"focus is on {app.focused!r}, not #{widget_id}")

    if seed is not None:
        app.lobby.deal_seed = lambda: seed
    term.send("t")
    await term.wait_for_text("Create a table")
    await focus_on("create-start")
    if seats != 2:
        term.send(SHIFT_TAB * 5)  # up to the Seats select (past Hints, Landscapes, Bots, Players)
        await focus_on("create-seats")
        term.send(ENTER)  # open the list
        await wait_until(lambda: app.focused is not None and app.focused.id != "create-seats")
        term.send(b"\x1b[B" * (seats - 2) + ENTER)
        await wait_until(lambda: app.screen.query_one("#create-seats").value == seats)
        await focus_on("create-seats")
    term.send(CTRL_S)
    await term.wait_for_text("Waiting for")


async def join_first_table(term, app) -> None:
    await term.wait_for_text("Join a table (1 open)")
    term.send("j")
    await wait_until(lambda: isinstance(app.screen, JoinScreen) and app.screen.is_mounted)
    await term.wait_for_text("T1  alice · ")  # the creator's name, bound to their key
    term.send(ENTER)


async def table_for_two(game, clients, *, seed: int, bob_key=None, seats: int = 2):
    alice = await clients.terminal(game.port, username="alice", key=new_key())
    await alice.wait_for_text("Welcome, alice")
    await create_table(alice, await wait_app(game, "alice"), seed=seed, seats=seats)
    bob = await clients.terminal(game.port, username="bob", key=bob_key or new_key())
    await bob.wait_for_text("Welcome, bob")
    await join_first_table(bob, await wait_app(game, "bob"))
    a_app, b_app = await wait_app(game, "alice"), await wait_app(game, "bob")
    await wait_until(lambda: isinstance(a_app.screen, TableScreen) and isinstance(b_app.screen, TableScreen))
    await alice.wait_for_text("Hand ")
    await bob.wait_for_text("Hand ")
    return alice, bob, a_app, b_app


def hand_lines(history: list[str]) -> set[str]:
    return {line.strip() for screen in history for line in screen.splitlines()
            if line.strip().startswith("Hand ") and "(empty)" not in line}


@pytest.mark.slow
async def test_two_players_finish_a_game_and_never_see_each_others_hand(game, clients):
    alice, bob, a_app, b_app = await table_for_two(game, clients, seed=4242)
    table = a_app.table
    assert isinstance(table, SharedTable) and b_app.table is table
    assert {a_app.seat, b_app.seat} == {0, 1}
    assert table.view(0).seats[1].hand is None and table.view(1).seats[0].hand is None
    histories = {a_app.seat: alice.record(), b_app.seat: bob.record()}
    players = {a_app.seat: (alice, a_app), b_app.seat: (bob, b_app)}
    turns = 0
    while not table.finished:
        term, app = players[table.current]
        # The other player's last move has reached this player's screen.
        await term.wait_for_text("Your turn")
        await take_turn_by_keys(term, app, prefer="collect")
        turns += 1
        assert turns < 400, "the game does not end"
    for term, app in players.values():
        await term.wait_for_text("Final scores")
        await wait_until(lambda app=app: isinstance(app.screen, ScoringScreen))
    assert table.state.seats[0].turns + table.state.seats[1].turns == turns

    # Each screen showed its own hand many times, and never the other's.
    mine = {seat: hand_lines(history) for seat, history in histories.items()}
    assert len(mine[0]) > 5 and len(mine[1]) > 5
    for seat, other in ((0, 1), (1, 0)):
        seen = "\n".join(histories[seat])
        leaked = [line for line in mine[other] if line in seen]
        assert not leaked, f"seat {seat} saw seat {other}'s hand: {leaked}"

    # Saved as events like any game, under tables/, finished.
    [saved] = list_games(game.lobby.tables_dir)
    assert saved.game_id == table.game_id and saved.status == "finished"
    assert len(saved.events) == len(table.events)


async def test_a_dropped_player_returns_to_the_seat_with_the_same_key(game, clients):
    bob_key = new_key()
    alice, bob, a_app, b_app = await table_for_two(game, clients, seed=11, bob_key=bob_key)
    table, bob_seat = a_app.table, b_app.seat
    bob.conn.abort()
    await wait_until(lambda: b_app not in game.lobby.members and not b_app.is_running)
    await wait_until(lambda: game.handle.session_count == 1)
    bob_name = "bob"  # bound to bob's key: shown bare
    await alice.wait_for_text(f"{bob_name} left the table")
    info = {t.table_id: t for t in game.lobby.snapshot().tables}[table.game_id]
    assert dict(info.seats)[bob_name] == "away"
    # A third player logging in sees the game and who is away.
    carol = await clients.terminal(game.port, username="carol")
    await carol.wait_for_text(f"{bob_name} (away)")
    # Back with the same key: straight to the seat, same table object.
    again = await clients.terminal(game.port, username="bob", key=bob_key)
    await again.wait_for_text("Hand ")
    b2 = await wait_app(game, "bob")
    await wait_until(lambda: b2.table is table)
    assert b2.seat == bob_seat and isinstance(b2.screen, TableScreen)
    await alice.wait_for_text(f"{bob_name} is back")
    # The game goes on between the two screens.
    term, app = (alice, a_app) if table.current == a_app.seat else (again, b2)
    await take_turn_by_keys(term, app)


async def test_after_the_seat_wait_a_bot_plays_for_the_absent_player(start_game, clients, isolated_dirs):
    game = await start_game(seat_wait=0.2)
    bob_key = new_key()
    alice, bob, a_app, b_app = await table_for_two(game, clients, seed=23, bob_key=bob_key)
    table, bob_seat = a_app.table, b_app.seat
    bob.conn.abort()
    await wait_until(lambda: table.seats[bob_seat].is_bot)
    await alice.wait_for_text("now plays for")  # the toast wraps before the name
    # Alice plays on; the bot (run by the lobby's task for this table) takes bob's turns.
    start = len(table.events)
    for _ in range(3):
        await wait_until(lambda: table.current == a_app.seat or table.finished)
        if table.finished:
            break
        await alice.wait_for_text("Your turn")
        await take_turn_by_keys(alice, a_app)
    await wait_until(lambda: table.current == a_app.seat or table.finished)
    bot_turns = [e for e in table.events[start:] if type(e).__name__ == "TurnEnded"
                 and getattr(e, "seat", None) == bob_seat]
    assert bot_turns, "the bot never played bob's seat"
    # bob is back: the seat is his again.
    again = await clients.terminal(game.port, username="bob", key=bob_key)
    await again.wait_for_text("Hand ")
    await wait_until(lambda: not table.seats[bob_seat].is_bot)
    saved = [json.loads(line) for line in table.log.path.read_text().splitlines()[1:]]
    takeovers = [(e["seat"], e["reason"]) for e in saved if e["type"] == "SeatControlChanged"
                 and e["reason"] in ("bot after a wait", "back")]
    assert takeovers == [(bob_seat, "bot after a wait"), (bob_seat, "back")]


async def test_everyone_leaves_and_the_game_is_resumed_from_the_lobby(game, clients):
    alice, bob, a_app, b_app = await table_for_two(game, clients, seed=31)
    game_id = a_app.table.game_id
    table = a_app.table
    bob.send("q")  # back to the lobby; the seat stays bob's
    await bob.wait_for_text(f"Return to your seat at {game_id}")
    alice.send("q")
    await alice.wait_for_text("Resume my games (1)")
    await wait_until(lambda: not game.lobby.live)
    assert table.log._file is None  # put away, on disk
    alice.send("r")
    await alice.wait_for_text("My games")
    await alice.wait_for_text(f"{game_id}  shared, with bob")
    alice.send(ENTER)
    await alice.wait_for_text("Hand ")
    await wait_until(lambda: a_app.table is not None and a_app.table.game_id == game_id)
    assert a_app.table is not table  # loaded again from disk
    await bob.wait_for_text(f"Return to your seat at {game_id}")
    bob.send("c")
    await bob.wait_for_text("Hand ")
    await wait_until(lambda: b_app.table is a_app.table)


async def test_a_bot_at_a_shared_table_thinks_off_the_event_loop_and_moves_once(start_game, clients):
    calls: list[tuple[int, int]] = []
    loop_thread = threading.get_ident()

    def recording_bot(level, seed=0, **budget):
        bot = scripted_bot(level, seed)
        choose = bot.choose

        def traced(view):
            calls.append((threading.get_ident(), len(view.seats)))
            return choose(view)

        bot.choose = traced
        return bot

    game = await start_game(make_bot=recording_bot)
    alice, bob, a_app, b_app = await table_for_two(game, clients, seed=5, seats=3)
    table = a_app.table
    assert [s.kind for s in table.seats] == ["human", "human", "bot"]
    for _ in range(4):
        await wait_until(lambda: table.current in (a_app.seat, b_app.seat) and a_app.thinking is None
                         and b_app.thinking is None)
        term, app = (alice, a_app) if table.current == a_app.seat else (bob, b_app)
        await take_turn_by_keys(term, app)
    await wait_until(lambda: table.current in (a_app.seat, b_app.seat))
    assert calls and all(thread != loop_thread for thread, _ in calls)
    bot_turns = sum(1 for e in table.events if type(e).__name__ == "TurnEnded" and e.seat == 2)
    assert bot_turns >= 1
    # One runner asked each bot decision: no more decisions than bot commands in the log.
    assert len(calls) <= sum(1 for e in table.events if getattr(e, "seat", None) == 2) + bot_turns


async def test_lobby_is_live_for_waiting_players(game, clients):
    alice = await clients.terminal(game.port, username="alice", key=new_key())
    await alice.wait_for_text("Welcome, alice")
    bob = await clients.terminal(game.port, username="bob")
    await bob.wait_for_text("Join a table (0 open)")
    await create_table(alice, await wait_app(game, "alice"), seats=2)
    await bob.wait_for_text("Join a table (1 open)")
    await bob.wait_for_text("table T1 waiting for 1 player")
    alice.send(b"\x1b")  # Esc: the creator leaves, the table closes
    await alice.wait_for_text("Welcome, alice")
    await bob.wait_for_text("Join a table (0 open)")
    a_app = await wait_app(game, "alice")
    assert isinstance(a_app.screen, LobbyScreen) and not game.lobby.pending
