"""Choose a game to watch (over SSH): the shared tables being played and
the solo games whose players allowed watching."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Footer, Label, OptionList, Static
from textual.widgets.option_list import Option

from ...safe_text import safe_text
from ...session.spectators import WATCH_OFF
from ..models.host import lobby_host
from ..models.lobby_text import watch_line
from .lobby_base import LobbyListScreen


class WatchListScreen(LobbyListScreen):
    """Games being played that may be watched; Enter watches one."""

    BINDINGS = [Binding("escape", "back", "Back", id="watchlist.back")]

    def compose(self) -> ComposeResult:
        with Vertical(id="watchlist-box"):
            yield Static("Watch a game", classes="title")
            yield OptionList(id="watchlist-list")
            yield Label("", id="watchlist-message")
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
        games = lobby.watchable()
        # typed names: text
        ids = self.refill(menu, [Option(Text(safe_text(watch_line(info))), id=info.game_id) for info in games])
        off = not lobby.spectators.enabled
        self.query_one("#watchlist-message", Label).update(
            WATCH_OFF if off else
            "" if ids else "No game can be watched now.")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        error = lobby_host(self).watch_game(str(event.option.id))
        if error:
            self.query_one("#watchlist-message", Label).update(error)

    def action_back(self) -> None:
        """Back to the lobby."""
        self.app.pop_screen()
