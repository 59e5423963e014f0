"""The lobby shared by every server process on one database (``momiji
serve --database``; the design, who writes what: docs/SERVER.md).

A :class:`DatabaseLobby` is the file store's :class:`~.lobby.Lobby` with its
waiting tables, seats and who is online kept in the database's lobby tables
(``store/database/lobby_rows.py``): the same rules (:class:`~.lobby.Lobby`
decides what is allowed and what players are told), with the database
deciding what two processes could both do at once. Each process writes its
own members' rows, the tables they open and the seats they take (one UPDATE
that only an open seat matches); the process whose player takes the last seat
starts the game; every other process seated there opens its own replica
(:class:`~.replica.ReplicaTable`) that follows the game with
``Listener.watch(game_id, after=position)``. Every write NOTIFYs; a wake-up
(and every heartbeat and reconnection) is followed by a full read of the
lobby (:meth:`DatabaseLobby.refresh`).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import secrets
import socket
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

import psycopg

from ..engine import events as ev
from ..store.database import Listener
from ..store.database.lobby_rows import (
    LOBBY_WAKE, AlreadySeated, Connection, LobbyRows, MemberRow, SeatRow, TableRow, add_table, forget_process,
    free_seat, heartbeat, next_table_number, read_lobby, remove_member, remove_table, set_member, set_started,
    take_seat,
)
from .database_games import DatabaseGames
from .lobby import Lobby
from .lobby_mirror import (
    IN_PLAY, Mirror, RemoteMember, gone_elsewhere, remote_players, seat_elsewhere, started_tables,
    sync_seats,
)
from .spectators import WATCHING, Watch, WatchInfo
from .shared_table import (
    ALREADY_AT_TABLE, ALREADY_SEATED, IN_LOBBY, TABLE_FULL, TABLE_GONE, Dissolved, LobbyError, LobbySnapshot,
    Member, PendingTable, Player, Seated,
)
from .names import unique_label, unique_name
from .replica import ReplicaTable
from .shared_table import LiveTable, SharedTable
from .table import HUMAN

log = logging.getLogger("momiji_tui.lobby")
T = TypeVar("T")

DATABASE_FAILED = "The lobby's database failed ({reason}); try again in a moment."
"""A lobby request the database could not do (nothing changed)."""


class DatabaseLobby(Lobby):
    """The lobby of one process among several on ``games``' database. Call
    :meth:`start_following` on the event loop before players come, and
    :meth:`stop_following` before :meth:`close`. ``heartbeat``: seconds
    between heartbeats (and full reads); ``ttl``: seconds after its last
    heartbeat that a process counts as dead; ``beat_pause``: how the
    heartbeat waits (tests inject one); ``clock``: monotonic seconds (tests
    inject one). Other options: :class:`Lobby`'s.

    Presence survives the database going away: a process judges others
    dead (sweeps expired processes, whose seats are then left) only after
    it has reached the database without a failure for ``ttl`` seconds, so
    after an outage every live process has had a full ``ttl`` to beat again
    before anyone is swept. A seat changes hands only when its player's own
    process stopped beating while the database was there to hear it."""

    def __init__(self, data_dir: str | os.PathLike[str], *, games: DatabaseGames, heartbeat: float = 5.0,
                 ttl: float = 20.0, beat_pause: Callable[[float], Awaitable[None]] = asyncio.sleep,
                 clock: Callable[[], float] = time.monotonic, **options: Any) -> None:
        super().__init__(data_dir, games=games, **options)
        games.shared_kind = ReplicaTable
        self.db = games
        self.process = secrets.token_hex(8)
        self.heartbeat_every, self.ttl, self.beat_pause = heartbeat, ttl, beat_pause
        self.listener = Listener(games.url, wake=self._wake)
        self.rows = LobbyRows((), ())
        self.mirror = Mirror(self.process)
        self.tokens: dict[Member, str] = {}
        self._numbers = itertools.count(1)
        self._tasks: list[asyncio.Task[None]] = []
        self._refresh_due = False
        self._last_added: LiveTable | None = None
        self._handed_over: set[str] = set()  # started tables whose players this process seated
        self.database_calls = 0  # and a heartbeat in a thread: _beat_in_thread
        self.beat_call: asyncio.Future[tuple[LobbyRows, int]] | None = None
        self.clock = clock
        self.reached_since: float | None = None  # since when every database call succeeded

    # ------------------------------------------------------------ following
    async def start_following(self) -> None:
        """Register this process, read the lobby, and start listening. Raises
        ``LobbyError`` if the database fails."""
        self._beat_once()
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self.listener.run(), name="lobby listener"),
                       loop.create_task(self._follow(), name="lobby follower"),
                       loop.create_task(self._beat(), name="lobby heartbeat")]
        self.refresh()

    async def stop_following(self) -> None:
        """Stop listening; this process's members and waiting tables leave
        the database at once. Does nothing once the lobby is closed."""
        if self._closed:
            return
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self._finish_beat()  # a heartbeat in flight, before this process leaves the database
        self._tasks = []
        try:
            self._run(lambda conn: forget_process(conn, self.process))
        except LobbyError as exc:
            log.error("cannot leave the shared lobby: %s", exc)

    def _run(self, query: Callable[[Connection], Coroutine[Any, Any, T]]) -> T:
        self.database_calls += 1
        try:
            return self.db.store.run(query)
        except (psycopg.Error, OSError) as exc:
            self.reached_since = None  # not reached: judge no other process absent for a while
            log.error("the lobby's database failed: %s", exc)
            raise LobbyError(DATABASE_FAILED.format(reason=str(exc).splitlines()[0] if str(exc) else
                                                    type(exc).__name__)) from None

    def may_sweep(self) -> bool:
        """Whether this process may judge others dead now: it has reached the
        database without a failure for at least ``ttl`` seconds."""
        since = self.reached_since
        return since is not None and self.clock() - since >= self.ttl

    def _read(self) -> LobbyRows:
        """The whole lobby; members of expired processes count as online
        until this process may judge them (:meth:`may_sweep`)."""
        judge = self.may_sweep()
        return self._run(lambda conn: read_lobby(conn, judge=judge))

    def _beat_once(self) -> None:
        """One heartbeat (and, if :meth:`may_sweep`, the sweep of expired
        processes). Raises ``LobbyError`` if the database fails."""
        sweep, now = self.may_sweep(), self.clock()
        self._run(lambda conn: heartbeat(conn, self.process, socket.gethostname(), os.getpid(), self.ttl,
                                         sweep=sweep))
        if self.reached_since is None:
            self.reached_since = now

    async def _beat(self) -> None:
        while True:  # a catch-up read even if a wake-up was missed; the database's part off the loop
            await self.beat_pause(self.heartbeat_every)
            await self._beat_in_thread()

    def _beat_and_read(self) -> tuple[LobbyRows, int]:
        """In a thread: the heartbeat, then a read of the whole lobby; the rows
        and how many database calls the lobby made before the read. Raises
        ``LobbyError`` if the database fails."""
        self._beat_once()
        calls = self.database_calls
        return self._read(), calls

    async def _beat_in_thread(self) -> None:
        """One heartbeat and catch-up, the database's part in a thread (the
        store's calls are serialised and may come from any thread), so the
        players' event loop never waits for the database. The rows read are
        applied only if the lobby made no other database call meanwhile (a
        table created or a seat taken on the loop after the read began would
        look gone in them): then it reads again, on the loop. A beat cancelled
        while its thread still talks to the database (the lobby stopping)
        finishes first: :meth:`_finish_beat` waits for it."""
        call = self.beat_call = asyncio.ensure_future(asyncio.to_thread(self._beat_and_read))
        try:
            rows, calls = await asyncio.shield(call)
        except LobbyError:
            return
        self.refresh(rows if self.database_calls == calls + 1 else None)

    async def _finish_beat(self) -> None:
        """Wait until a beat's database calls in a thread are over (they may
        have been cancelled on the loop); their errors are already logged."""
        if self.beat_call is not None:
            await asyncio.gather(self.beat_call, return_exceptions=True)
            self.beat_call = None

    def _wake(self, payload: str) -> None:
        if payload in ("", LOBBY_WAKE) and not self._refresh_due:
            self._refresh_due = True
            asyncio.get_running_loop().call_soon(self.refresh)

    async def _follow(self) -> None:
        """Apply the events of followed games, in order, as the listener delivers them."""
        while True:
            batch = [await self.listener.get(), *self.listener.get_ready()]
            games: dict[str, list[tuple[int, dict[str, Any]]]] = {}
            for item in batch:
                if item.event is None:
                    log.error("game %s: %s", item.game_id, item.problem)
                    continue
                games.setdefault(item.game_id, []).append((item.position, item.event))
            for game_id, rows in games.items():
                live = self.live.get(game_id)
                if live is not None and isinstance(live.table, ReplicaTable):
                    try:
                        live.table.absorb(rows)
                    except Exception as exc:  # a damaged game must not stop following the others
                        log.exception("game %s: an event from the database is refused: %s", game_id, exc)

    # --------------------------------------------------------------- reading
    def refresh(self, rows: LobbyRows | None = None) -> None:
        """Read the whole lobby again (or take ``rows`` just read) and bring this
        process up to it: tables gone tell their waiting players, started ones seat them."""
        self._refresh_due = False
        if self._closed:
            return
        try:
            rows = self._read() if rows is None else rows
        except LobbyError:
            return
        old, previous, self.rows = self.pending, self.rows, rows
        self.look_up_ratings(m.account_id for m in rows.members)  # the players of the other processes
        self.mirror.forget(rows)
        pending: dict[str, PendingTable] = {}
        for row in rows.tables:
            if row.game_id is None and (mirrored := self.mirror.pending(row)) is not None:
                pending[row.table_id] = mirrored
        started = {row.table_id: row for row in rows.tables if row.game_id is not None}
        self._handed_over &= set(started)
        self.pending = pending
        for table_id, before in old.items():
            if table_id in pending or table_id in started:
                continue
            reason = f"{before.seats[0].name} closed table {table_id}."
            for seat in before.seats:
                if seat.member is not None and seat.member in self.members and seat.member is not before.creator:
                    self._set_activity_quiet(seat.member, IN_LOBBY)
                    seat.member.lobby_event(Dissolved(table_id, reason))
        for row in started.values():
            self._seat_started(row)
        for live in list(self.live.values()):  # seats of a process that died: its players left
            if gone := gone_elsewhere(live, rows):
                self._record(live, gone)
        if rows != previous:  # a heartbeat's read that finds nothing new redraws no screen
            self._changed()

    def _seat_started(self, row: TableRow) -> None:
        """Seat this process's players at a game another process started
        (once: a player who then leaves the table is not seated again)."""
        assert row.game_id is not None
        if row.table_id in self._handed_over:
            return
        self._handed_over.add(row.table_id)
        mine: list[tuple[int, Member]] = []
        for s in row.seats:
            member = self.mirror.local.get(s.member or "") if s.process == self.process else None
            if member is not None and member in self.members:
                mine.append((s.seat, member))
        live = self.live.get(row.game_id)
        if not mine or (live is not None and all(live.seats[i].member is m for i, m in mine)):
            return
        try:
            live = live or self._load_live(row.game_id)
        except LobbyError as exc:
            log.error("cannot open started game %s: %s", row.game_id, exc)
            return
        for i, member in mine:
            if live.seats[i].member is None:
                live.seats[i].member, live.seats[i].elsewhere = member, False
                self._set_activity_quiet(member, f"playing at {row.game_id}")
                member.lobby_event(Seated(live.table, i))
        self._drive(live)

    def snapshot(self) -> LobbySnapshot:
        """Who is playing, in every process: this one's view plus the others'
        members; the tables from the lobby's rows, so that every process
        lists them the same (:func:`started_tables`)."""
        mine = super().snapshot()
        players = tuple(sorted(mine.players + tuple(remote_players(self.rows, self.process, self.rating_tag))))
        waiting = tuple(info for info in mine.tables if info.state == "waiting")
        activities = [(m.account_id, m.activity) for m in self.rows.members if m.process != self.process]
        activities += [(m.player.account_id, activity) for m, activity in self.members.items()]  # fresher
        return LobbySnapshot(players, waiting + tuple(started_tables(self.rows, activities)))

    # --------------------------------------------------------------- members
    def enter(self, member: Member) -> None:
        """See :meth:`Lobby.enter`; the member is also online for the other processes."""
        token = f"m{next(self._numbers)}"
        self.tokens[member], self.mirror.local[token] = token, member
        super().enter(member)
        others = [(m.account_id, m.label) for m in self.rows.members if m.process != self.process]
        others += [(m.player.account_id, label) for m, label in self.labels.items() if m is not member]
        self.labels[member] = unique_label(member.player, others)
        self._publish(member)

    def exit(self, member: Member) -> None:
        """See :meth:`Lobby.exit`."""
        super().exit(member)
        token = self.tokens.pop(member, None)
        if token is not None:
            self.mirror.local.pop(token, None)
            try:
                self._run(lambda conn: remove_member(conn, self.process, token))
            except LobbyError:
                pass  # the heartbeat's sweep removes it with the process, at worst

    def _set_activity_quiet(self, member: Member, activity: str) -> None:
        changed = member in self.members and self.members[member] != activity
        super()._set_activity_quiet(member, activity)
        if changed:
            self._publish(member)

    def set_activity(self, member: Member, activity: str) -> None:
        """See :meth:`Lobby.set_activity`."""
        changed = member in self.members and self.members[member] != activity
        super().set_activity(member, activity)
        if changed:
            self._publish(member)

    def _publish(self, member: Member) -> None:
        token = self.tokens.get(member)
        if token is None or member not in self.members:
            return
        row = MemberRow(self.process, token, member.player.account_id, self.label(member), self.members[member])
        try:
            self._run(lambda conn: set_member(conn, row))
        except LobbyError:
            pass  # shown again at the next change; the game goes on

    # -------------------------------------------------------- waiting tables
    def create_table(self, member: Member, others: list[str], *, bot_level: str = "normal",
                     landscape_mode: str = "starter", hints_allowed: bool = False) -> PendingTable:
        """See :meth:`Lobby.create_table`; the table is open in every process.
        Raises :class:`LobbyError` (also when the database fails: nothing opened)."""
        self._check_open()
        self._counter = self._run(next_table_number) - 1  # table ids unique across processes
        pending = super().create_table(member, others, bot_level=bot_level, landscape_mode=landscape_mode,
                                       hints_allowed=hints_allowed)
        token = self.tokens.get(member, "")
        seats = tuple(SeatRow(i, s.kind, s.name, s.member.player.account_id if s.member else None,
                              self.process if s.member else None, token if s.member else None)
                      for i, s in enumerate(pending.seats))
        row = TableRow(pending.table_id, self.process, token, bot_level, landscape_mode, hints_allowed, None, seats)
        try:
            self._run(lambda conn: add_table(conn, row))
        except LobbyError:
            super().leave_pending(member)
            raise
        return pending

    def join_table(self, member: Member, table_id: str) -> PendingTable:
        """See :meth:`Lobby.join_table`: the seat is taken in the database
        first, so of two players in two processes exactly one gets it; the
        one whose join fills the table starts the game here."""
        self._check_open()
        self.refresh()
        pending = self.pending.get(table_id)
        if pending is None:
            raise LobbyError(TABLE_GONE)
        if any(s.member is member for s in pending.seats):
            return pending
        self.leave_pending(member, notify=False)
        name = unique_name(self.label(member), {s.name for s in pending.seats if s.name})
        claim = SeatRow(0, HUMAN, name, member.player.account_id, self.process, self.tokens.get(member))
        try:
            seat = self._run(lambda conn: take_seat(conn, table_id, claim))
        except AlreadySeated:
            raise LobbyError(ALREADY_SEATED) from None
        self.refresh()
        if seat is None:
            raise LobbyError(TABLE_FULL if table_id in self.pending else TABLE_GONE)
        pending = self.pending.get(table_id) or pending
        pending.seats[seat].member, pending.seats[seat].name = member, name  # as saved, even if the read lags
        self._set_activity_quiet(member, f"waiting at table {table_id}")
        if pending.open_seats == 0:
            self._start_here(pending)
        self._changed()
        return pending

    def _start_here(self, pending: PendingTable) -> None:
        self._last_added = None
        self._start(pending)  # the file lobby's start: the game, its seat events, this process's players
        live = self._last_added
        if live is None:  # it could not start: the others are told the table is gone
            self._run_quietly(lambda conn: remove_table(conn, pending.table_id))
            return
        self._handed_over.add(pending.table_id)
        for seat in live.seats:
            if isinstance(seat.member, RemoteMember):
                seat.member = None
        self._sync_seats(live)
        game_id = live.game_id
        self._run_quietly(lambda conn: set_started(conn, pending.table_id, game_id))

    def _run_quietly(self, query: Callable[[Connection], Coroutine[Any, Any, None]]) -> None:
        try:
            self._run(query)
        except LobbyError:
            pass

    def leave_pending(self, member: Member, *, notify: bool = True) -> None:
        """See :meth:`Lobby.leave_pending`; the seat (or the creator's table) is freed in the database."""
        pending = self.pending_of(member)
        if pending is not None:
            table_id, token = pending.table_id, self.tokens.get(member, "")
            if pending.creator is member:
                self._run_quietly(lambda conn: remove_table(conn, table_id))
            else:
                self._run_quietly(lambda conn: free_seat(conn, table_id, self.process, token))
        super().leave_pending(member, notify=notify)

    # ---------------------------------------------------------- shared games
    def _add_live(self, live: LiveTable) -> LiveTable:
        added = super()._add_live(live)
        self._last_added = added
        self._sync_seats(added)
        if isinstance(added.table, ReplicaTable):
            self.listener.watch(added.game_id, after=added.table.position)
        return added

    def _drop(self, live: LiveTable) -> None:
        if self._closed or not self._kept_for_watchers(live):
            self.listener.unwatch(live.game_id)
        super()._drop(live)

    def _drive(self, live: LiveTable) -> None:
        """See :meth:`LiveGames._drive`; never in a process that follows the
        game only for its watchers (the players' processes run its bots)."""
        if live.present():
            super()._drive(live)

    # ------------------------------------------------------------ spectators
    def watchable(self) -> list[WatchInfo]:
        """See :meth:`Lobby.watchable`; also the games in play in other
        processes (from the lobby's rows)."""
        out = super().watchable()
        if self.spectators.enabled:
            here = {info.game_id for info in out}
            out += [WatchInfo(row.game_id, tuple(s.name for s in row.seats), "shared", IN_PLAY,
                              len(self.watchers_of(row.game_id)))
                    for row in self.rows.tables if row.game_id is not None and row.game_id not in here]
        return out

    def watch(self, member: Member, game_id: str) -> Watch:
        """See :meth:`Lobby.watch`; a game in play in another process is
        followed here (a replica) for as long as someone here watches it."""
        self._check_open()
        loaded = None
        if (self.spectators.enabled and game_id not in self.live
                and any(row.game_id == game_id for row in self.rows.tables)):
            loaded = self._load_live(game_id)
        try:
            return super().watch(member, game_id)
        except LobbyError:
            if loaded is not None and not loaded.present():
                self._drop(loaded)
            raise

    def watchers_of(self, game_id: str) -> tuple[str, ...]:
        """See :meth:`Lobby.watchers_of`; with those of other processes (their
        lobby rows' activity)."""
        activity = WATCHING.format(game_id=game_id)
        return super().watchers_of(game_id) + tuple(
            m.label for m in self.rows.members if m.process != self.process and m.activity == activity)

    def _kept_for_watchers(self, live: LiveTable) -> bool:
        """A game someone here watches stays followed while it is unfinished
        and its row says it is in play (its players are in other processes)."""
        return (bool(self.spectators.watchers(live.game_id)) and not live.table.finished
                and any(row.game_id == live.game_id for row in self.rows.tables))

    def _on_events(self, live: LiveTable, events: list[ev.Event]) -> None:
        if any(isinstance(e, ev.SeatControlChanged) for e in events) and self.live.get(live.game_id) is live:
            self._sync_seats(live)
            for i in range(len(live.seats)):
                self._arm(live, i)
            self._changed()
        super()._on_events(live, events)

    def _sync_seats(self, live: LiveTable) -> None:
        sync_seats(live, self.takeover_level)

    def absent_seat(self, player: Player) -> str | None:
        """See :meth:`Lobby.absent_seat`; else a game not followed here (:func:`seat_elsewhere`)."""
        return super().absent_seat(player) or seat_elsewhere(self.rows, player.account_id, self.live)

    def return_to(self, member: Member, game_id: str) -> tuple[SharedTable, int]:
        """See :meth:`LiveGames.return_to`; refused while the same identity
        plays that game in another process that is alive."""
        account = member.player.account_id
        playing = f"playing at {game_id}"
        if any(m.account_id == account and m.process != self.process and m.activity == playing
               for m in self.rows.members):
            raise LobbyError(ALREADY_AT_TABLE)
        return super().return_to(member, game_id)
