"""The move log's lines: one per event, told from the player's seat.

Lines come from ``engine.narrate`` (so nothing hidden from the viewer's seat
leaks, RULES §8); the viewer's own lines are bold. In memory mode (RULES §8)
a play is told without its cards: the table then shows only top cards, and
the log must not give the rest away. Pure: no Textual.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from ...engine import events as ev
from ...engine.cards import CARD_TYPE
from ...engine.narrate import narrate
from ...engine.rules_data import LEAF_NAMES


def memory_line(event: ev.CardsPlayed, viewer: int | None, names: Sequence[str]) -> str:
    """A play told without card values (memory mode, RULES §8)."""
    who = "You" if event.seat == viewer else names[event.seat]
    parts = []
    for card, side in zip(event.cards, event.sides, strict=True):
        leaf = LEAF_NAMES[CARD_TYPE[card]]
        parts.append(f"a new {leaf} pile ({side} end)" if side else f"the {leaf} pile")
    n = len(event.cards)
    return f"{who} played {n} card{'s' * (n != 1)}: onto {', '.join(parts)}."


def log_line(event: ev.Event, viewer: int | None, names: Sequence[str], *, memory: bool = False,
             previous: ev.Event | None = None) -> Text | None:
    """The styled log line for ``event`` (None when it is not worth one);
    ``previous``: the event before it (``engine.narrate``)."""
    if memory and isinstance(event, ev.CardsPlayed):
        line: str | None = memory_line(event, viewer, names)
    else:
        line = narrate(event, viewer, names, previous=previous)
    if not line:
        return None
    seat = ev.event_seat(event)
    style = "bold" if seat is not None and seat == viewer else ""
    if isinstance(event, (ev.EndTriggered, ev.GameEnded)):
        style = "bold reverse"
    return Text(line, style=style)


def turn_heading(round_number: int, seat: int, viewer: int | None, names: Sequence[str]) -> Text:
    """The heading that opens a turn in the log: ``── Round 3 · Kaede ──``
    (``You`` for the viewer's own turn; RULES §3: a round is one turn per seat)."""
    who = "You" if seat == viewer else names[seat]
    return Text(f"── Round {round_number} · {who} ──", style="bold dim" if seat != viewer else "bold")


class LogBook:
    """The whole game's log as lines, grouped by turn: feed it the events in
    order (``feed``) and it gives the new lines, a heading before each turn.

    A turn's heading waits until that turn has a line, so the game's last
    ``TurnEnded`` is not followed by a heading for a turn never played.
    Pure: no Textual."""

    def __init__(self, viewer: int | None, names: Sequence[str], *, memory: bool = False) -> None:
        self.viewer = viewer
        self.names = list(names)
        self.memory = memory
        self.round = 0
        self.first_seat = 0
        self._pending: Text | None = None
        self._previous: ev.Event | None = None

    def feed(self, events: Sequence[ev.Event]) -> list[Text]:
        """The lines for ``events`` (which follow those fed before)."""
        out: list[Text] = []
        for event in events:
            previous, self._previous = self._previous, event
            if isinstance(event, ev.PlayStarted):
                out.append(log_line(event, self.viewer, self.names) or Text(""))
                self.round, self.first_seat = 1, event.first_seat
                self._pending = turn_heading(1, event.first_seat, self.viewer, self.names)
                continue
            if isinstance(event, ev.TurnEnded):
                nxt = (event.seat + 1) % len(self.names)
                self.round += nxt == self.first_seat
                self._pending = turn_heading(self.round, nxt, self.viewer, self.names)
                continue
            line = log_line(event, self.viewer, self.names, memory=self.memory, previous=previous)
            if line is None:
                continue
            if self._pending is not None and not isinstance(event, ev.GameEnded):
                out.append(self._pending)
            self._pending = None
            out.append(line)
        return out
