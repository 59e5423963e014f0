"""Bots in worker processes (ssh/bot_pool.py): same moves as in a thread,
thought about in another process, used by the game server when asked."""

from __future__ import annotations

import os
import threading

import pytest
from ssh_harness import CTRL_S, new_key, take_turn_by_keys, wait_app, wait_until

from momiji_tui.bots import make_bot
from momiji_tui.session.table import BOT, HUMAN, SeatConfig, Table
from momiji_tui.ssh import bot_pool
from momiji_tui.ssh.bot_pool import BotPool, default_workers
from momiji_tui.ui.screens.table import TableScreen


@pytest.fixture
def pool():
    p = BotPool(1)
    yield p
    p.close()


def test_a_pooled_bot_plays_what_the_same_bot_plays_in_a_thread(pool):
    table = Table.new([SeatConfig("a", HUMAN), SeatConfig("b", BOT, "normal")], seed=12)
    [pid] = pool.start()
    assert pid != os.getpid()
    for step in range(6):
        seat = table.current
        view = table.view(seat)
        here = make_bot("normal", seed=step).choose(view)
        there = pool.make_bot("normal", seed=step).choose(view)
        assert there == here
        table.submit(here)


def test_bots_think_at_a_lower_cpu_priority_than_the_server(pool):
    """A player's screen comes before a bot's thinking."""
    here = os.getpriority(os.PRIO_PROCESS, 0)
    [pid] = pool.start()
    there = os.getpriority(os.PRIO_PROCESS, pid)
    assert there > here or here == 19
    assert there == min(19, here + bot_pool.BOT_NICENESS)
    assert os.getpriority(os.PRIO_PROCESS, 0) == here  # starting the pool left the server's own as it was


def test_pool_arguments_and_closing():
    with pytest.raises(ValueError):
        BotPool(0)
    assert default_workers() >= 1
    p = BotPool(1)
    p.close()
    with pytest.raises(RuntimeError):
        p.make_bot("easy").choose(None)


async def test_the_game_server_sends_bot_moves_to_its_pool(start_game, clients, monkeypatch):
    calls: list[int] = []
    original = bot_pool._RemoteBot.choose

    def traced(self, view):
        calls.append(threading.get_ident())
        return original(self, view)

    monkeypatch.setattr(bot_pool._RemoteBot, "choose", traced)
    game = await start_game(make_bot=None, bot_workers=1)
    assert game.bots is not None and game.bots.workers == 1
    term = await clients.terminal(game.port, username="alice", key=new_key())
    await term.wait_for_text("Welcome, alice")
    app = await wait_app(game, "alice")
    term.send("n")
    await term.wait_for_text("New game")
    term.send(CTRL_S)
    await wait_until(lambda: app.table is not None and isinstance(app.screen, TableScreen))
    table = app.table
    for _ in range(2):
        await wait_until(lambda: table.current == app.seat and app.thinking is None, timeout=60)
        await take_turn_by_keys(term, app)
    await wait_until(lambda: table.current == app.seat and app.thinking is None, timeout=60)
    assert calls and threading.get_ident() not in calls
    assert any(type(e).__name__ == "TurnEnded" and e.seat != app.seat for e in table.events)


def _crash(*args):
    os._exit(3)  # a worker that dies mid-move


def test_a_dead_worker_does_not_lose_the_move(monkeypatch, pool):
    table = Table.new([SeatConfig("a", HUMAN), SeatConfig("b", BOT, "easy")], seed=4)
    view = table.view(table.current)
    expected = make_bot("easy", seed=1).choose(view)
    real_submit = pool.executor().submit
    monkeypatch.setattr(pool.executor(), "submit", lambda fn, *a: real_submit(_crash, *a))
    assert pool.make_bot("easy", seed=1).choose(view) == expected  # thought here instead
    assert pool._executor is None  # the broken pool was dropped
    assert pool.make_bot("easy", seed=1).choose(view) == expected  # new workers
