"""Join a table that waits for players (over SSH)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Footer, Label, OptionList, Static
from textual.widgets.option_list import Option

from ...session.lobby import LobbyError
from ..models.host import lobby_host
from ..models.lobby_text import open_table_line
from .lobby_base import LobbyListScreen
from .waiting import WaitingScreen


class JoinScreen(LobbyListScreen):
    """Tables that wait for players; Enter takes a seat."""

    BINDINGS = [Binding("escape", "back", "Back", id="join.back")]

    def compose(self) -> ComposeResult:
        with Vertical(id="join-box"):
            yield Static("Join a table", classes="title")
            yield OptionList(id="join-list")
            yield Label("", id="join-message")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        if lobby_host(self).exiting:  # the session ended while this screen was composed
            return
        self.listen_to_lobby()
        self.refresh_lobby()
        self.query_one(OptionList).focus()

    def _refresh_lobby(self) -> None:
        lobby = lobby_host(self).lobby
        menu = self.query_one(OptionList)
        tables = lobby.open_tables()
        # "[starter]" is text, not a tag
        ids = self.refill(menu, [Option(Text(open_table_line(p)), id=p.table_id) for p in tables])
        self.query_one("#join-message", Label).update("" if ids else "No table is waiting for players. "
                                                      "Create one from the lobby (t).")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        app = lobby_host(self)
        table_id = str(event.option.id)
        try:
            app.lobby.join_table(app, table_id)
        except LobbyError as exc:
            self.query_one("#join-message", Label).update(str(exc))
            return
        if table_id in app.lobby.pending:  # else the table is full and the game is opening
            self.app.switch_screen(WaitingScreen(table_id))

    def action_back(self) -> None:
        """Back to the lobby."""
        self.app.pop_screen()
