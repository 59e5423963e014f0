"""The shared lobby's heartbeat (longest pause ≤ 50 ms): its
database calls (the heartbeat and the catch-up read after it) run beside the
event loop, not on it. The bench (``bench_ssh --slow-callbacks``) found the
heartbeat's step holding a worker's loop 82-161 ms with the bot tables
playing (1-2 ms of it on the CPU: the rest waiting for the database).
Every wait is bounded; a slow database is stood for by a call held on an
event, never by a sleep."""

from __future__ import annotations

import asyncio
import threading

from ssh_harness import TIMEOUT, wait_until

from momiji_tui.session.database_games import DatabaseGames
from momiji_tui.session.database_lobby import DatabaseLobby

HELD = TIMEOUT
"""Seconds the held call waits at most: a hang guard only (the test releases
it as soon as its loop runs; a loop held by the call fails the test, however
long the machine keeps the test's loop from running)."""


async def test_the_lobby_heartbeat_waits_for_the_database_without_holding_the_event_loop(pg_url, tmp_path):
    go = asyncio.Event()
    pauses = 0

    async def one_beat(seconds: float) -> None:  # the first pause ends when the test says; no other
        nonlocal pauses
        pauses += 1
        await (go.wait() if pauses == 1 else asyncio.Event().wait())

    lobby = DatabaseLobby(tmp_path / "a", games=DatabaseGames.open(pg_url), deal_seed=lambda: 4242,
                          beat_pause=one_beat, bot_delay=0, seat_wait=None)
    await lobby.start_following()
    release, held, done = threading.Event(), threading.Event(), threading.Event()
    beat_once, before = lobby._beat_once, lobby.rows

    def slow_beat() -> None:  # the database answers only once released (or after HELD seconds)
        held.set()
        release.wait(HELD)
        try:
            beat_once()
        finally:
            done.set()

    try:
        lobby._beat_once = slow_beat
        go.set()  # the heartbeat is due
        await wait_until(held.is_set, describe=lambda: "the heartbeat never called the database")
        assert not done.is_set(), "the loop ran again only after the heartbeat's database call ended"
        release.set()
        await wait_until(lambda: lobby.rows is not before,
                         describe=lambda: "the lobby was not read again after the beat")
    finally:
        release.set()
        del lobby._beat_once
        await lobby.stop_following()
        lobby.close()
