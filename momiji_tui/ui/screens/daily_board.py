"""The daily deal's boards (over SSH): today's commitment, yesterday's
seed, and the boards of the day and of the week (``session/daily.py``)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from ..models.host import lobby_host


class DailyBoardScreen(Screen[None]):
    """The boards as ``LobbyApp.daily_board`` words them, read when shown."""

    BINDINGS = [Binding("escape", "back", "Back", id="dailyboard.back")]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="dailyboard-box"):
            yield Static("Daily deal", classes="title")
            yield Static(id="dailyboard-text")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        app = lobby_host(self)
        if app.exiting or not self.query("#dailyboard-text"):  # the session ended while this was composed
            return
        self.query_one("#dailyboard-text", Static).update(Text("\n".join(app.daily_board())))

    def action_back(self) -> None:
        """Back to the lobby."""
        self.app.pop_screen()
