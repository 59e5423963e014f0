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


def log_line(event: ev.Event, viewer: int | None, names: Sequence[str], *, memory: bool = False) -> Text | None:
    """The styled log line for ``event`` (None when it is not worth one)."""
    if memory and isinstance(event, ev.CardsPlayed):
        line: str | None = memory_line(event, viewer, names)
    else:
        line = narrate(event, viewer, names)
    if not line:
        return None
    seat = ev.event_seat(event)
    style = "bold" if seat is not None and seat == viewer else ""
    if isinstance(event, (ev.EndTriggered, ev.GameEnded)):
        style = "bold reverse"
    return Text(line, style=style)
