"""The database store's Listener: NOTIFY wakes it, a read from the
last position delivers; a dropped connection misses nothing."""

from __future__ import annotations

import asyncio

from momiji_tui.store.database import Delivered, Listener, open_store

GAME = "20261201-070000-00000b"
HEADER = {"game_id": GAME, "rules_version": "2026.11-2", "seats": [{"name": "Ada"}], "seed": 1,
          "created": "2026-12-01T07:00:00+00:00"}
WAIT = 30  # seconds: a bound on each wait for an event, never a timing assumption


async def take(listener: Listener, n: int) -> list[Delivered]:
    return [await asyncio.wait_for(listener.get(), WAIT) for _ in range(n)]


async def test_a_listener_that_drops_and_reconnects_delivers_every_event_once_in_order(pg_url, pg_admin):
    gate = asyncio.Event()
    attempts: list[int] = []

    async def held_reconnect(attempt: int) -> None:
        attempts.append(attempt)
        await gate.wait()

    writer = await open_store(pg_url)
    await writer.create_game(HEADER, [{"type": "E1"}])
    listener = Listener(pg_url, reconnect_wait=held_reconnect)
    listener.watch(GAME, after=0)
    task = asyncio.create_task(listener.run())
    try:
        assert [d.event for d in await take(listener, 1)] == [{"type": "E1"}]  # the catch-up at connect
        await asyncio.wait_for(listener.ready.wait(), WAIT)
        await writer.append(GAME, 1, [{"type": "E2"}, {"type": "E3"}])
        assert [d.position for d in await take(listener, 2)] == [2, 3]  # woken by NOTIFY

        pid = listener.backend_pid
        pg_admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        await asyncio.wait_for(listener.dropped.wait(), WAIT)
        position = 3
        for n in range(4, 7):  # saved while it is away: nobody hears these NOTIFYs
            position = await writer.append(GAME, position, [{"type": f"E{n}"}])
        assert listener._queue.empty()
        gate.set()
        got = await take(listener, 3)
        assert [(d.position, d.event) for d in got] == [(4, {"type": "E4"}), (5, {"type": "E5"}), (6, {"type": "E6"})]
        await asyncio.wait_for(listener.ready.wait(), WAIT)
        assert listener.connects == 2 and listener.backend_pid != pid and attempts == [1]

        await writer.append(GAME, 6, [{"type": "E7"}])  # and it listens again
        assert [(d.position, d.event) for d in await take(listener, 1)] == [(7, {"type": "E7"})]
        assert listener._queue.empty() and listener.last_position(GAME) == 7
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await writer.close()


async def test_a_damaged_row_is_delivered_as_a_problem_and_the_game_no_longer_followed(pg_url, pg_admin):
    writer = await open_store(pg_url)
    await writer.create_game(HEADER, [{"type": "E1"}, {"type": "E2"}])
    pg_admin.execute("UPDATE events SET event = '[1, 2]'::jsonb WHERE position = 2")
    listener = Listener(pg_url)
    listener.watch(GAME)
    task = asyncio.create_task(listener.run())
    try:
        first, second = await take(listener, 2)
        assert first.event == {"type": "E1"}
        assert (second.position, second.event, second.problem) == (2, None,
                                                                   "The event at position 2 is not an event object.")
        assert listener.last_position(GAME) is None
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await writer.close()


async def test_a_game_watched_while_listening_is_caught_up_at_once_and_followed(pg_url):
    """The lobby's case: a table created after the listener started."""
    writer = await open_store(pg_url)
    listener = Listener(pg_url)
    task = asyncio.create_task(listener.run())
    try:
        await asyncio.wait_for(listener.ready.wait(), WAIT)
        await writer.create_game(HEADER, [{"type": "E1"}, {"type": "E2"}])
        other = {**HEADER, "game_id": "20261201-070000-00000c"}
        await writer.create_game(other, [{"type": "X1"}])  # not followed: never delivered
        listener.watch(GAME, after=1)
        assert [(d.game_id, d.position) for d in await take(listener, 1)] == [(GAME, 2)]
        await writer.append(other["game_id"], 1, [{"type": "X2"}])
        await writer.append(GAME, 2, [{"type": "E3"}])
        assert [(d.game_id, d.position, d.event) for d in await take(listener, 1)] == [(GAME, 3, {"type": "E3"})]
        assert listener._queue.empty()
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await writer.close()


async def test_a_stopped_listener_closes_its_reading_connection_only_after_a_catch_up_in_flight(pg_url):
    """A watch's catch-up reads on the listener's reading connection in a task
    of its own. Stopping the listener (a server shutting down, a test killing
    a process) must not close that connection under the read: libpq would
    then use freed memory (a test worker aborted so, 'Fatal Python error:
    Aborted' in psycopg's execute)."""
    listener = Listener(pg_url)
    task = asyncio.create_task(listener.run())
    started, release = asyncio.Event(), asyncio.Event()
    try:
        await asyncio.wait_for(listener.ready.wait(), WAIT)
        reader = listener._reader
        assert reader is not None

        async def slow_read(game_id: str, after: int) -> list:
            started.set()
            await release.wait()
            return []

        reader.read = slow_read  # type: ignore[method-assign]
        listener.watch(GAME, after=0)
        await asyncio.wait_for(started.wait(), WAIT)
        task.cancel()
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert not reader.conn.closed  # the read in flight still holds it
        release.set()
        await asyncio.gather(task, return_exceptions=True)
        assert reader.conn.closed
    finally:
        release.set()
        task.cancel()
        await asyncio.gather(task, *listener._tasks, return_exceptions=True)


async def test_a_game_unwatched_or_watched_again_during_a_catch_up_is_not_reported_damaged(pg_url):
    """Found by a new-player trial on two workers: both players of a table on
    one worker left at once (the game unwatched) while a catch-up was reading
    it; the read then found its mark gone and reported 'The event at position
    33 is missing.' (and stopped following the game). A read whose game was
    unwatched, or watched again from another position, while it read stops
    quietly: the new watch's own catch-up reads from its mark."""
    listener = Listener(pg_url)
    task = asyncio.create_task(listener.run())
    gate = asyncio.Event()
    reading = asyncio.Event()
    stored = {1: {"type": "E1"}, 2: {"type": "E2"}}
    try:
        await asyncio.wait_for(listener.ready.wait(), WAIT)
        reader = listener._reader
        assert reader is not None

        async def gated_read(game_id: str, after: int) -> list:
            reading.set()
            await gate.wait()
            return [(p, e) for p, e in stored.items() if p > after]

        reader.read = gated_read  # type: ignore[method-assign]
        listener.watch(GAME, after=0)
        await asyncio.wait_for(reading.wait(), WAIT)
        listener.unwatch(GAME)  # every player of the table left this process
        gate.set()
        await asyncio.gather(*listener._tasks)
        assert listener.get_ready() == []  # nothing delivered, no problem reported

        gate.clear()
        reading.clear()
        listener.watch(GAME, after=0)
        await asyncio.wait_for(reading.wait(), WAIT)
        listener.watch(GAME, after=1)  # watched again further on while the first read is in flight
        gate.set()
        await asyncio.gather(*listener._tasks)
        delivered = listener.get_ready()
        assert [(d.game_id, d.position, d.problem) for d in delivered] == [(GAME, 2, None)]
    finally:
        gate.set()
        task.cancel()
        await asyncio.gather(task, *listener._tasks, return_exceptions=True)
