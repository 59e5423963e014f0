"""A clean shutdown.

Every player is told the server is stopping (with a countdown), every game
is saved, and every client exits with the same documented status, even one
whose app does not stop in time.
"""

from __future__ import annotations

import asyncio

from ssh_harness import TIMEOUT, DemoApp, Hosted, new_key, wait_app
from test_ssh_lobby import start_solo_game

from momiji_tui.ssh import start_server
from momiji_tui.ssh.server import SHUTDOWN_EXIT_STATUS


async def test_every_client_gets_the_same_status_and_message_on_shutdown(start_game, clients):
    server = await start_game()
    lobby_term = await clients.terminal(server.port, username="alice", key=new_key())
    await lobby_term.wait_for_text("Welcome, alice")
    table_term = await clients.terminal(server.port, username="bob", key=new_key())
    await table_term.wait_for_text("Welcome, bob")
    await start_solo_game(table_term, await wait_app(server, "bob"))
    help_term = await clients.terminal(server.port, username="carol")
    await help_term.wait_for_text("Welcome, carol")
    help_term.send("?")  # a modal screen open at shutdown
    await asyncio.wait_for(server.close(timeout=TIMEOUT), 2 * TIMEOUT)
    statuses = [await term.wait_exit() for term in (lobby_term, table_term, help_term)]
    assert statuses == [SHUTDOWN_EXIT_STATUS] * 3
    for term in (lobby_term, table_term, help_term):
        assert b"The server is shutting down" in term.raw


class StuckApp(DemoApp):
    """An app that does not finish stopping (a hung unmount)."""

    async def on_unmount(self) -> None:
        await asyncio.Event().wait()


async def test_a_client_whose_app_does_not_stop_in_time_still_gets_the_status(clients):
    hosted = Hosted(make_app=StuckApp)
    hosted.handle = await start_server(app_factory=hosted.factory, port=0)
    term = await clients.terminal(hosted.port, username="dave")
    await term.wait_for_text("who=dave")
    await asyncio.wait_for(hosted.handle.close(timeout=0.2), TIMEOUT)
    assert await term.wait_exit() == SHUTDOWN_EXIT_STATUS  # was None: ssh exits 255
    assert b"The server is shutting down" in term.raw


async def test_players_are_warned_before_the_server_stops(clients):
    sleeps: list[float] = []
    release = asyncio.Event()

    async def fake_sleep(seconds: float) -> None:
        sleeps.append(seconds)
        await release.wait()

    hosted = Hosted()
    hosted.handle = await start_server(app_factory=hosted.factory, port=0)
    term = await clients.terminal(hosted.port, username="erin")
    await term.wait_for_text("who=erin")
    closing = asyncio.ensure_future(hosted.handle.close(timeout=TIMEOUT, countdown=5,
                                                        sleep=fake_sleep))
    await term.wait_for_text("stopping in 5 s")
    assert sleeps == [5]
    release.set()
    await asyncio.wait_for(closing, TIMEOUT)
    assert await term.wait_exit() == SHUTDOWN_EXIT_STATUS


def _slow_move(*args):
    import time

    time.sleep(120)  # a move that outlasts the server


def test_closing_the_bot_pool_ends_a_move_being_thought(monkeypatch):
    # What kept `momiji serve` alive after "stopped": a thread still waiting
    # on a worker's move (then thinking it again itself), joined at exit.
    import threading

    from momiji_tui.session.table import BOT, HUMAN, SeatConfig, Table
    from momiji_tui.ssh.bot_pool import BotPool, BotPoolClosed

    pool = BotPool(1)
    pool.start()
    table = Table.new([SeatConfig("a", HUMAN), SeatConfig("b", BOT, "easy")], seed=4)
    view = table.view(table.current)
    real_submit = pool.executor().submit
    monkeypatch.setattr(pool.executor(), "submit", lambda fn, *a: real_submit(_slow_move, *a))
    outcome: list[BaseException | object] = []
    started = threading.Event()

    def think() -> None:
        started.set()
        try:
            outcome.append(pool.make_bot("easy", seed=1).choose(view))
        except BaseException as exc:  # recorded for the assertion
            outcome.append(exc)

    thread = threading.Thread(target=think, daemon=True)
    thread.start()
    started.wait(TIMEOUT)
    wait_until_sync(lambda: pool._executor is not None and pool._executor._pending_work_items)
    pool.close()
    thread.join(TIMEOUT)
    assert not thread.is_alive()
    assert len(outcome) == 1 and isinstance(outcome[0], BotPoolClosed)


def wait_until_sync(predicate, timeout: float = TIMEOUT) -> None:
    """Poll ``predicate`` every 10 ms, at most ``timeout`` seconds' worth of polls
    (a bounded wait, no clock read)."""
    import time

    for _ in range(int(timeout / 0.01)):
        if predicate():
            return
        time.sleep(0.01)
    raise AssertionError("timed out")


async def test_the_serve_process_stops_every_client_alike_and_keeps_its_files_private(tmp_path,
                                                                                     clients):
    import signal
    import stat

    from test_ssh_serve_cli import serve

    data = tmp_path / "served"
    async with serve(data, "--stop-countdown", "0") as server:
        port = int((await server.wait_log(r"listening on 127\.0\.0\.1 port (\d+)")).group(1))
        key_term = await clients.terminal(port, username="alice", key=new_key())
        guest_term = await clients.terminal(port, username="bob")
        await key_term.wait_for_text("Welcome, alice")
        await guest_term.wait_for_text("Welcome, bob")
        assert await server.stop(signal.SIGTERM) == 0  # a bounded wait for the process
        assert [await key_term.wait_exit(), await guest_term.wait_exit()] == [
            SHUTDOWN_EXIT_STATUS] * 2
        assert server.find(r"momiji: auth failed|Traceback") is None
        assert server.find(r"stopped$") is not None
    for path in [data, *data.rglob("*")]:
        expected = 0o700 if path.is_dir() else 0o600
        assert stat.S_IMODE(path.stat().st_mode) == expected, path
