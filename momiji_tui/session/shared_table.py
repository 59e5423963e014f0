"""A shared table in play and what the lobby deals in (ARCHITECTURE "Sessions").

The lobby's vocabulary: players, the events it sends to front ends
(:class:`Member`), waiting tables and what "who is playing" lists; plain data
that the :class:`~momiji_tui.session.lobby.Lobby` acts on. Then the table in
play: its seats, who controls them (as
events in its log, :mod:`.seat_log`), takeovers after a wait, and the one
task that runs its bots.

A shared game's bots are run here, in one asyncio task per table on the
server's event loop (each decision thought in a thread, or on the bot pool
of ``ssh/bot_pool.py`` through ``make_bot``): the front ends seated at it
only render, so no two of them ever race to move the same bot. Solo games
keep their app's own bot driving (``Table.bots_run_by_front_end``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from .. import engine
from ..engine import events as ev
from ..engine.errors import IllegalCommand
from ..store import WriteFailed
from . import seat_log
from .table import ACCOUNT_ID_RE, BOT, HUMAN, SeatConfig, Table

# -- what the lobby deals in -----------------------------------------------------------
IN_LOBBY = "in the lobby"
TABLE_GONE = "That table is gone."
TABLE_FULL = "That table is full."
ALREADY_SEATED = "You already have a seat at that table (in another session)."
ALREADY_AT_TABLE = "You are already at that table in another session."


class LobbyError(Exception):
    """A lobby request that cannot be done; the message is for the player."""


@dataclass(frozen=True)
class Player:
    """Who a member is. ``account_id`` is opaque and filesystem-safe (for a
    key: a hash of its fingerprint; for a guest: new on every login);
    ``name`` is a display name only; ``key_hint`` a short fingerprint to show;
    ``bound``: the server's store gave ``name`` to this player's key (it
    shows bare: nobody else can show it, ``session/bound_names.py``)."""

    account_id: str
    name: str
    is_guest: bool = False
    key_hint: str = ""
    bound: bool = False

    def __post_init__(self) -> None:
        if not ACCOUNT_ID_RE.fullmatch(self.account_id):
            raise ValueError(f"not an account id: {self.account_id!r}")


# -- events sent to members --------------------------------------------------------
@dataclass(frozen=True)
class LobbyChanged:
    """Something in the lobby changed (players, tables): redraw lists."""


@dataclass(frozen=True)
class Seated:
    """Your table started (or you are back): open ``table`` in ``seat``."""

    table: SharedTable
    seat: int


@dataclass(frozen=True)
class Dissolved:
    """The table you waited at was closed before it started."""

    table_id: str
    reason: str


@dataclass(frozen=True)
class SeatNews:
    """A seat at your table changed hands (left, bot took over, came back),
    or someone started or stopped watching it (a solo game's too). Front
    ends show ``text`` and check whether a bot must move now."""

    table: Table
    text: str


@dataclass(frozen=True)
class WatchEnded:
    """The game you watched can no longer be watched (everyone left it, or
    its player closed a solo game): leave the watch, say ``reason``."""

    game_id: str
    reason: str


LobbyEvent = LobbyChanged | Seated | Dissolved | SeatNews | WatchEnded


class Member(Protocol):
    """A front end in the lobby (one per SSH session)."""

    player: Player

    def lobby_event(self, event: LobbyEvent) -> None:
        """Queue ``event`` for the front end; must not act on it right away."""


@dataclass
class PendingSeat:
    """A seat of a table that waits for players: a bot, or a human seat that
    is open (``member`` None) or taken."""

    kind: str
    name: str = ""
    member: Member | None = None


@dataclass
class PendingTable:
    """A table being gathered; the game starts when every human seat is taken."""

    table_id: str
    creator: Member
    seats: list[PendingSeat]
    bot_level: str
    landscape_mode: str
    hints_allowed: bool = False  # the hint key works at the table: joining is agreeing

    @property
    def open_seats(self) -> int:
        return sum(1 for s in self.seats if s.kind == HUMAN and s.member is None)


# -- what the lobby shows ------------------------------------------------------------
@dataclass(frozen=True)
class TableInfo:
    """One table as the lobby lists it. ``seats`` are (name, status) with
    status "here", "away", "bot", "bot for" (a bot plays for an absent human)
    or "open"; ``state`` is "waiting" or "playing" or "finished"."""

    table_id: str
    state: str
    seats: tuple[tuple[str, str], ...]
    detail: str = ""
    open_seats: int = 0


@dataclass(frozen=True)
class MyTable:
    """A shared game where a player owns a seat (for "resume my games")."""

    game_id: str
    seat: int
    names: tuple[str, ...]
    live: bool
    here: bool  # already open in one of this player's sessions


@dataclass(frozen=True)
class LobbySnapshot:
    """Who is playing: members (name, activity) and tables."""

    players: tuple[tuple[str, str], ...]
    tables: tuple[TableInfo, ...]


# -- the table in play -----------------------------------------------------------------
log = logging.getLogger("momiji_tui.lobby")

BOT_SAVE_RETRY = 5.0
"""Seconds before a bot's move that could not be saved is tried again."""

Think = Callable[[Table, int], Awaitable[engine.Command]]
Pause = Callable[[float], Awaitable[None]]


class Timer(Protocol):
    """What ``call_later`` returns (an ``asyncio.TimerHandle``)."""

    def cancel(self) -> None:
        """Do not call the callback."""


CallLater = Callable[..., Timer]


class MovedOn(WriteFailed):
    """A move another writer saved first (the database's ``Conflict``, issue
    15): nothing was saved. At a shared table followed from the database
    (``replica.ReplicaTable``) the table has caught up when this is raised."""


class SharedTable(Table):
    """A :class:`Table` several front ends share.

    A front end calls ``close()`` when it leaves the table; at a shared table
    that must not close the log the others still write, so ``close()`` does
    nothing here and the lobby calls :meth:`close_log` once nobody is seated.
    Its bots are run by the lobby, never by a front end.
    """

    bots_run_by_front_end = False
    commits_seed = True  # its header carries the deal's commitment (deal_seed.py)
    hints_allowed = False  # unless every player agreed when the table was created (the lobby sets it)

    def close(self) -> None:
        """Leaving is not closing: see the class docstring."""

    def close_log(self) -> None:
        """Close the save file (the game stays resumable)."""
        super().close()


@dataclass
class LiveSeat:
    """A seat of a game at a shared table."""

    name: str
    account_id: str | None  # None: a bot from the start
    member: Member | None = None
    taken: bool = False  # a bot plays for the absent human
    elsewhere: bool = False  # seated in another server process (the shared lobby, database_lobby.py)
    timer: Timer | None = None

    @property
    def human(self) -> bool:
        return self.account_id is not None


@dataclass
class LiveTable:
    """A shared game in play, its seats and its bot task."""

    table: SharedTable
    seats: list[LiveSeat]
    round: int = 0
    unsubscribe: Callable[[], None] | None = None
    finished_seen: bool = False
    bot_task: asyncio.Task[None] | None = field(default=None, repr=False)

    @property
    def game_id(self) -> str:
        return self.table.game_id

    def present(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.member is not None]


def live_from_log(table: SharedTable, takeover_level: str) -> LiveTable:
    """The seats of a shared game loaded from disk, as its log's seat events
    say (owners, bots playing for them). Raises :class:`LobbyError` if the
    log names no owner at all (nobody could come back to it)."""
    control = table.state.seat_control or (None,) * len(table.seats)
    seats = []
    for config, last in zip(table.seats, control, strict=True):
        owner = last.player if last is not None and config.kind == HUMAN else None
        seats.append(LiveSeat(config.name, owner, taken=last is not None and last.control == seat_log.BOT_CONTROL))
    if not any(s.human for s in seats):
        raise LobbyError("That game's log does not say whose seats they are.")
    for i, seat in enumerate(seats):
        if seat.taken:
            table.seats[i] = SeatConfig(seat.name, BOT, takeover_level)
    return LiveTable(table, seats, round=table.state.round)


async def think_in_thread(table: Table, seat: int, make_bot: Callable[..., object] | None) -> engine.Command:
    """Ask the bot of ``seat`` in a thread of the loop's executor (the loop
    keeps running; with the bot pool's ``make_bot`` the thread only waits)."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(None, table.bot_command, seat, make_bot)


async def run_bots(table: Table, think: Think, pause: Pause, delay: float,
                   news: Callable[[str], None]) -> None:
    """Play every bot seat of ``table`` while one is to move, then return:
    the only runner of this table's bots. Each decision is thought once
    (``think``), shown ``delay`` seconds later, and dropped if the game moved
    on meanwhile (e.g. the seat's owner came back). A move the disk refuses
    is tried again after ``BOT_SAVE_RETRY`` seconds; a bot that fails or
    plays an illegal move stops here (``news`` tells the players)."""
    while (seat := table.bot_to_move()) is not None:
        step = len(table.events)
        name = table.seats[seat].name
        try:
            command = await think(table, seat)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a bot bug must not take the server down
            log.error("game %s: the bot of seat %d failed: %r", table.game_id, seat, exc)
            news(f"The bot playing {name} failed ({exc}); the game waits.")
            return
        if delay > 0:
            await pause(delay)
        if len(table.events) != step or table.bot_to_move() != seat:
            continue  # the game moved on while it thought
        try:
            table.submit(command)
        except MovedOn:
            continue  # another process played this bot turn first: the table has its move
        except IllegalCommand as exc:
            log.error("game %s: the bot of seat %d tried an illegal move: %s", table.game_id, seat, exc)
            news(f"A bot tried an illegal move: {exc}")
            return
        except WriteFailed as exc:
            news(f"Not saved: {exc.reason}. {name}'s move was not made; "
                 f"trying again in {BOT_SAVE_RETRY:g} s.")
            await pause(BOT_SAVE_RETRY)


class LiveGames:
    """The shared games in play: the half of the :class:`~.lobby.Lobby` that
    seats players, lets a bot play for one who left, and runs the bots.
    Everything runs on the server's event loop."""

    live: dict[str, LiveTable]
    seat_wait: float | None
    takeover_level: str
    bot_delay: float
    think: Think
    pause: Pause
    call_later: CallLater | None
    _index: dict[str, set[str]] | None
    _closed: bool

    def _changed(self) -> None:
        raise NotImplementedError

    def _set_activity_quiet(self, member: Member, activity: str) -> None:
        raise NotImplementedError

    def _open_shared(self, game_id: str) -> SharedTable:
        raise NotImplementedError

    def _migrate(self) -> None:
        raise NotImplementedError

    def _rate(self, live: LiveTable) -> None:
        """The game of ``live`` just finished: update its players' ratings."""

    async def start_following(self) -> None:
        """Start following other processes (the database lobby); on files, nothing to follow."""

    async def stop_following(self) -> None:
        """Stop following other processes (before :meth:`close`)."""

    # -------------------------------------------------------------- seat events
    def _record(self, live: LiveTable, events: Sequence[ev.SeatControlChanged]) -> None:
        """Append seat events to the game's log; a disk that refuses is logged
        (the game goes on; the log then lacks that change of hands)."""
        if live.table.finished:
            return
        try:
            live.table.record(events)
        except (OSError, ValueError) as exc:
            log.error("game %s: cannot save a change of seats: %s", live.game_id, exc)

    def _add_live(self, live: LiveTable) -> LiveTable:
        live.unsubscribe = live.table.subscribe(lambda events: self._on_events(live, events))
        self.live[live.game_id] = live
        return live

    def _on_events(self, live: LiveTable, events: list[ev.Event]) -> None:
        if self.live.get(live.game_id) is not live:
            return
        if live.table.finished:
            if live.finished_seen:
                return
            live.finished_seen = True
            logging.getLogger("momiji").info("table ended: game %s, finished", live.game_id)
            self._rate(live)
            for seat in live.seats:
                self._cancel_timer(seat)
                if seat.account_id is not None and self._index is not None:
                    self._index.get(seat.account_id, set()).discard(live.game_id)
            self._changed()
            return
        if live.table.state.round != live.round:
            live.round = live.table.state.round
            self._changed()
        self._drive(live)

    # -------------------------------------------------------------- the bots
    def _drive(self, live: LiveTable) -> None:
        """Start the table's bot task if a bot must move and none runs (there
        is at most one per table; without a running loop, none)."""
        if self._closed or self.live.get(live.game_id) is not live or live.table.bot_to_move() is None:
            return
        if live.bot_task is not None and not live.bot_task.done():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        live.bot_task = loop.create_task(
            run_bots(live.table, self.think, self.pause, self.bot_delay, lambda text: self._news(live, text)),
            name=f"bots of {live.game_id}")

    # ---------------------------------------------------------- seats and wait
    def return_to(self, member: Member, game_id: str) -> tuple[SharedTable, int]:
        """Sit back down at a shared game where ``member``'s identity owns a
        seat (loading it from disk if nobody is playing it now). If a bot was
        playing that seat, the player takes it back. Raises :class:`LobbyError`."""
        if self._closed:
            raise LobbyError("The server is shutting down.")
        live = self.live.get(game_id) or self._load_live(game_id)
        account = member.player.account_id
        seat_no = next((i for i, s in enumerate(live.seats) if s.account_id == account), None)
        seat = live.seats[seat_no] if seat_no is not None else None
        if seat is None or (seat.member is not None and seat.member is not member):
            if not live.present():
                self._drop(live)
            if seat is None:
                raise LobbyError("You have no seat at that table.")
            raise LobbyError(ALREADY_AT_TABLE)
        assert seat_no is not None
        self.leave_pending(member, notify=False)
        seat.member = member
        self._cancel_timer(seat)
        was_taken, seat.taken = seat.taken, False
        if was_taken:
            live.table.seats[seat_no] = SeatConfig(seat.name, HUMAN)
        self._record(live, [seat_log.back(seat_no, account)])
        if was_taken:
            self._news(live, f"{seat.name} is back; the bot leaves their seat.", skip=member)
        else:
            self._news(live, f"{seat.name} is back at the table.", skip=member)
        for i in range(len(live.seats)):
            self._arm(live, i)
        self._set_activity_quiet(member, f"playing at {game_id}")
        self._changed()
        return live.table, seat_no

    def leave_pending(self, member: Member, *, notify: bool = True) -> None:
        raise NotImplementedError

    def leave_table(self, member: Member, table: Table) -> None:
        """``member`` left a shared game (back to the lobby, or disconnected).
        The seat stays theirs; after ``seat_wait`` seconds, if others are
        still playing, a bot plays it until they come back."""
        live = self.live.get(table.game_id)
        if live is None or live.table is not table:
            return
        seat_no = next((i for i, s in enumerate(live.seats) if s.member is member), None)
        if seat_no is None:
            return
        seat = live.seats[seat_no]
        seat.member = None
        self._set_activity_quiet(member, IN_LOBBY)
        self._record(live, [seat_log.left(seat_no, seat.account_id)])
        if not live.present():
            self._drop(live)
        elif not live.table.finished:
            if self.seat_wait is not None and not seat.taken:
                self._news(live, f"{seat.name} left the table. If they are not back in "
                           f"{self.seat_wait:.0f} s, a bot plays for them.")
            else:
                self._news(live, f"{seat.name} left the table.")
            self._arm(live, seat_no)
        self._changed()

    def _arm(self, live: LiveTable, i: int) -> None:
        seat = live.seats[i]
        if (self.seat_wait is None or not seat.human or seat.member is not None or seat.taken or seat.elsewhere
                or seat.timer is not None or live.table.finished or not live.present()):
            return
        call_later = self.call_later or asyncio.get_running_loop().call_later
        seat.timer = call_later(self.seat_wait, self._take_over, live, i)

    def _take_over(self, live: LiveTable, i: int) -> None:
        seat = live.seats[i]
        seat.timer = None
        if (self.live.get(live.game_id) is not live or seat.member is not None or seat.taken or seat.elsewhere
                or live.table.finished or not live.present()):
            return
        seat.taken = True
        live.table.seats[i] = SeatConfig(seat.name, BOT, self.takeover_level)
        log.info("game %s: a bot took seat %d", live.game_id, i)
        self._news(live, f"A bot ({self.takeover_level}) now plays for {seat.name} until they come back.")
        self._record(live, [seat_log.bot_for(i, seat.account_id)])
        self._changed()
        self._drive(live)

    def _news(self, live: LiveTable, text: str, skip: Member | None = None) -> None:
        for seat in live.seats:
            if seat.member is not None and seat.member is not skip:
                seat.member.lobby_event(SeatNews(live.table, text))

    def _cancel_timer(self, seat: LiveSeat) -> None:
        if seat.timer is not None:
            seat.timer.cancel()
            seat.timer = None

    def _drop(self, live: LiveTable) -> None:
        """Nobody is seated: forget the game (it stays on disk, resumable)."""
        for seat in live.seats:
            self._cancel_timer(seat)
        if live.bot_task is not None:
            live.bot_task.cancel()
        if live.unsubscribe is not None:
            live.unsubscribe()
        live.table.close_log()
        self.live.pop(live.game_id, None)

    def _load_live(self, game_id: str) -> LiveTable:
        self._migrate()
        table = self._open_shared(game_id)
        try:
            live = live_from_log(table, self.takeover_level)
        except LobbyError:
            table.close_log()
            raise
        return self._add_live(live)
