"""The daily deal's boards (over SSH): today's commitment, yesterday's
seed, and the boards of the day and of the week (``session/daily.py``)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static


class DailyBoardScreen(Screen[None]):
    """The board lines it is given (the app reads them: ``LobbyApp.daily_board``)."""

    BINDINGS = [Binding("escape", "back", "Back", id="dailyboard.back")]

    def __init__(self, lines: list[str]) -> None:
        super().__init__()
        self.lines = lines

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="dailyboard-box"):
            yield Static("Daily deal", classes="title")
            yield Static(Text("\n".join(self.lines)), id="dailyboard-text")
        yield Footer(compact=True)

    def action_back(self) -> None:
        """Back to the lobby."""
        self.app.pop_screen()
