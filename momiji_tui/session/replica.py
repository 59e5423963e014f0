"""A shared table followed from the database (the shared lobby):
each server process with a player at a shared game holds its own replica of
that game and follows it.

How a replica keeps up: every process appends its moves at the position it
last saw (``TableLog.extend``: of two appends at one position exactly one
lands). The others hear of it through the ``Listener``'s wake-up and
catch-up read and :meth:`ReplicaTable.absorb` the events, in order, by
position (an event already held is skipped, so a move read twice is applied
once). A move that loses the race (``MovedOn``) makes the replica read what
it missed (:meth:`ReplicaTable.catch_up`) before the error reaches the
player (in words: :data:`CAUGHT_UP`) or the bot runner (which drops the
move silently: ``shared_table.run_bots``).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from typing import Any

from .. import engine
from ..engine import events as ev
from ..store.database.writer import DatabaseGameLog
from ..store.log import STORE_KEYS
from .shared_table import MovedOn, SharedTable

log = logging.getLogger("momiji_tui.lobby")

CAUGHT_UP = "another move at this table was saved first; the table now shows it"
"""Why a player's move was not saved at a shared table another process moved first."""


class ReplicaTable(SharedTable):
    """This process's copy of a shared game on the database (its log is a
    ``database_games.TableLog``)."""

    @property
    def position(self) -> int:
        """The position of the last event this replica holds."""
        return self.log.position if isinstance(self.log, DatabaseGameLog) else len(self.events)

    def absorb(self, rows: Iterable[tuple[int, dict[str, Any]]]) -> list[ev.Event]:
        """Apply events another process saved: ``(position, event object)``
        in order; those already held are skipped. On a gap (a position
        missing) the rest is read from the database (:meth:`catch_up`).
        Tells the listeners; returns the events applied. Raises ``ValueError``
        (nothing applied) for an event the rules refuse: a damaged game."""
        fresh: list[ev.Event] = []
        gap = False
        with self._lock:
            state, position = self.state.clone(), self.position
            for at, stored in rows:
                if at <= position:
                    continue
                if at != position + 1:
                    gap = True
                    break
                event = engine.from_dict({k: v for k, v in stored.items() if k not in STORE_KEYS})
                engine.apply_in_place(state, event)
                fresh.append(event)
                position = at
            if fresh:
                self.state = state
                self.events.extend(fresh)
                self._set_position(position)
        if fresh:
            for listener in list(self._listeners):
                listener(list(fresh))
        if gap:
            fresh += self.catch_up()
        return fresh

    def catch_up(self) -> list[ev.Event]:
        """Read and apply what the database holds after this replica's
        position. Returns the events applied (none if the read fails: logged)."""
        if not isinstance(self.log, DatabaseGameLog):
            return []
        try:
            rows = self.log.store.read(self.game_id, self.position)
        except Exception as exc:  # the database failed: the next wake-up reads again
            log.error("game %s: cannot catch up: %s", self.game_id, exc)
            return []
        return self.absorb(rows) if rows else []

    def _set_position(self, position: int) -> None:
        if isinstance(self.log, DatabaseGameLog):
            self.log.position = position

    def submit(self, command: engine.Command) -> list[ev.Event]:
        """See ``Table.submit``; a move another process saved first raises
        ``MovedOn`` (reason :data:`CAUGHT_UP`) after the replica caught up."""
        try:
            return super().submit(command)
        except MovedOn as exc:
            self.catch_up()
            raise MovedOn("save the move", self.game_id, OSError(None, CAUGHT_UP)) from exc.__cause__

    def record(self, events: Sequence[ev.SeatControlChanged | ev.HintShown]) -> None:
        """See ``Table.record``; after another process's move it catches up
        and records again once (no rule refuses a seat event), leaving out a
        seat event the log now already ends with for that seat (two
        processes following one game both saw the same seat change: one
        ``left`` in the log, not two)."""
        try:
            super().record(events)
        except MovedOn:
            self.catch_up()
            control = self.state.seat_control
            fresh = [e for e in events if not (isinstance(e, ev.SeatControlChanged) and e.seat < len(control)
                                               and control[e.seat] == e)]
            if fresh:
                super().record(fresh)
