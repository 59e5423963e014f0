"""The move log panel: one line per event, told from the player's seat."""

from __future__ import annotations

from textual.widgets import RichLog

from ..engine.narrate import narrate


class LogPanel(RichLog):
    """A scrolling log of the game, rendered with ``engine.narrate`` so
    nothing hidden from the viewer's seat leaks (RULES §8)."""

    def __init__(self, **kwargs) -> None:
        super().__init__(max_lines=500, wrap=True, markup=False, auto_scroll=True, **kwargs)

    def reset(self, app) -> None:
        """Refill from the table's whole event log."""
        self.clear()
        if app.table is not None:
            self.add(app, app.table.events)

    def add(self, app, events) -> None:
        """Append the lines for ``events``."""
        names = [s.name for s in app.table.seats]
        for event in events:
            line = narrate(event, app.seat, names)
            if line:
                self.write(line)
