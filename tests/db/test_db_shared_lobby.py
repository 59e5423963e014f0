"""The lobby shared through the database: two lobbies in
one test process, each with its own connection to one real PostgreSQL
database, stand for two server processes (workers or hosts). Their members
are plain objects; every wait is bounded (``wait_until``) on a state, never
a sleep."""

from __future__ import annotations

import asyncio
import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import psycopg
import pg_server
import pytest
from ssh_harness import wait_until

from momiji_tui.engine import events as ev
from momiji_tui.session import seat_log
from momiji_tui.session.database_games import DatabaseGames
from momiji_tui.session.database_lobby import DatabaseLobby
from momiji_tui.session.lobby import Dissolved, LobbyError, Player, Seated
from momiji_tui.session.replica import CAUGHT_UP, ReplicaTable
from momiji_tui.session.shared_table import MovedOn
from momiji_tui.store import WriteFailed
from momiji_tui.store.database.lobby_rows import PRESENCE_LOCK
from momiji_tui.ui.models.new_game import not_saved_text


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
    await asyncio.Event().wait()  # the tests beat by hand (lobby._beat_once)


class Clock:
    """The lobbies' monotonic clock, moved by hand (seconds)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def lobbies(pg_url, tmp_path):
    """Two processes' lobbies on one database (A and B), stopped at the end;
    they share one hand-moved :class:`Clock`."""
    made: list[DatabaseLobby] = []
    clock = Clock()

    async def make(name: str, **options) -> DatabaseLobby:
        options.setdefault("seat_wait", None)
        options.setdefault("clock", clock)
        lobby = DatabaseLobby(tmp_path / name, games=DatabaseGames.open(pg_url), deal_seed=lambda: 4242,
                              beat_pause=no_beat, bot_delay=0, **options)
        await lobby.start_following()
        made.append(lobby)
        return lobby

    yield make
    for lobby in made:
        if not lobby._closed:
            await lobby.stop_following()
            lobby.close()


async def seated_pair(make, *, others=("human",), a_options=None, b_options=None):
    """Processes A and B, alice entered in A and bob in B, both seated at the
    table alice opened in A (``others``: its other seats)."""
    a, b = await make("a", **(a_options or {})), await make("b", **(b_options or {}))
    alice, bob = FakeMember("key-a", "alice"), FakeMember("key-b", "bob")
    a.enter(alice)
    b.enter(bob)
    pending = a.create_table(alice, list(others))
    await wait_until(lambda: pending.table_id in b.pending, describe=lambda: f"B sees {list(b.pending)}")
    b.join_table(bob, pending.table_id)
    await wait_until(lambda: alice.seated() is not None and bob.seated() is not None)
    return a, b, alice, bob


def kill(process) -> None:
    """A process dies: no goodbye, no more heartbeats."""
    for task in process._tasks:
        task.cancel()
    process._closed = True


def expire(process, pg_admin) -> None:
    """A dead process's heartbeat runs out in the lobby's rows, while the
    others reached the database for longer than its time to live."""
    process.clock.now += process.ttl
    pg_admin.execute("UPDATE lobby_processes SET expires = now() - interval '1 second' WHERE process = %s",
                     (process.process,))


async def test_a_table_opened_in_one_process_is_joined_from_another_and_both_follow_its_moves(lobbies):
    a, _b, alice, bob = await seated_pair(lobbies)
    ta, tb = alice.seated().table, bob.seated().table
    assert ta is not tb and ta.game_id == tb.game_id  # one replica per process
    assert isinstance(ta, ReplicaTable) and (alice.seated().seat, bob.seated().seat) == (0, 1)
    assert ("bob", "playing at " + ta.game_id) in [(n.split("·")[0], act) for n, act in a.snapshot().players]
    [info] = [t for t in a.snapshot().tables if t.table_id == ta.game_id]
    assert [status for _, status in info.seats] == ["here", "here"]  # bob plays in B: not "away" in A
    for _ in range(6):  # each plays on its own replica; the other's replica follows
        mover, other = (ta, tb) if ta.current == 0 else (tb, ta)
        mover.submit(mover.legal(mover.current)[0])
        await wait_until(lambda mover=mover, other=other: other.events == mover.events)
    assert ta.state == tb.state


async def test_two_players_racing_for_the_last_seat_exactly_one_gets_it_and_the_other_is_told(lobbies):
    """Both processes still show the seat open (B's view is not refreshed):
    the database decides; the loser reads 'That table is full.'"""
    a, b = await lobbies("a"), await lobbies("b")
    alice, bob, carol = FakeMember("key-a", "alice"), FakeMember("key-b", "bob"), FakeMember("key-c", "carol")
    a.enter(alice)
    a.enter(carol)
    b.enter(bob)
    pending = a.create_table(alice, ["human", "human"])
    await wait_until(lambda: pending.table_id in b.pending)
    b.join_table(bob, pending.table_id)
    dave = FakeMember("key-d", "dave")
    b.enter(dave)
    await wait_until(lambda: b.pending[pending.table_id].open_seats == 1)
    b.refresh = lambda: None  # B's view stays as it is now: the last seat shown open…
    a.join_table(carol, pending.table_id)  # …while carol takes it in A
    with pytest.raises(LobbyError, match=r"^That table is full\.$"):
        b.join_table(dave, pending.table_id)
    del b.refresh  # B reads the lobby again: the game started in A, bob is seated
    b.refresh()
    await wait_until(lambda: carol.seated() is not None and bob.seated() is not None)
    assert dave.seated() is None and carol.seated().seat == 2


async def test_a_waiting_table_closed_by_its_creator_tells_the_player_waiting_in_another_process(lobbies):
    a, b = await lobbies("a"), await lobbies("b")
    alice, bob = FakeMember("key-a", "alice"), FakeMember("key-b", "bob")
    a.enter(alice)
    b.enter(bob)
    pending = a.create_table(alice, ["human", "human"])
    await wait_until(lambda: pending.table_id in b.pending)
    b.join_table(bob, pending.table_id)
    a.leave_pending(alice)
    await wait_until(lambda: any(isinstance(e, Dissolved) for e in bob.events))
    [gone] = [e for e in bob.events if isinstance(e, Dissolved)]
    assert gone.reason.endswith(f"closed table {pending.table_id}.") and b.pending == {}


async def test_a_bot_turn_both_processes_could_take_lands_once(lobbies, pg_admin):
    """Both replicas run the table's bots; both think the same turn at once
    (held until both are thinking); exactly one move is saved, the other
    process drops its own silently and shows the winner's."""
    thinking: list[str] = []
    steps: list[int] = []
    both = asyncio.Event()

    def thinker(name):
        async def think(table, seat):
            thinking.append(name)
            steps.append(len(table.events))
            if len(thinking) > 2:  # after the race the bots stop, so the count below is the race's
                await asyncio.Event().wait()
            if len(thinking) == 2:
                both.set()
            await asyncio.wait_for(both.wait(), 10)
            return table.bot_command(seat)
        return think

    a = await lobbies("a", think=thinker("a"))
    b = await lobbies("b", think=thinker("b"))
    alice, bob = FakeMember("key-a", "alice"), FakeMember("key-b", "bob")
    a.enter(alice)
    b.enter(bob)
    pending = a.create_table(alice, ["human", "bot"])
    await wait_until(lambda: pending.table_id in b.pending)
    b.join_table(bob, pending.table_id)
    await wait_until(lambda: alice.seated() is not None and bob.seated() is not None)
    ta, tb = alice.seated().table, bob.seated().table
    while not both.is_set():  # the humans play until the bot's turn
        mover, other = (ta, tb) if ta.current == 0 else (tb, ta)
        mover.submit(mover.legal(mover.current)[0])
        await wait_until(lambda mover=mover, other=other: other.events == mover.events or both.is_set())
    before = steps[0]
    await wait_until(lambda: len(ta.events) > before and ta.events == tb.events)
    assert sorted(thinking[:2]) == ["a", "b"] and steps[:2] == [before, before]
    moves = pg_admin.execute("SELECT count(*) FROM events WHERE game_id = %s AND NOT (event ? 'move_continues')"
                             " AND position > %s", (ta.game_id, before)).fetchone()[0]
    assert moves == 1 and len(ta.events) == a.db.store.load_game(ta.game_id).position


async def test_a_move_made_on_a_stale_replica_is_refused_in_words_and_the_replica_catches_up(lobbies):
    """Bob's process saves a seat event that alice's process has not heard
    of yet (it no longer listens); alice's move then loses the append at the
    expected position: not saved, told in words, and her replica shows the
    event; sent again, her move lands."""
    a, _b, alice, bob = await seated_pair(lobbies)
    ta, tb = alice.seated().table, bob.seated().table
    while ta.current != 0:
        tb.submit(tb.legal(tb.current)[0])
        await wait_until(lambda: ta.events == tb.events)
    a.listener.unwatch(ta.game_id)  # A hears nothing more: its replica goes stale
    tb.record([seat_log.left(1, "key-b")])
    command = ta.legal(0)[0]
    with pytest.raises(MovedOn) as caught:
        ta.submit(command)
    assert caught.value.reason == CAUGHT_UP
    assert not_saved_text(caught.value) == (  # what alice reads at the table
        "Not saved: another move at this table was saved first; the table now shows it. "
        "The move was not made; the game is saved up to the other session's move.")
    assert ta.events == tb.events  # caught up: alice's screen shows the seat event
    ta.submit(command)
    assert ta.log.position == len(ta.events) == a.db.store.load_game(ta.game_id).position


async def test_a_killed_process_loses_no_game_and_its_player_returns_to_the_seat_on_the_other(lobbies, pg_admin):
    a, b, alice, bob = await seated_pair(lobbies)
    ta, tb = alice.seated().table, bob.seated().table
    mover = ta if ta.current == 0 else tb
    mover.submit(mover.legal(mover.current)[0])
    await wait_until(lambda: tb.events == ta.events)
    kill(a)
    expire(a, pg_admin)
    b._beat_once()  # B's heartbeat sweeps the dead process
    b.refresh()
    assert all(m.process != a.process for m in b.rows.members)
    again = FakeMember("key-a", "alice")
    b.enter(again)
    [mine] = b.my_tables(again.player)
    table, seat = b.return_to(again, mine.game_id)
    assert table is tb and seat == 0 and tb.events[:len(ta.events)] == ta.events
    tb.submit(tb.legal(tb.current)[0])  # play goes on in B


async def test_a_lobby_read_that_finds_nothing_new_redraws_no_screen(lobbies):
    """Every heartbeat reads the lobby again (a catch-up in case a wake-up was
    missed): when nothing changed, no member is sent LobbyChanged (64
    players' screens would redraw every few seconds for nothing)."""
    a = await lobbies("a")
    alice = FakeMember("key-a", "alice")
    a.enter(alice)
    a.refresh()
    before = len(alice.events)
    a._beat_once()
    a.refresh()
    assert len(alice.events) == before


class Timers:
    """call_later for the seat wait, fired by the test (no clock)."""

    def __init__(self) -> None:
        self.pending: list = []

    def __call__(self, delay, callback, *args):
        timer = Timer(self, callback, args)
        self.pending.append(timer)
        return timer


class Timer:
    def __init__(self, timers, callback, args) -> None:
        self.timers, self.callback, self.args = timers, callback, args

    def cancel(self) -> None:
        if self in self.timers.pending:
            self.timers.pending.remove(self)

    def fire(self) -> None:
        self.cancel()
        self.callback(*self.args)


async def test_a_player_who_left_in_another_process_is_played_by_a_bot_then_takes_the_seat_back(lobbies):
    """bob leaves the table in B; A (alice still there) hears it from the log,
    waits the seat wait, lets a bot play bob's seat; bob comes back in B and
    A's replica gives the seat back to him (played elsewhere: no timer)."""
    timers = Timers()
    a = await lobbies("a", seat_wait=60, call_later=timers)
    b = await lobbies("b", seat_wait=60, call_later=Timers())
    alice, bob = FakeMember("key-a", "alice"), FakeMember("key-b", "bob")
    a.enter(alice)
    b.enter(bob)
    pending = a.create_table(alice, ["human"])
    await wait_until(lambda: pending.table_id in b.pending)
    b.join_table(bob, pending.table_id)
    await wait_until(lambda: alice.seated() is not None and bob.seated() is not None)
    ta, tb = alice.seated().table, bob.seated().table
    live_a = a.live[ta.game_id]
    assert live_a.seats[1].elsewhere and timers.pending == []  # bob plays in B: nobody waits for him
    b.leave_table(bob, tb)
    await wait_until(lambda: len(timers.pending) == 1)  # A heard 'left' and waits for him
    assert not live_a.seats[1].elsewhere
    timers.pending[0].fire()
    assert live_a.seats[1].taken and ta.seats[1].kind == "bot"
    back = FakeMember("key-b", "bob")
    b.enter(back)
    table, seat = b.return_to(back, ta.game_id)
    assert seat == 1 and table.seats[1].kind == "human"
    await wait_until(lambda: ta.seats[1].kind == "human")  # A's replica followed: bob plays his seat again
    assert live_a.seats[1].elsewhere and not live_a.seats[1].taken and timers.pending == []


async def test_a_seat_whose_process_died_waits_the_seat_wait_then_a_bot_plays_it(lobbies, pg_admin):
    """A is killed while alice plays there (no 'left' in the log). Once B's
    heartbeat has swept A, B records that alice left and, after the seat
    wait, lets a bot play for her so bob can finish."""
    timers = Timers()
    a, b, _alice, bob = await seated_pair(lobbies, a_options=dict(seat_wait=60, call_later=Timers()),
                                          b_options=dict(seat_wait=60, call_later=timers))
    tb = bob.seated().table
    kill(a)
    expire(a, pg_admin)
    assert timers.pending == []
    b._beat_once()
    b.refresh()
    last = tb.state.seat_control[0]
    assert (last.reason, last.player) == (seat_log.LEFT, "key-a")  # in the log: alice is gone
    assert len(timers.pending) == 1
    timers.pending[0].fire()
    assert tb.seats[0].kind == "bot"


async def test_a_player_back_on_a_process_that_no_longer_follows_the_game_is_offered_the_seat(lobbies):
    """Found by a new-player trial with --workers 2: bob left the table (his
    session ended), then reconnected to the same worker, which had stopped
    following the game (none of its players there): no 'Return to your seat'.
    The database's lobby rows still hold his seat at the started table."""
    a, b, alice, bob = await seated_pair(lobbies)
    game_id = bob.seated().table.game_id
    b.exit(bob)
    await wait_until(lambda: game_id not in b.live, describe=lambda: f"B follows {list(b.live)}")
    back = FakeMember("key-b", "bob")
    b.enter(back)
    b.refresh()
    assert b.absent_seat(back.player) == game_id
    assert a.absent_seat(alice.player) is None  # alice is at the table: nothing to return to
    table, seat = b.return_to(back, game_id)
    assert (table.game_id, seat) == (game_id, 1)


async def test_a_seat_whose_process_died_is_left_even_when_its_player_is_online_on_another_worker(
        lobbies, pg_admin):
    """Found by a new-player trial with --workers 2: A is killed while alice
    plays there, and alice is already back online in B's lobby (not at the
    table): B records that she left (once), so the seat wait runs; her
    return then records one 'back' after that 'left'."""
    timers = Timers()
    a, b, _alice, bob = await seated_pair(lobbies, a_options=dict(seat_wait=60, call_later=Timers()),
                                          b_options=dict(seat_wait=60, call_later=timers))
    tb = bob.seated().table
    kill(a)
    again = FakeMember("key-a", "alice")
    b.enter(again)  # alice's new connection lands on B, in the lobby
    expire(a, pg_admin)
    b._beat_once()
    b.refresh()
    b.refresh()
    reasons = [e.reason for e in tb.events if isinstance(e, ev.SeatControlChanged) and e.seat == 0]
    assert reasons == [seat_log.SEATED, seat_log.LEFT] and len(timers.pending) == 1
    b.return_to(again, tb.game_id)
    reasons = [e.reason for e in tb.events if isinstance(e, ev.SeatControlChanged) and e.seat == 0]
    assert reasons == [seat_log.SEATED, seat_log.LEFT, seat_log.BACK] and timers.pending == []


async def test_a_seat_event_another_process_recorded_first_is_not_recorded_twice(lobbies):
    """Both processes following a game can see the same seat die; the one that
    records second (a stale replica) catches up and finds it already said:
    one 'left' in the log, not two (nor two 'You are back.')."""
    a, _b, alice, bob = await seated_pair(lobbies)
    ta, tb = alice.seated().table, bob.seated().table
    a.listener.unwatch(ta.game_id)  # A has not heard of B's event yet
    tb.record([seat_log.left(1, "key-b")])
    ta.record([seat_log.left(1, "key-b")])
    assert ta.events == tb.events
    assert [e.reason for e in tb.catch_up() + tb.events if isinstance(e, ev.SeatControlChanged)
            and e.seat == 1] == [seat_log.SEATED, seat_log.LEFT]


async def test_every_process_lists_a_started_table_the_same_from_the_lobby_rows(lobbies):
    """Found by a new-player trial with --workers 2: B no longer follows the
    game (bob left it) and listed it as "elsewhere", bob (online in B's
    lobby) as seated; A listed bob as away. Both now list it from the rows."""
    a, b, _alice, bob = await seated_pair(lobbies, others=("human", "bot"))
    game_id = bob.seated().table.game_id
    b.exit(bob)
    await wait_until(lambda: game_id not in b.live)
    b.enter(FakeMember("key-b", "bob"))  # back online, in the lobby
    a.refresh()
    b.refresh()
    listed = [[t for t in lobby.snapshot().tables if t.table_id == game_id] for lobby in (a, b)]
    assert listed[0] == listed[1]
    assert [status for _, status in listed[0][0].seats] == ["here", "away", "bot"]


async def test_a_process_lists_its_own_player_at_a_started_table_as_here_before_its_rows_catch_up(lobbies):
    """A process knows its own members' activity before its last read of the
    rows does (CI met it: alice, seated in A, listed "away" by A)."""
    a, _b, alice, _bob = await seated_pair(lobbies)
    game_id = alice.seated().table.game_id
    a.rows = replace(a.rows, members=tuple(replace(m, activity="in the lobby") if m.process == a.process else m
                                           for m in a.rows.members))  # a read from before alice sat down
    [info] = [t for t in a.snapshot().tables if t.table_id == game_id]
    assert info.seats[0] == ("alice", "here")


def database_away(*processes) -> list:
    """Every database call of ``processes`` fails as when PostgreSQL is
    stopped (``psycopg.OperationalError`` before the call is made); the
    returned list of undo callbacks brings it back."""
    undo = []
    for process in processes:
        store = process.db.store

        def refused() -> None:
            raise psycopg.OperationalError("connection refused: is the server running?")

        store._reconnect_if_lost = refused
        undo.append(lambda store=store: delattr(store, "_reconnect_if_lost"))
    return undo


def seat_events(table) -> list[tuple[int, str]]:
    return [(e.seat, e.reason) for e in table.events if isinstance(e, ev.SeatControlChanged)]


async def test_a_database_outage_longer_than_the_heartbeat_gives_no_seat_away(lobbies, pg_admin):
    """PostgreSQL away for 30 s (ttl 20 s) while alice (A) and bob (B) play
    one table: the move tried meanwhile is refused in words and lands after;
    the first process back judges nobody absent (the other could not beat
    either), so no seat is left and no bot waits to take one."""
    timers_a, timers_b = Timers(), Timers()
    a, b, alice, bob = await seated_pair(lobbies, a_options=dict(seat_wait=60, call_later=timers_a),
                                         b_options=dict(seat_wait=60, call_later=timers_b))
    ta, tb = alice.seated().table, bob.seated().table
    seats_before = seat_events(ta)
    mover = ta if ta.current == 0 else tb
    command = mover.legal(mover.current)[0]
    undo = database_away(a, b)
    with pytest.raises(WriteFailed) as caught:
        mover.submit(command)
    assert caught.value.reason.startswith("the database failed: ")
    for process in (a, b):
        await process._beat_in_thread()  # fails: neither may judge the other for a while
        assert not process.may_sweep()
    a.clock.now += 30
    pg_admin.execute("UPDATE lobby_processes SET expires = now() - interval '10 seconds'")  # 30 s later
    for back in undo:
        back()
    await b._beat_in_thread()  # B is back first and finds A's heartbeat expired
    assert any(m.account_id == "key-a" for m in b.rows.members)  # alice is still online for B
    mover.submit(command)  # the refused move lands now
    await a._beat_in_thread()
    a.clock.now += a.ttl  # both have reached the database for a whole ttl: they may judge now
    for process in (b, a, b):
        await process._beat_in_thread()
    await wait_until(lambda: ta.events == tb.events)
    assert seat_events(ta) == seat_events(tb) == seats_before  # no "left", no bot
    assert timers_a.pending == timers_b.pending == []
    assert {m.account_id for m in a.rows.members} == {m.account_id for m in b.rows.members} == {"key-a", "key-b"}
    assert pg_admin.execute("SELECT count(*) FROM lobby_processes").fetchone() == (2,)


async def test_a_process_that_never_beat_again_after_an_outage_is_judged_after_a_whole_ttl(lobbies, pg_admin):
    """The other side of the rule: A died during the outage. B, back, waits
    one whole ttl of reaching the database before it judges A; then alice's
    seat is left (the seat wait runs) as for any process that died."""
    timers = Timers()
    a, b, _alice, bob = await seated_pair(lobbies, a_options=dict(seat_wait=60, call_later=Timers()),
                                          b_options=dict(seat_wait=60, call_later=timers))
    tb = bob.seated().table
    [back] = database_away(b)
    kill(a)
    await b._beat_in_thread()
    back()
    pg_admin.execute("UPDATE lobby_processes SET expires = now() - interval '10 seconds'"
                     " WHERE process = %s", (a.process,))
    await b._beat_in_thread()
    assert seat_events(tb)[-1][1] == seat_log.SEATED and timers.pending == []
    b.clock.now += b.ttl
    await b._beat_in_thread()
    assert seat_events(tb)[-1] == (0, seat_log.LEFT) and len(timers.pending) == 1
    assert pg_admin.execute("SELECT count(*) FROM lobby_processes").fetchone() == (1,)


OUTAGE_ENV = "MOMIJI_PG_OUTAGE_SECONDS"
"""Seconds the real outage below lasts (default 0: stopped and started at
once, the expiry of a longer outage written into the rows). Run it once with
30 to see a real 30 s outage with ``ttl`` 20 s."""


@pytest.fixture
def own_cluster():
    """A PostgreSQL cluster of this test's own, to stop and start."""
    try:
        with pg_server.pg_cluster.cluster(password=pg_server.PASSWORD, prefix="momiji-pg-") as running:
            yield running
    except pg_server.PostgresMissing as exc:
        pytest.skip(f"database tests skipped: {exc}")


async def test_postgresql_stopped_and_started_under_two_processes_gives_no_seat_away(own_cluster, tmp_path):
    """The real thing: ``pg_ctl stop -m fast`` while alice (A) and bob (B)
    play one table, then ``pg_ctl start``. The move tried meanwhile is
    refused in words and lands after; no seat changes hands; the server's
    log has no deadlock."""
    clock = Clock()
    made = []
    for name, timers in (("a", Timers()), ("b", Timers())):
        lobby = DatabaseLobby(tmp_path / name, games=DatabaseGames.open(own_cluster.url), deal_seed=lambda: 4242,
                              beat_pause=no_beat, bot_delay=0, seat_wait=60, call_later=timers, clock=clock)
        await lobby.start_following()
        made.append(lobby)

    async def make(name: str, **options):
        return made[0] if name == "a" else made[1]

    a, b = made
    try:
        _, _, alice, bob = await seated_pair(make)
        ta, tb = alice.seated().table, bob.seated().table
        seats_before = seat_events(ta)
        mover = ta if ta.current == 0 else tb
        command = mover.legal(mover.current)[0]
        own_cluster.stop("fast")
        with pytest.raises(WriteFailed):
            mover.submit(command)
        for process in (a, b):
            await process._beat_in_thread()
        outage = float(os.environ.get(OUTAGE_ENV, "0"))
        await asyncio.sleep(outage)
        clock.now += max(outage, 30)
        own_cluster.start()
        if outage < a.ttl:  # as if stopped for 30 s: every heartbeat has run out
            with psycopg.connect(own_cluster.url, autocommit=True) as admin:
                admin.execute("UPDATE lobby_processes SET expires = now() - interval '10 seconds'")
        await b._beat_in_thread()
        assert any(m.account_id == "key-a" for m in b.rows.members)
        mover.submit(command)  # the store connects again; the refused move lands
        await a._beat_in_thread()
        clock.now += a.ttl
        for process in (b, a, b):
            await process._beat_in_thread()
        await wait_until(lambda: ta.events == tb.events, describe=lambda: "the replica did not catch up")
        assert seat_events(ta) == seat_events(tb) == seats_before
        assert {m.account_id for m in b.rows.members} == {"key-a", "key-b"}
    finally:
        for lobby in made:
            await lobby.stop_following()
            lobby.close()
    assert "deadlock" not in own_cluster.log()


async def test_heartbeats_and_departures_take_the_presence_rows_in_one_order(lobbies, pg_url):
    """Two sweeps deleting each other's process rows once deadlocked: every
    heartbeat first takes one advisory lock, so a heartbeat waits for another
    one in flight (here: the lock held by the test) instead of crossing it."""
    a = await lobbies("a")
    # The test never yields to the event loop while the heartbeat waits: the
    # lobby's own refresh (a database call on the loop) would wait for the
    # heartbeat's call, and the test's release of the lock behind it.
    with psycopg.connect(pg_url) as holder, ThreadPoolExecutor(1) as pool:
        holder.execute("SELECT pg_advisory_xact_lock(%s)", (PRESENCE_LOCK,))
        beat = pool.submit(a._beat_once)

        def waiting() -> bool:
            row = holder.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
                                 ).fetchone()
            return row is not None and row[0] == 1

        for _ in range(2000):  # up to ~20 s on a busy machine
            if waiting():
                break
            time.sleep(0.01)
        else:
            pytest.fail("the heartbeat did not wait for the presence lock")
        assert not beat.done()
        holder.commit()  # the lock is released with the transaction
        beat.result(timeout=30)
