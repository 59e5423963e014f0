"""Shared tables: the lobby of one server process (ARCHITECTURE "Sessions").

One :class:`Lobby` per ``momiji serve``. It knows who is connected (members:
one per SSH session), the tables waiting for players, and the games being
played at shared tables (:mod:`.shared_table`). A shared game is one
:class:`SharedTable` object that every seated front end sends commands to;
each front end renders its own seat's view. The lobby runs the bots of the
shared tables, one task per table; the front ends never do.

Everything here runs on the server's event loop (no locks: call it from the
loop). The lobby never touches a front end except through
``member.lobby_event(event)``, which must only queue the event (the Textual
app posts itself a message), so a change made by one player's app never runs
code in another app's context.

Where things are saved (``<data>`` is the server's data directory)::

    <data>/players/<account_id>/games/<game-id>.jsonl   solo games of one identity
    <data>/tables/games/<game-id>.jsonl                 shared games (event logs)

or, with ``momiji serve --database``, both in the database (:mod:`.database_games`).

A shared game's log is not under its creator's folder: it belongs to all its
players alike, and a solo "saved games" list must never offer it (opening it
alone would leave the other human seats with nobody). The save header says
which seats are humans; which identity owns a seat, when a bot played for an
absent human and when they came back are ``SeatControlChanged`` events in
the same log (:mod:`.seat_log`), so the log alone says who moved. The seats
files of older versions (``<data>/tables/seats/<game-id>.json``) are turned
into such events the first time the lobby lists or opens shared games.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from ..store import StoreError
from ..store.daily import DailyStore
from . import seat_log
from .deal_seed import secret_deal_seed
from .lobby_ratings import LobbyRatings
from .shared_table import (
    ACCOUNT_ID_RE, ALREADY_SEATED, IN_LOBBY, TABLE_FULL, TABLE_GONE, Dissolved, LobbyChanged, LobbyError,
    LobbyEvent, LobbySnapshot, Member, MyTable, PendingSeat, PendingTable, Player, Seated, SeatNews, TableInfo,
)
from .names import unique_label, unique_name
from .shared_table import (
    CallLater, LiveGames, LiveSeat, LiveTable, Pause, SharedTable, Think, think_in_thread,
)
from .shared_games import FileSharedGames, SharedGames
from .shared_table import WatchEnded
from .spectators import NOT_WATCHABLE, WATCH_OFF, WATCHING, Spectators, Watch, WatchInfo, game_detail
from .table import BOT, HUMAN, SeatConfig, Table

if TYPE_CHECKING:  # psycopg is optional: loaded only by momiji serve --database
    from .database_games import DatabaseGames

log = logging.getLogger("momiji_tui.lobby")

BOT_NAMES = ("Kaede", "Ginnan", "Sakura", "Donguri")


class Lobby(LobbyRatings, LiveGames):
    """The shared tables and players of one server process.

    ``data_dir``: the server's data directory. ``seat_wait``: seconds a seat
    of a player who left stays theirs alone before a bot plays it so the
    others can finish (None: never). ``takeover_level``: that bot's level.
    ``deal_seed``: draws each shared game's seed (default: 128 secret bits,
    see :mod:`.deal_seed`; tests inject a fixed one). The lobby runs the
    bots of shared tables (one task per table, :mod:`.shared_table`):
    ``make_bot`` (e.g. the bot pool's), ``bot_delay`` seconds between their
    moves; tests inject ``think`` (how a decision is asked), ``pause`` and
    ``call_later`` (the seat-wait timer) instead of the loop's. ``games``:
    the database (``momiji serve --database``): shared and solo games are
    saved there, not in ``data_dir`` (closed by :meth:`close`). ``ratings``:
    rate the shared games that finish (:mod:`.lobby_ratings`), in ``games``'
    database or else in ``data_dir``. ``spectators``: members may watch
    games (:mod:`.spectators`; False: ``momiji serve --no-spectators``).
    """

    def __init__(self, data_dir: str | os.PathLike[str], *, seat_wait: float | None = 120.0,
                 takeover_level: str = "normal", deal_seed: Callable[[], int] = secret_deal_seed,
                 make_bot: Callable[..., object] | None = None, bot_delay: float = 0.6,
                 think: Think | None = None, pause: Pause = asyncio.sleep,
                 call_later: CallLater | None = None, games: DatabaseGames | None = None,
                 ratings: bool = False, spectators: bool = True) -> None:
        self.data_dir = Path(data_dir)
        self.spectators = Spectators(spectators)
        self.games = games
        self.shared: SharedGames = games if games is not None else FileSharedGames(self.tables_dir)
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
        self._migrated = False
        self.make_bot = make_bot
        self.bot_delay = max(0.0, bot_delay)
        self.think = think or (lambda table, seat: think_in_thread(table, seat, self.make_bot))
        self.pause = pause
        self.call_later = call_later
        self._init_ratings(ratings, self.data_dir, games)
        # The daily deal (session/daily.py): where its plays are kept, None when the server turned it off;
        # ``daily_clock`` tells the day (UTC; tests set it).
        self.daily: DailyStore | None = None
        self.daily_clock: Callable[[], datetime] = lambda: datetime.now(UTC)

    # ------------------------------------------------------------------ paths
    def player_dir(self, player: Player) -> Path:
        """``<data>/players/<account_id>``: where this identity's solo games go."""
        if not ACCOUNT_ID_RE.fullmatch(player.account_id):
            raise ValueError(f"not an account id: {player.account_id!r}")
        return self.data_dir / "players" / player.account_id

    @property
    def tables_dir(self) -> Path:
        """``<data>/tables``: shared games (``games/``; ``seats/``: old seats files, migrated)."""
        return self.data_dir / "tables"

    # --------------------------------------------------------------- members
    def enter(self, member: Member) -> None:
        """A front end arrived in the lobby; it gets a label no other person has."""
        others = ((m.player.account_id, label) for m, label in self.labels.items())
        self.labels[member] = unique_label(member.player, others)
        self.members[member] = IN_LOBBY
        self.look_up_rating(member.player.account_id)
        owned = self.shared.owned_by(member.player.account_id)  # the database: another process's games too
        if owned is not None:
            self._load_index()[member.player.account_id] = owned
        self._changed()

    def exit(self, member: Member) -> None:
        """A front end is gone (its session ended): give up all it held.
        Seats at shared games stay the player's (see ``seat_wait``)."""
        self.leave_pending(member, notify=False)
        self.stop_watching(member)
        self.withdraw_solo(member)
        for live in list(self.live.values()):
            if any(s.member is member for s in live.seats):
                self.leave_table(member, live.table)
        for path in [p for p, m in self._open_files.items() if m is member]:
            del self._open_files[path]
        self.labels.pop(member, None)
        if self.members.pop(member, None) is not None:
            self._changed()

    def label(self, member: Member) -> str:
        """The name others see for ``member`` ("alice", "bob (guest)"; see ``names.py``)."""
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
                     landscape_mode: str = "starter", hints_allowed: bool = False) -> PendingTable:
        """Open a table: ``member`` in seat 0, then ``others`` ("human" for a
        seat open to players, "bot" for a bot), 1 to 3 of them, at least one
        human. ``hints_allowed``: the hint key works at this table (whoever
        joins is told, so joining is agreeing). The deal's seed is drawn by
        ``deal_seed`` when the game starts, never chosen by a player (RULES
        §2.2). Raises :class:`LobbyError`."""
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
        pending = PendingTable(table_id, member, seats, bot_level, landscape_mode, hints_allowed)
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
            raise LobbyError(TABLE_GONE)
        if any(s.member is member for s in pending.seats):
            return pending
        account = member.player.account_id
        if any(s.member is not None and s.member.player.account_id == account for s in pending.seats):
            raise LobbyError(ALREADY_SEATED)
        seat = next((s for s in pending.seats if s.kind == HUMAN and s.member is None), None)
        if seat is None:
            raise LobbyError(TABLE_FULL)
        self.leave_pending(member)
        seat.member = member
        taken = {s.name for s in pending.seats if s.name}
        seat.name = unique_name(self.label(member), taken)
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
            owners = [s.member.player.account_id for s in pending.seats if s.member is not None]
            table = self.shared.new_shared(configs, seed=self.deal_seed(), landscape_mode=pending.landscape_mode,
                                           owners=owners)
        except (OSError, ValueError, StoreError) as exc:
            self._not_started(pending, exc, f"The game could not start: {exc}")
            return
        table.hints_allowed = pending.hints_allowed
        seats = [LiveSeat(s.name, s.member.player.account_id if s.member else None) for s in pending.seats]
        try:  # whose seats they are, in the log: without it nobody could come back to the game
            table.record([seat_log.seated(i, s.account_id) for i, s in enumerate(seats) if s.account_id])
        except (OSError, ValueError) as exc:
            table.close_log()
            self._not_started(pending, exc, f"The game could not start: {getattr(exc, 'reason', exc)}.")
            return
        live = self._add_live(LiveTable(table, seats, round=table.state.round))
        index = self._load_index()
        for seat in seats:
            if seat.account_id is not None:
                index.setdefault(seat.account_id, set()).add(table.game_id)
        log.info("table %s started as game %s", pending.table_id, table.game_id)
        logging.getLogger("momiji").info(  # the operator's log (SERVER "The server's log")
            "table started: game %s, seats %s", table.game_id,
            ", ".join(seat.account_id or "bot" for seat in seats))
        for i, s in enumerate(pending.seats):
            if s.member is not None:
                live.seats[i].member = s.member
                self._set_activity_quiet(s.member, f"playing at {table.game_id}")
                s.member.lobby_event(Seated(table, i))
        self._announce_ratings(live)
        self._drive(live)

    def _not_started(self, pending: PendingTable, exc: Exception, reason: str) -> None:
        log.error("cannot start table %s: %s", pending.table_id, exc)
        for s in pending.seats:
            if s.member is not None:
                self._set_activity_quiet(s.member, IN_LOBBY)
                s.member.lobby_event(Dissolved(pending.table_id, reason))

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
            summary = self.shared.summary(game_id)
            if summary is None or summary.finished or player.account_id not in summary.owners:
                continue
            out.append(MyTable(game_id, summary.owners.index(player.account_id), summary.names, False, False))
        return out

    def snapshot(self) -> LobbySnapshot:
        """Who is playing, and at which tables."""
        players = tuple(sorted((self.label(m) + self.rating_tag(m.player.account_id), activity)
                               for m, activity in self.members.items()))
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
                statuses.append((s.name + self.rating_tag(s.account_id), status))
            state = "finished" if live.table.finished else "playing"
            phase = live.table.state.phase
            detail = "draft" if phase == "draft" else ("final scores" if state == "finished"
                                                       else f"round {live.table.state.round}")
            tables.append(TableInfo(live.game_id, state, tuple(statuses), detail))
        return LobbySnapshot(players, tuple(tables))

    def open_tables(self) -> list[PendingTable]:
        """Waiting tables with a free seat."""
        return [p for p in self.pending.values() if p.open_seats]

    # ------------------------------------------------------------ spectators
    def watchable(self) -> list[WatchInfo]:
        """The games a member may watch now (:mod:`.spectators`): the shared
        tables played in this process, and the solo games offered; none
        while watching is off."""
        if not self.spectators.enabled:
            return []
        out = [WatchInfo(g, tuple(s.name for s in live.seats), "shared", game_detail(live.table),
                         len(self.spectators.watchers(g)))
               for g, live in self.live.items() if not live.table.finished]
        out += [WatchInfo(g, tuple(s.name for s in table.seats), "solo", game_detail(table),
                          len(self.spectators.watchers(g)))
                for g, (table, _) in self.spectators.solo.items() if not table.finished]
        return out

    def watch(self, member: Member, game_id: str) -> Watch:
        """``member`` starts watching ``game_id`` (leaving a watch it had);
        the players are told who watches. Raises :class:`LobbyError`."""
        self._check_open()
        if not self.spectators.enabled:
            raise LobbyError(WATCH_OFF)
        live = self.live.get(game_id)
        offered = self.spectators.solo.get(game_id)
        table: Table
        players: list[Member | None]
        if live is not None:
            table, players = live.table, [s.member for s in live.seats]
        elif offered is not None:
            table, players = offered[0], [offered[1]]
        else:
            raise LobbyError(NOT_WATCHABLE)
        if table.finished:
            raise LobbyError(NOT_WATCHABLE)
        if any(p is member for p in players):
            raise LobbyError("You play at that table.")
        self.stop_watching(member)
        self.leave_pending(member, notify=False)
        watch = Watch(game_id, table, tuple(s.name for s in table.seats))
        label = self.label(member)
        self.spectators.add(member, watch, label)
        self._set_activity_quiet(member, WATCHING.format(game_id=game_id))
        self._tell_players(game_id, f"{label} is watching.")
        log.info("game %s: %s watches", game_id, member.player.account_id)
        self._changed()
        return watch

    def stop_watching(self, member: Member) -> None:
        """``member`` stops watching (leaving the watch screen, or gone);
        the players are told. Does nothing if it watched nothing."""
        watch = self.spectators.remove(member)
        if watch is None:
            return
        if self.members.get(member, "").startswith("watching "):
            self._set_activity_quiet(member, IN_LOBBY)
        self._tell_players(watch.game_id, f"{self.label(member)} stopped watching.")
        live = self.live.get(watch.game_id)
        if live is not None and not live.present() and not self.spectators.watchers(watch.game_id):
            self._drop(live)  # followed only for its watchers (another process's game, database_lobby.py)
        self._changed()

    def watchers_of(self, game_id: str) -> tuple[str, ...]:
        """The names of those watching ``game_id`` now (shown at its table)."""
        return self.spectators.names(game_id)

    def offer_solo(self, member: Member, table: Table) -> None:
        """``member``'s new solo game may be watched (allowed on the new-game form)."""
        if self.spectators.enabled:
            self.spectators.offer_solo(member, table)
            self._changed()

    def withdraw_solo(self, member: Member) -> None:
        """``member`` left their solo game: it can no longer be watched;
        its watchers are told."""
        for game_id in self.spectators.withdraw_solo(member):
            self._end_watches(game_id, "The player left that game.")
            self._changed()

    def _tell_players(self, game_id: str, text: str) -> None:
        live = self.live.get(game_id)
        if live is not None:
            self._news(live, text)
        elif (offered := self.spectators.solo.get(game_id)) is not None:
            offered[1].lobby_event(SeatNews(offered[0], text))

    def _end_watches(self, game_id: str, reason: str) -> None:
        """Everyone watching ``game_id`` leaves the watch, told ``reason``."""
        for watcher in self.spectators.watchers(game_id):
            self.spectators.remove(watcher)
            self._set_activity_quiet(watcher, IN_LOBBY)
            watcher.lobby_event(WatchEnded(game_id, reason))

    def _drop(self, live: LiveTable) -> None:
        """See :meth:`LiveGames._drop`; its watchers are told the watch is
        over, unless the game is kept for them (:meth:`_kept_for_watchers`)."""
        if not self._closed and self._kept_for_watchers(live):
            return
        self._end_watches(live.game_id, "Everyone left that table.")
        super()._drop(live)

    def _kept_for_watchers(self, live: LiveTable) -> bool:
        """Whether a game nobody plays here stays followed for its watchers:
        on files never (nobody plays it anywhere then); on the database while
        it is watched and played on (``DatabaseLobby``)."""
        return False

    # ------------------------------------------------------------ plumbing
    def close(self) -> None:
        """The server stops: the players still seated leave (in each log),
        every bot task stops, every log is closed."""
        for live in list(self.live.values()):
            here = [seat_log.left(i, s.account_id) for i, s in enumerate(live.seats) if s.member and s.human]
            self._record(live, here)
        self._closed = True
        for live in list(self.live.values()):
            self._drop(live)
        self.pending.clear()
        self.shared.close()

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

    def _migrate(self) -> None:
        """Once per lobby: turn the old seats files into seat events (:mod:`.seat_log`)."""
        if not self._migrated:
            self._migrated = True
            self.shared.migrate()

    def _open_shared(self, game_id: str) -> SharedTable:
        return self.shared.open_shared(game_id)

    def _load_index(self) -> dict[str, set[str]]:
        if self._index is None:
            self._migrate()
            self._index = self.shared.owners_index()
        return self._index


__all__ = [
    "ACCOUNT_ID_RE", "BOT_NAMES", "Dissolved", "IN_LOBBY", "LiveTable", "Lobby", "LobbyChanged", "LobbyError",
    "LobbyEvent", "LobbySnapshot", "Member", "MyTable", "PendingTable", "Player", "Seated",
    "SeatNews", "SharedTable", "TableInfo",
]
