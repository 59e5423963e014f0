"""Spectators: who watches which game of one server process (ARCHITECTURE
"Sessions").

A watcher sees a game as nobody seated sees it: ``Table.view(None)``, the
spectator's :class:`~momiji_tui.engine.view.PlayerView` (RULES §8: no hand,
no deck order; the undo checkpoint is never in a view). A watcher only
listens to the table (``Table.subscribe``), so no move ever waits for one.

Which games may be watched: every shared table being played in this
process, and a solo game whose player allowed it when creating it (until
they leave it). The operator turns watching off for the whole server
(``momiji serve --no-spectators``). Plain data here; the lobby
(:mod:`.lobby`) holds one :class:`Spectators` and tells the players.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import engine
from .shared_table import Member
from .table import Table

WATCH_OFF = "Watching games is turned off on this server."
NOT_WATCHABLE = "That game is not being played, or its player did not allow watching."
WATCHING = "watching {game_id}"
"""A watcher's activity, as "who is playing" lists it."""


@dataclass(frozen=True)
class WatchInfo:
    """A game one may watch, as the lobby lists it: ``names`` of its seats,
    ``kind`` "shared" or "solo", ``detail`` ("round 3"), ``watchers`` (how
    many watch now)."""

    game_id: str
    names: tuple[str, ...]
    kind: str
    detail: str
    watchers: int


@dataclass(frozen=True)
class Watch:
    """One watcher at one game: what the watch screen is handed. ``table``
    is the game being played (listen with ``table.subscribe``; read it only
    through :meth:`view`); ``names`` its seats' names."""

    game_id: str
    table: Table
    names: tuple[str, ...]

    def view(self) -> engine.PlayerView:
        """The spectator's view now (RULES §8): no seat's hand until the
        game is over (then every hand is shown, as to the players)."""
        return self.table.view(None)


def game_detail(table: Table) -> str:
    """"draft", "round N" or "final scores": where a game stands. Raises nothing."""
    state = table.state
    if state.phase == "ended":
        return "final scores"
    return "draft" if state.phase == "draft" else f"round {state.round}"


class Spectators:
    """Who watches what (one per lobby). Members are the lobby's
    :class:`~.shared_table.Member` objects (any hashable front end);
    ``enabled`` False refuses every watch (:data:`WATCH_OFF`)."""

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled
        self.watching: dict[Member, tuple[Watch, str]] = {}  # member -> its watch, its label
        self.solo: dict[str, tuple[Table, Member]] = {}  # game id -> a solo game offered, its player

    def add(self, member: Member, watch: Watch, label: str) -> None:
        """``member`` (shown as ``label``) watches ``watch.game_id`` from now on."""
        self.watching[member] = (watch, label)

    def remove(self, member: Member) -> Watch | None:
        """``member`` stops watching; returns what it watched (None: nothing)."""
        entry = self.watching.pop(member, None)
        return entry[0] if entry is not None else None

    def watch_of(self, member: Member) -> Watch | None:
        """What ``member`` watches now, or None."""
        entry = self.watching.get(member)
        return entry[0] if entry is not None else None

    def watchers(self, game_id: str) -> list[Member]:
        """The members watching ``game_id``, in the order they came."""
        return [m for m, (w, _) in self.watching.items() if w.game_id == game_id]

    def names(self, game_id: str) -> tuple[str, ...]:
        """The labels of those watching ``game_id``, in the order they came."""
        return tuple(label for w, label in self.watching.values() if w.game_id == game_id)

    def offer_solo(self, member: Member, table: Table) -> None:
        """``member``'s solo game may be watched (its player allowed it)."""
        self.solo[table.game_id] = (table, member)

    def withdraw_solo(self, member: Member) -> list[str]:
        """``member``'s solo games are no longer offered; returns their ids."""
        ids = [g for g, (_, m) in self.solo.items() if m is member]
        for game_id in ids:
            del self.solo[game_id]
        return ids
