"""My games (over SSH): shared tables where I own a seat, and my solo games."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Footer, Label, OptionList, Static
from textual.widgets.option_list import Option

from ...safe_text import safe_text
from ...store import SavedGame
from ..models.host import lobby_host
from .lobby_base import LobbyListScreen


class MyGamesScreen(LobbyListScreen):
    """My unfinished games: shared tables where I own a seat, and solo games."""

    BINDINGS = [Binding("escape", "back", "Back", id="mygames.back")]

    def __init__(self) -> None:
        super().__init__()
        self._solo: list[SavedGame] = []
        self.entries: list[tuple[str, str]] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="mygames-box"):
            yield Static("My games", classes="title")
            yield OptionList(id="mygames-list")
            yield Label("", id="mygames-message")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        if lobby_host(self).exiting:  # the session ended while this screen was composed
            return
        self.listen_to_lobby()
        self._solo = lobby_host(self).unfinished_solo()
        self.refresh_lobby()
        self.query_one(OptionList).focus()

    def _refresh_lobby(self) -> None:
        app = lobby_host(self)
        menu = self.query_one(OptionList)
        menu.clear_options()
        self.entries = []
        for table in app.lobby.my_tables(app.player):
            others = ", ".join(n for i, n in enumerate(table.names) if i != table.seat)
            where = " (open in another session)" if table.here else ""
            menu.add_option(Option(Text(safe_text(f"{table.game_id}  shared, with {others}{where}"))))
            self.entries.append(("shared", table.game_id))
        for game in self._solo:
            names = ", ".join(s.get("name", "?") for s in (game.header or {}).get("seats", []))
            menu.add_option(Option(Text(safe_text(f"{game.game_id}  solo: {names}"))))  # typed names: text
            self.entries.append(("solo", str(game.path)))
        if not self.entries:
            self.query_one("#mygames-message", Label).update("No unfinished games.")
        else:
            menu.highlighted = 0

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        app = lobby_host(self)
        kind, what = self.entries[event.option_index]
        message = self.query_one("#mygames-message", Label)
        if kind == "shared":
            error = app.return_to_table(what)
            if error:
                message.update(error)
            return
        try:
            app.resume_game(what)
        except Exception as exc:  # damaged, or open in another session
            message.update(f"Cannot open it: {exc}")

    def action_back(self) -> None:
        """Back to the lobby."""
        self.app.pop_screen()
