"""Hints over SSH: the advice is thought in the bot pool's worker
processes (never on the server's event loop), the same as in a thread, and
the game server hands the pool's ``advise`` to every session's app."""

from __future__ import annotations

import pytest
from ssh_harness import new_key, wait_app

from momiji_tui.bots.advice import Advice, advise
from momiji_tui.session.table import BOT, HUMAN, SeatConfig, Table
from momiji_tui.ssh.bot_pool import BotPool


@pytest.fixture
def pool():
    p = BotPool(1)
    yield p
    p.close()


def _view():
    table = Table.new([SeatConfig("a", HUMAN), SeatConfig("b", BOT, "normal")], seed=12)
    return table.view(table.current)


def test_pooled_advice_is_the_advice_thought_in_a_thread_rules_8(pool):
    view = _view()
    assert pool.advise(view, seed=3, iterations=12) == advise(view, seed=3, iterations=12)


def test_pooled_advice_stops_waiting_when_cancelled(pool):
    pool.start()
    got = pool.advise(_view(), seed=3, iterations=10 ** 6, should_stop=lambda: True)
    assert got == Advice(())


async def test_the_game_server_gives_its_apps_the_pools_advise(start_game, clients):
    game = await start_game(make_bot=None, bot_workers=1)
    assert game.bots is not None
    term = await clients.terminal(game.port, username="alice", key=new_key())
    await term.wait_for_text("Welcome, alice")
    app = await wait_app(game, "alice")
    assert app.advise == game.bots.advise
