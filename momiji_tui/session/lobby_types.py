"""What the lobby of a server deals in (ARCHITECTURE "Sessions"): players, the events
it sends to front ends, waiting tables and what "who is playing" lists.
Plain data; the :class:`~momiji_tui.session.lobby.Lobby` acts on it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from .table import HUMAN

if TYPE_CHECKING:
    from .shared_table import SharedTable

ACCOUNT_ID_RE = re.compile(r"[a-z0-9][a-z0-9-]{0,79}")
"""What an account id may look like (it becomes a folder name)."""
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
