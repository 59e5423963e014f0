"""Choose a game to watch (over SSH): the shared tables being played and
the solo games whose players allowed watching."""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from ...safe_text import safe_text
from ...session.spectators import WATCH_OFF
from ..models.host import lobby_host
from ..models.lobby_text import watch_line
from .lobby_base import LobbyPickScreen


class WatchListScreen(LobbyPickScreen):
    """Games being played that may be watched; Enter watches one."""

    BINDINGS = [Binding("escape", "back", "Back", id="watchlist.back")]
    TITLE_TEXT = "Watch a game"
    PREFIX = "watchlist"

    def _refresh_lobby(self) -> None:
        lobby = lobby_host(self).lobby
        menu = self.query_one(OptionList)
        games = lobby.watchable()
        # typed names: text
        ids = self.refill(menu, [Option(Text(safe_text(watch_line(info))), id=info.game_id) for info in games])
        self.say(WATCH_OFF if not lobby.spectators.enabled else "" if ids else "No game can be watched now.")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        error = lobby_host(self).watch_game(str(event.option.id))
        if error:
            self.say(error)
