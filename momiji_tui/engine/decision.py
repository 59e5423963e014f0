"""The outcome of a command as ``decide`` builds it: the state the events
are applied to as they are decided, and the events (ARCHITECTURE "The engine").

Shared by the command handlers (decide.py) and the landscape powers
(powers.py).
"""

from __future__ import annotations

from . import events as ev
from .cards import CARD_TYPE, CARD_VALUE, Card
from .fold import apply_in_place
from .rules_data import MAX_VALUE
from .state import GameState


class Decision:
    """The state the events are applied to as they are decided (a scratch
    copy, or the caller's own state for ``run_in_place``), and the events.

    Every handler checks every rule before its first event, so an illegal
    command never leaves a half-changed state.
    """

    __slots__ = ("state", "events")

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.events: list[ev.Event] = []

    def emit(self, event: ev.Event) -> None:
        """Apply ``event`` to the state and record it."""
        apply_in_place(self.state, event)
        self.events.append(event)


def emit_play(d: Decision, seat: int, cards: tuple[Card, ...], sides: tuple[str, ...], mode: str) -> None:
    """Emit ``cards`` played into ``seat``'s row, then a ``PileClosed`` for each
    pile a 3 closes (RULES §4.2; a torii while the supply lasts, RULES §1.3)."""
    s = d.state
    d.emit(ev.CardsPlayed(seat, cards, sides, mode))
    row_before_closed = {p.leaf_type for p in s.seats[seat].row if p.closed}
    for card in cards:
        t = CARD_TYPE[card]
        if CARD_VALUE[card] == MAX_VALUE and t not in row_before_closed:
            row_before_closed.add(t)
            d.emit(ev.PileClosed(seat, t, torii=s.torii_left > 0))
