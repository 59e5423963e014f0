"""Join a table that waits for players (over SSH)."""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from ...session.lobby import LobbyError
from ..models.host import lobby_host
from ..models.lobby_text import open_table_line
from .lobby_base import LobbyPickScreen
from .waiting import WaitingScreen


class JoinScreen(LobbyPickScreen):
    """Tables that wait for players; Enter takes a seat."""

    BINDINGS = [Binding("escape", "back", "Back", id="join.back")]
    TITLE_TEXT = "Join a table"
    PREFIX = "join"

    def _refresh_lobby(self) -> None:
        lobby = lobby_host(self).lobby
        menu = self.query_one(OptionList)
        tables = lobby.open_tables()
        # "[starter]" is text, not a tag
        ids = self.refill(menu, [Option(Text(open_table_line(p)), id=p.table_id) for p in tables])
        self.say("" if ids else "No table is waiting for players. Create one from the lobby (t).")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        app = lobby_host(self)
        table_id = str(event.option.id)
        try:
            app.lobby.join_table(app, table_id)
        except LobbyError as exc:
            self.say(str(exc))
            return
        if table_id in app.lobby.pending:  # else the table is full and the game is opening
            self.app.switch_screen(WaitingScreen(table_id))
