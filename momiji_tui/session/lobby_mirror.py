"""The shared lobby's rows as this process's lobby data: a waiting
table read from the database becomes the :class:`PendingTable` the lobby's
rules and screens already know, with this process's own members in their
seats and a :class:`RemoteMember` standing for each player of another
process. Plain data; :mod:`.database_lobby` reads and writes the rows."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..engine.events import SeatControlChanged
from ..store.database.lobby_rows import LobbyRows, TableRow
from .shared_table import LobbyEvent, Member, PendingSeat, PendingTable, Player, TableInfo
from . import seat_log
from .shared_table import LiveTable
from .table import BOT, HUMAN, SeatConfig


class RemoteMember:
    """A player connected to another server process: shown in seats and
    lists, never sent events (their own process tells them)."""

    def __init__(self, process: str, member: str, player: Player) -> None:
        self.process = process
        self.member = member
        self.player = player

    def lobby_event(self, event: LobbyEvent) -> None:
        """Nothing: another process tells this player."""


class Mirror:
    """Turns rows into members: this process's own (by their token) and
    :class:`RemoteMember` objects, the same object for the same remote
    member from one read to the next (so ``is`` compares them)."""

    def __init__(self, process: str) -> None:
        self.process = process
        self.local: dict[str, Member] = {}
        self._remote: dict[tuple[str, str], RemoteMember] = {}

    def member(self, process: str | None, token: str | None, account_id: str | None, name: str) -> Member | None:
        """The member a row names (None: an open seat, or a member of this
        process that is gone)."""
        if process is None or token is None or account_id is None:
            return None
        if process == self.process:
            return self.local.get(token)
        key = (process, token)
        remote = self._remote.get(key)
        if remote is None or remote.player.account_id != account_id:
            remote = self._remote[key] = RemoteMember(process, token, Player(account_id, name or account_id))
        return remote

    def pending(self, row: TableRow) -> PendingTable | None:
        """A waiting table's row as a :class:`PendingTable` (None if its
        creator is a member of this process that is gone)."""
        seats = [PendingSeat(s.kind, s.name, self.member(s.process, s.member, s.account_id, s.name))
                 for s in row.seats]
        first = row.seats[0] if row.seats else None
        creator = self.member(row.process, row.creator, first.account_id if first else None,
                              first.name if first else "")
        if creator is None:
            return None
        return PendingTable(row.table_id, creator, seats, row.bot_level, row.landscape_mode, row.hints_allowed)

    def forget(self, rows: LobbyRows) -> None:
        """Drop remote members no row names any more."""
        named = {(m.process, m.member) for m in rows.members}
        named |= {(s.process, s.member) for t in rows.tables for s in t.seats if s.process and s.member}
        named |= {(t.process, t.creator) for t in rows.tables}
        for key in [k for k in self._remote if k not in named]:
            del self._remote[key]


def remote_players(rows: LobbyRows, process: str,
                   tag: Callable[[str], str] = lambda account_id: "") -> list[tuple[str, str]]:
    """(label, activity) of everyone online in other processes; ``tag(account
    id)`` goes after the label (the lobby's ``rating_tag``)."""
    return [(m.label + tag(m.account_id), m.activity) for m in rows.members if m.process != process]


IN_PLAY = "in play"
"""The detail of a started table in the shared lobby's list (no round: the
rows do not hold it, and every process lists the table the same)."""


def started_tables(rows: LobbyRows, activities: list[tuple[str, str]] | None = None) -> list[TableInfo]:
    """The games started at the lobby's tables, as every process lists them
    (from the ``rows``, whether or not it follows the game): each seat's
    name, "bot" for a bot, "here" if a member of any process is ``playing
    at`` that game as the seat's owner, else "away". ``activities``: every
    member's (account id, activity) when the caller knows fresher ones than
    the rows (its own members'); by default the rows'. Raises nothing."""
    pairs = [(m.account_id, m.activity) for m in rows.members] if activities is None else activities
    out = []
    for row in rows.tables:
        if row.game_id is None:
            continue
        playing = {account for account, activity in pairs if activity == f"playing at {row.game_id}"}
        seats = tuple((s.name, "bot" if s.kind == BOT else ("here" if s.account_id in playing else "away"))
                      for s in row.seats)
        out.append(TableInfo(row.game_id, "playing", seats, IN_PLAY))
    return out


def sync_seats(live: LiveTable, takeover_level: str) -> None:
    """Each seat of a followed shared game as its log says now (the log is
    the record, :mod:`.seat_log`): played in another process
    (``elsewhere``: no seat wait runs), or by a bot of ``takeover_level``
    for its absent owner."""
    control = live.table.state.seat_control or ()
    for i, (seat, last) in enumerate(zip(live.seats, control, strict=False)):
        if not seat.human or last is None:
            continue
        seat.elsewhere = (seat.member is None and last.control == seat_log.PLAYER
                          and last.reason != seat_log.LEFT)
        bot = last.control == seat_log.BOT_CONTROL
        if bot != seat.taken:
            seat.taken = bot
            live.table.seats[i] = SeatConfig(seat.name, BOT if bot else HUMAN, takeover_level if bot else None)
        if (seat.elsewhere or seat.member is not None) and seat.timer is not None:
            seat.timer.cancel()
            seat.timer = None


def gone_elsewhere(live: LiveTable, rows: LobbyRows) -> list[SeatControlChanged]:
    """``left`` events for the seats of ``live`` played in another process
    whose player no live session plays there now (by the lobby's ``rows``:
    no member is ``playing at`` that game, nor still ``waiting at`` its table
    while their process seats them). That process died and nobody wrote that
    they left, even if the player is already online again elsewhere (in a
    lobby, say). The seat wait then runs as for anyone who left. Raises nothing."""
    if live.table.finished:
        return []
    here = {f"playing at {live.game_id}"}
    here |= {f"waiting at table {t.table_id}" for t in rows.tables if t.game_id == live.game_id}
    present = {m.account_id for m in rows.members if m.activity in here}
    return [seat_log.left(i, s.account_id) for i, s in enumerate(live.seats)
            if s.elsewhere and s.account_id not in present]


def seat_elsewhere(rows: LobbyRows, account: str, followed: Mapping[str, object]) -> str | None:
    """A started game (by the lobby's ``rows``) not ``followed`` here where
    ``account`` holds a seat and plays in no process now: the seat to offer a
    player whose reconnection landed on another worker or host (or on one
    that stopped following the game). None if there is none."""
    playing = {m.activity for m in rows.members if m.account_id == account}
    for row in rows.tables:
        if (row.game_id is not None and row.game_id not in followed
                and f"playing at {row.game_id}" not in playing
                and any(s.account_id == account for s in row.seats)):
            return row.game_id
    return None
