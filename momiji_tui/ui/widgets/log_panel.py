"""The move log panel: one line per event, told from the player's seat
(lines from ``ui/models/log_lines.py``). A new turn starts with a rule."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text

from ...engine import events as ev
from ..models.host import GameHost
from ..models.log_lines import log_line
from .kept_style import KeptStyleLog


class LogPanel(KeptStyleLog):
    """A scrolling log of the game. Not focusable: the table's keys stay
    with the table; the mouse wheel and PageUp/PageDown scroll it. Its
    style is computed once, not per line drawn (``KeptStyleLog``)."""

    can_focus = False

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_lines=1000, wrap=True, markup=False, auto_scroll=True, **kwargs)

    def reset(self, app: GameHost) -> None:
        """Refill from the table's whole event log."""
        self.clear()
        if app.table is not None:
            self.add(app, app.table.events)

    def add(self, app: GameHost, events: Sequence[ev.Event]) -> None:
        """Append the lines for ``events`` as ``app``'s seat sees them."""
        if app.table is not None:
            self.write_events(events, app.seat, [s.name for s in app.table.seats], memory=app.memory_mode)

    def write_events(self, events: Sequence[ev.Event], viewer: int | None, names: Sequence[str], *,
                     memory: bool = False) -> None:
        """Append the lines for ``events`` told from seat ``viewer`` (None: a
        spectator); ``memory``: plays without their cards (RULES §8)."""
        for event in events:
            if isinstance(event, (ev.TurnEnded, ev.PlayStarted)):
                if isinstance(event, ev.PlayStarted):
                    self.write(log_line(event, viewer, names) or Text(""))
                self.write(Text("─" * 16, style="dim"))
                continue
            line = log_line(event, viewer, names, memory=memory)
            if line is not None:
                self.write(line)
