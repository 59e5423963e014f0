"""Shared tables: the lobby of one server process (DESIGN "SSH").

One :class:`Lobby` per ``momiji serve``. It knows who is connected (members:
one per SSH session), the tables waiting for players, and the games being
played at shared tables. A shared game is one :class:`SharedTable` object
that every seated front end sends commands to; each front end renders its own
seat's view.

Everything here runs on the server's event loop (no locks: call it from the
loop). The lobby never touches a front end except through
``member.lobby_event(event)``, which must only queue the event (the Textual
app posts itself a message), so a change made by one player's app never runs
code in another app's context.

Where things are saved (``<data>`` is the server's data directory)::

    <data>/players/<account_id>/games/<game-id>.jsonl   solo games of one identity
    <data>/tables/games/<game-id>.jsonl                 shared games (event logs)
    <data>/tables/seats/<game-id>.json                  who owns each seat, takeovers

A shared game's log is not under its creator's folder: it belongs to all its
players alike, and a solo "saved games" list must never offer it (opening it
alone would leave the other human seats with nobody). The seats file is the
session layer's record: the save header says which seats are humans; which
identity owns a seat, and when a bot played for an absent human (a takeover)
and when they came back, live only in the seats file, since the engine has no
event for "a seat changed hands". Replaying the log alone shows the header's
seats; the seats file says who really moved.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from ..engine import events as ev
from ..store import is_game_id
from .deal_seed import secret_deal_seed
from .names import unique_label
from .table import BOT, HUMAN, SeatConfig, Table

log = logging.getLogger("momiji_tui.lobby")

SEATS_FORMAT = "momiji-shared-table"
SEATS_VERSION = 1
BOT_NAMES = ("Kaede", "Ginnan", "Sakura", "Donguri")
ACCOUNT_ID_RE = re.compile(r"[a-z0-9][a-z0-9-]{0,79}")
"""What an account id may look like (it becomes a folder name)."""


class LobbyError(Exception):
    """A lobby request that cannot be done; the message is for the player."""


@dataclass(frozen=True)
class Player:
    """Who a member is. ``account_id`` is opaque and filesystem-safe (for a
    key: a hash of its fingerprint; for a guest: new on every login);
    ``name`` is a display name only; ``key_hint`` a short fingerprint to show."""

    account_id: str
    name: str
    is_guest: bool = False
    key_hint: str = ""

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
    """A seat at your table changed hands (left, bot took over, came back).
    Front ends show ``text`` and check whether a bot must move now."""

    table: SharedTable
    text: str


LobbyEvent = LobbyChanged | Seated | Dissolved | SeatNews


class Member(Protocol):
    """A front end in the lobby (one per SSH session)."""

    player: Player

    def lobby_event(self, event: LobbyEvent) -> None:
        """Queue ``event`` for the front end; must not act on it right away."""


# -- tables ------------------------------------------------------------------------
class SharedTable(Table):
    """A :class:`Table` several front ends share.

    A front end calls ``close()`` when it leaves the table; at a shared table
    that must not close the log the others still write, so ``close()`` does
    nothing here and the lobby calls :meth:`close_log` once nobody is seated.
    """

    def close(self) -> None:
        """Leaving is not closing: see the class docstring."""

    def close_log(self) -> None:
        """Close the save file (the game stays resumable)."""
        super().close()


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

    @property
    def open_seats(self) -> int:
        return sum(1 for s in self.seats if s.kind == HUMAN and s.member is None)


@dataclass
class LiveSeat:
    """A seat of a game at a shared table."""

    name: str
    account_id: str | None  # None: a bot from the start
    member: Member | None = None
    taken: bool = False  # a bot plays for the absent human
    timer: asyncio.TimerHandle | None = None

    @property
    def human(self) -> bool:
        return self.account_id is not None


@dataclass
class LiveTable:
    """A shared game in play, its seats and its seats file."""

    table: SharedTable
    seats: list[LiveSeat]
    record: dict[str, Any]
    record_path: Path
    round: int = 0
    unsubscribe: Callable[[], None] | None = None

    @property
    def game_id(self) -> str:
        return self.table.game_id

    def present(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.member is not None]


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


IN_LOBBY = "in the lobby"


class Lobby:
    """The shared tables and players of one server process.

    ``data_dir``: the server's data directory. ``seat_wait``: seconds a seat
    of a player who left stays theirs alone before a bot plays it so the
    others can finish (None: never). ``takeover_level``: that bot's level.
    ``deal_seed``: draws each shared game's seed (default: 128 secret bits,
    see :mod:`.deal_seed`; tests inject a fixed one).
    """

    def __init__(self, data_dir: str | os.PathLike[str], *, seat_wait: float | None = 120.0,
                 takeover_level: str = "normal", deal_seed: Callable[[], int] = secret_deal_seed) -> None:
        self.data_dir = Path(data_dir)
        self.deal_seed = deal_seed
        self.seat_wait = seat_wait if seat_wait and seat_wait > 0 else None
        self.takeover_level = takeover_level
        self.members: dict[Member, str] = {}
        self.labels: dict[Member, str] = {}  # the name others see (session/names.py)
        self.pending: dict[str, PendingTable] = {}
        self.live: dict[str, LiveTable] = {}
        self._open_files: dict[Path, Member] = {}
        self._index: dict[str, set[str]] | None = None  # account -> unfinished shared game ids
        self._counter = 0
        self._closed = False

    # ------------------------------------------------------------------ paths
    def player_dir(self, player: Player) -> Path:
        """``<data>/players/<account_id>``: where this identity's solo games go."""
        if not ACCOUNT_ID_RE.fullmatch(player.account_id):
            raise ValueError(f"not an account id: {player.account_id!r}")
        return self.data_dir / "players" / player.account_id

    @property
    def tables_dir(self) -> Path:
        """``<data>/tables``: shared games (``games/``) and their seats files (``seats/``)."""
        return self.data_dir / "tables"

    def _record_path(self, game_id: str) -> Path:
        if not is_game_id(game_id):
            raise LobbyError("There is no such table.")
        return self.tables_dir / "seats" / f"{game_id}.json"

    def _game_path(self, game_id: str) -> Path:
        return self.tables_dir / "games" / f"{game_id}.jsonl"

    # --------------------------------------------------------------- members
    def enter(self, member: Member) -> None:
        """A front end arrived in the lobby; it gets a label no other person has."""
        others = ((m.player.account_id, label) for m, label in self.labels.items())
        self.labels[member] = unique_label(member.player, others)
        self.members[member] = IN_LOBBY
        self._changed()

    def exit(self, member: Member) -> None:
        """A front end is gone (its session ended): give up all it held.
        Seats at shared games stay the player's (see ``seat_wait``)."""
        self.leave_pending(member, notify=False)
        for live in list(self.live.values()):
            if any(s.member is member for s in live.seats):
                self.leave_table(member, live.table)
        for path in [p for p, m in self._open_files.items() if m is member]:
            del self._open_files[path]
        self.labels.pop(member, None)
        if self.members.pop(member, None) is not None:
            self._changed()

    def label(self, member: Member) -> str:
        """The name others see for ``member`` ("alice·Ab3x", "bob (guest)")."""
        return self.labels.get(member) or unique_label(member.player, ())

    def set_activity(self, member: Member, activity: str) -> None:
        """What a member does now, as "who is playing" shows it."""
        if member in self.members and self.members[member] != activity:
            self.members[member] = activity
            self._changed()

    # ------------------------------------------------------ solo save files
    def claim_file(self, member: Member, path: str | os.PathLike[str]) -> bool:
        """Mark a solo save as open in ``member``'s session. False if another
        session of the server has it open (one writer per file)."""
        key = Path(path).resolve()
        holder = self._open_files.get(key)
        if holder is not None and holder is not member:
            return False
        self._open_files[key] = member
        return True

    def release_file(self, member: Member, path: str | os.PathLike[str]) -> None:
        """``member`` closed that save."""
        key = Path(path).resolve()
        if self._open_files.get(key) is member:
            del self._open_files[key]

    # -------------------------------------------------------- pending tables
    def create_table(self, member: Member, others: list[str], *, bot_level: str = "normal",
                     landscape_mode: str = "starter") -> PendingTable:
        """Open a table: ``member`` in seat 0, then ``others`` ("human" for a
        seat open to players, "bot" for a bot), 1 to 3 of them, at least one
        human. The deal's seed is drawn by ``deal_seed`` when the game starts,
        never chosen by a player (RULES §2.2). Raises :class:`LobbyError`."""
        self._check_open()
        if not 1 <= len(others) <= 3 or any(k not in (HUMAN, BOT) for k in others):
            raise LobbyError("A table has 2 to 4 seats, each open for a player or a bot.")
        if HUMAN not in others:
            raise LobbyError("Open at least one seat for another player (or start a solo game).")
        if landscape_mode not in ("starter", "draft"):
            raise LobbyError(f"Unknown landscape mode {landscape_mode!r}.")
        self.leave_pending(member)
        self._counter += 1
        table_id = f"T{self._counter}"
        seats = [PendingSeat(HUMAN, self.label(member), member)]
        bots = iter(BOT_NAMES)
        for kind in others:
            name = f"{next(bots)} ({bot_level})" if kind == BOT else ""
            seats.append(PendingSeat(kind, name))
        pending = PendingTable(table_id, member, seats, bot_level, landscape_mode)
        self.pending[table_id] = pending
        self._set_activity_quiet(member, f"waiting at table {table_id}")
        log.info("table %s opened by %s", table_id, member.player.account_id)
        self._changed()
        return pending

    def join_table(self, member: Member, table_id: str) -> PendingTable:
        """Take the first open seat of a waiting table; the game starts when
        the table is full. Raises :class:`LobbyError`."""
        self._check_open()
        pending = self.pending.get(table_id)
        if pending is None:
            raise LobbyError("That table is gone.")
        if any(s.member is member for s in pending.seats):
            return pending
        account = member.player.account_id
        if any(s.member is not None and s.member.player.account_id == account for s in pending.seats):
            raise LobbyError("You already have a seat at that table (in another session).")
        seat = next((s for s in pending.seats if s.kind == HUMAN and s.member is None), None)
        if seat is None:
            raise LobbyError("That table is full.")
        self.leave_pending(member)
        seat.member = member
        taken = {s.name for s in pending.seats if s.name}
        seat.name = _unique(self.label(member), taken)
        self._set_activity_quiet(member, f"waiting at table {table_id}")
        if pending.open_seats == 0:
            self._start(pending)
        self._changed()
        return pending

    def leave_pending(self, member: Member, *, notify: bool = True) -> None:
        """Leave the waiting table ``member`` sits at, if any; when its
        creator leaves, the table is closed and the others are told."""
        for pending in list(self.pending.values()):
            seat = next((s for s in pending.seats if s.member is member), None)
            if seat is None:
                continue
            if pending.creator is member:
                del self.pending[pending.table_id]
                reason = f"{self.label(member)} closed table {pending.table_id}."
                for other in pending.seats:
                    if other.member is not None and other.member is not member:
                        self._set_activity_quiet(other.member, IN_LOBBY)
                        other.member.lobby_event(Dissolved(pending.table_id, reason))
            else:
                seat.member, seat.name = None, ""
            self._set_activity_quiet(member, IN_LOBBY)
            if notify:
                self._changed()

    def pending_of(self, member: Member) -> PendingTable | None:
        """The waiting table ``member`` sits at, or None."""
        return next((p for p in self.pending.values() if any(s.member is member for s in p.seats)), None)

    def _start(self, pending: PendingTable) -> None:
        del self.pending[pending.table_id]
        configs = [SeatConfig(s.name, BOT, pending.bot_level) if s.kind == BOT else SeatConfig(s.name, HUMAN)
                   for s in pending.seats]
        try:
            table = SharedTable.new(configs, seed=self.deal_seed(), landscape_mode=pending.landscape_mode,
                                    data_dir=self.tables_dir)
        except (OSError, ValueError) as exc:
            log.error("cannot start table %s: %s", pending.table_id, exc)
            for s in pending.seats:
                if s.member is not None:
                    self._set_activity_quiet(s.member, IN_LOBBY)
                    s.member.lobby_event(Dissolved(pending.table_id, f"The game could not start: {exc}"))
            return
        seats = [LiveSeat(s.name, s.member.player.account_id if s.member else None) for s in pending.seats]
        record = {
            "format": SEATS_FORMAT, "version": SEATS_VERSION, "game_id": table.game_id,
            "created": _now(), "created_by": pending.creator.player.account_id,
            "seats": [{"name": s.name, "kind": s.kind, "account": seat.account_id}
                      for s, seat in zip(pending.seats, seats, strict=True)],
            "takeovers": [], "finished": False,
        }
        live = self._add_live(table, seats, record)
        self._write_record(live)
        index = self._load_index()
        for seat in seats:
            if seat.account_id is not None:
                index.setdefault(seat.account_id, set()).add(table.game_id)
        log.info("table %s started as game %s", pending.table_id, table.game_id)
        logging.getLogger("momiji").info(  # the operator's log (README, "The server's log")
            "table started: game %s, seats %s", table.game_id,
            ", ".join(seat.account_id or "bot" for seat in seats))
        for i, s in enumerate(pending.seats):
            if s.member is not None:
                live.seats[i].member = s.member
                self._set_activity_quiet(s.member, f"playing at {table.game_id}")
                s.member.lobby_event(Seated(table, i))

    # ------------------------------------------------------------ live games
    def _add_live(self, table: SharedTable, seats: list[LiveSeat], record: dict[str, Any]) -> LiveTable:
        live = LiveTable(table, seats, record, self._record_path(table.game_id), round=table.state.round)
        live.unsubscribe = table.subscribe(lambda events: self._on_events(live, events))
        self.live[table.game_id] = live
        return live

    def _on_events(self, live: LiveTable, events: list[ev.Event]) -> None:
        if self.live.get(live.game_id) is not live:
            return
        if live.table.finished and not live.record["finished"]:
            live.record["finished"] = True
            self._write_record(live)
            logging.getLogger("momiji").info("table ended: game %s, finished", live.game_id)
            for seat in live.seats:
                self._cancel_timer(seat)
                if seat.account_id is not None and self._index is not None:
                    self._index.get(seat.account_id, set()).discard(live.game_id)
            self._changed()
        elif live.table.state.round != live.round:
            live.round = live.table.state.round
            self._changed()

    def return_to(self, member: Member, game_id: str) -> tuple[SharedTable, int]:
        """Sit back down at a shared game where ``member``'s identity owns a
        seat (loading it from disk if nobody is playing it now). If a bot was
        playing that seat, the player takes it back. Raises :class:`LobbyError`."""
        self._check_open()
        live = self.live.get(game_id) or self._load_live(game_id)
        account = member.player.account_id
        seat_no = next((i for i, s in enumerate(live.seats) if s.account_id == account), None)
        seat = live.seats[seat_no] if seat_no is not None else None
        if seat is None or (seat.member is not None and seat.member is not member):
            if not live.present():
                self._drop(live)
            if seat is None:
                raise LobbyError("You have no seat at that table.")
            raise LobbyError("You are already at that table in another session.")
        assert seat_no is not None
        self.leave_pending(member, notify=False)
        seat.member = member
        self._cancel_timer(seat)
        if seat.taken:
            seat.taken = False
            live.table.seats[seat_no] = SeatConfig(seat.name, HUMAN)
            self._record_takeover(live, seat_no, "returned")
            self._news(live, f"{seat.name} is back; the bot leaves their seat.", skip=member)
        else:
            self._news(live, f"{seat.name} is back at the table.", skip=member)
        for i in range(len(live.seats)):
            self._arm(live, i)
        self._set_activity_quiet(member, f"playing at {game_id}")
        self._changed()
        return live.table, seat_no

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
        if (self.seat_wait is None or not seat.human or seat.member is not None or seat.taken
                or seat.timer is not None or live.table.finished or not live.present()):
            return
        loop = asyncio.get_running_loop()
        seat.timer = loop.call_later(self.seat_wait, self._take_over, live, i)

    def _take_over(self, live: LiveTable, i: int) -> None:
        seat = live.seats[i]
        seat.timer = None
        if (self.live.get(live.game_id) is not live or seat.member is not None or seat.taken
                or live.table.finished or not live.present()):
            return
        seat.taken = True
        live.table.seats[i] = SeatConfig(seat.name, BOT, self.takeover_level)
        self._record_takeover(live, i, "bot", level=self.takeover_level)
        log.info("game %s: a bot took seat %d", live.game_id, i)
        self._news(live, f"A bot ({self.takeover_level}) now plays for {seat.name} until they come back.")
        self._changed()

    def _record_takeover(self, live: LiveTable, seat: int, what: str, **extra: Any) -> None:
        live.record["takeovers"].append(
            {"seat": seat, "what": what, "at_event": len(live.table.events), "time": _now(), **extra})
        self._write_record(live)

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
        if live.unsubscribe is not None:
            live.unsubscribe()
        self._write_record(live)
        live.table.close_log()
        self.live.pop(live.game_id, None)

    def _load_live(self, game_id: str) -> LiveTable:
        record_path = self._record_path(game_id)
        record = _read_record(record_path)
        if record is None:
            raise LobbyError("There is no such table.")
        try:
            table = SharedTable.resume(self._game_path(game_id))
        except Exception as exc:  # a damaged save must not take the server down
            log.error("cannot resume shared game %s: %s", game_id, exc)
            raise LobbyError(f"That game cannot be opened: {exc}") from None
        seats = [LiveSeat(str(s.get("name", "")), s.get("account") if s.get("kind") == HUMAN else None)
                 for s in record["seats"]]
        if len(seats) != len(table.seats):
            table.close_log()
            raise LobbyError("That game's seats file does not match its save.")
        for entry in record["takeovers"]:  # the last word per seat counts
            i = entry.get("seat")
            if isinstance(i, int) and 0 <= i < len(seats) and seats[i].human:
                seats[i].taken = entry.get("what") == "bot"
        for i, seat in enumerate(seats):
            if seat.taken:
                table.seats[i] = SeatConfig(seat.name, BOT, self.takeover_level)
        return self._add_live(table, seats, record)

    # ----------------------------------------------------------- listings
    def absent_seat(self, player: Player) -> str | None:
        """A game in play (by others) where ``player`` owns a free seat: the
        place to return to after a dropped connection."""
        for live in self.live.values():
            if live.table.finished:
                continue
            for seat in live.seats:
                if seat.account_id == player.account_id and seat.member is None:
                    return live.game_id
        return None

    def my_tables(self, player: Player) -> list[MyTable]:
        """Unfinished shared games where ``player`` owns a seat, newest first."""
        out: list[MyTable] = []
        ids = set(self._load_index().get(player.account_id, set()))
        ids |= {g for g, live in self.live.items()
                if any(s.account_id == player.account_id for s in live.seats)}
        for game_id in sorted(ids, reverse=True):
            live = self.live.get(game_id)
            if live is not None:
                if live.table.finished:
                    continue
                seat = next(i for i, s in enumerate(live.seats) if s.account_id == player.account_id)
                names = tuple(s.name for s in live.seats)
                out.append(MyTable(game_id, seat, names, True, live.seats[seat].member is not None))
                continue
            record = _read_record(self._record_path(game_id))
            if record is None or record.get("finished"):
                continue
            seat_list = record["seats"]
            seat = next((i for i, s in enumerate(seat_list) if s.get("account") == player.account_id), None)
            if seat is not None:
                out.append(MyTable(game_id, seat, tuple(str(s.get("name")) for s in seat_list), False, False))
        return out

    def snapshot(self) -> LobbySnapshot:
        """Who is playing, and at which tables."""
        players = tuple(sorted((self.label(m), activity) for m, activity in self.members.items()))
        tables: list[TableInfo] = []
        for p in self.pending.values():
            seats = tuple((s.name or "open", "bot" if s.kind == BOT else ("open" if s.member is None else "here"))
                          for s in p.seats)
            tables.append(TableInfo(p.table_id, "waiting", seats, p.landscape_mode, p.open_seats))
        for live in self.live.values():
            statuses = []
            for s in live.seats:
                if not s.human:
                    status = "bot"
                elif s.member is not None:
                    status = "here"
                else:
                    status = "bot for" if s.taken else "away"
                statuses.append((s.name, status))
            state = "finished" if live.table.finished else "playing"
            phase = live.table.state.phase
            detail = "draft" if phase == "draft" else ("final scores" if state == "finished"
                                                       else f"round {live.table.state.round}")
            tables.append(TableInfo(live.game_id, state, tuple(statuses), detail))
        return LobbySnapshot(players, tuple(tables))

    def open_tables(self) -> list[PendingTable]:
        """Waiting tables with a free seat."""
        return [p for p in self.pending.values() if p.open_seats]

    # ------------------------------------------------------------ plumbing
    def close(self) -> None:
        """The server stops: save every seats file, close every log."""
        self._closed = True
        for live in list(self.live.values()):
            self._drop(live)
        self.pending.clear()

    def _check_open(self) -> None:
        if self._closed:
            raise LobbyError("The server is shutting down.")

    def _set_activity_quiet(self, member: Member, activity: str) -> None:
        if member in self.members:
            self.members[member] = activity

    def _changed(self) -> None:
        event = LobbyChanged()
        for member in list(self.members):
            member.lobby_event(event)

    def _write_record(self, live: LiveTable) -> None:
        try:
            _write_json(live.record_path, live.record)
        except OSError as exc:
            log.error("cannot save the seats of %s: %s", live.game_id, exc)

    def _load_index(self) -> dict[str, set[str]]:
        if self._index is None:
            index: dict[str, set[str]] = {}
            folder = self.tables_dir / "seats"
            for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
                game_id = path.stem
                record = _read_record(path) if is_game_id(game_id) else None
                if record is None or record.get("finished") or record.get("game_id") != game_id:
                    continue
                for seat in record["seats"]:
                    account = seat.get("account")
                    if isinstance(account, str):
                        index.setdefault(account, set()).add(game_id)
            self._index = index
        return self._index


def _unique(name: str, taken: set[str]) -> str:
    if name not in taken:
        return name
    n = 2
    while f"{name}-{n}" in taken:
        n += 1
    return f"{name}-{n}"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _read_record(path: Path) -> dict[str, Any] | None:
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if (not isinstance(record, dict) or record.get("format") != SEATS_FORMAT
            or not isinstance(record.get("seats"), list) or not isinstance(record.get("takeovers"), list)
            or not all(isinstance(s, dict) for s in record["seats"])):
        return None
    return record


def _write_json(path: Path, data: dict[str, Any]) -> None:
    """Write atomically: a reader sees the old file or the new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1, sort_keys=True)
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


__all__ = [
    "BOT_NAMES", "Dissolved", "IN_LOBBY", "LiveTable", "Lobby", "LobbyChanged", "LobbyError",
    "LobbyEvent", "LobbySnapshot", "Member", "MyTable", "PendingTable", "Player", "Seated",
    "SeatNews", "SharedTable", "TableInfo",
]
