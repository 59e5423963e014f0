"""The lobby: the first screen of a player who comes in over SSH.

From here a player starts a solo game against bots, resumes their games,
opens a table for several players (each other seat open for a player or
given to a bot), joins an open table, and sees who is playing. The lobby's
state lives in :class:`momiji_tui.session.lobby.Lobby` (one per server);
this screen only shows it and sends it requests through the app
(:class:`~momiji_tui.ui.models.host.LobbyHost`).
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Footer, Label, OptionList, Static
from textual.widgets.option_list import Option

from ...session.saves import game_title
from ...store import SavedGame
from ..models.host import lobby_host
from .lobby_base import LobbyListScreen
from ..models.lobby_text import GUEST_NOTE, who_is_playing
from .create_table import CreateTableScreen
from .daily_board import DailyBoardScreen
from .join import JoinScreen
from .my_games import MyGamesScreen
from .names import NamesScreen
from ...session.bound_names import taken_line
from .new_game import NewGameScreen
from .watch_list import WatchListScreen

LOGO = "紅葉  M O M I J I  ·  over SSH"


class LobbyScreen(LobbyListScreen):
    """New solo game, resume, create or join a table, who is playing."""

    BINDINGS = [
        Binding("c", "continue", "Continue", id="lobby.continue"),
        Binding("n", "new", "New game", id="lobby.new"),
        Binding("r", "resume", "My games", id="lobby.resume"),
        Binding("t", "create", "Create table", id="lobby.create"),
        Binding("j", "join", "Join table", id="lobby.join"),
        Binding("k", "names", "Name and keys", id="lobby.names", show=False),
        Binding("l", "learn", "Learn to play", show=False, id="lobby.learn"),  # the list says it: the footer is full
        # In the menu's lines, not the footer: the footer's keys fit 80 columns.
        Binding("d", "daily", "Daily deal", id="lobby.daily", show=False),
        Binding("b", "board", "Daily board", id="lobby.board", show=False),
        Binding("w", "watch", "Watch", show=False, id="lobby.watch"),  # listed in the menu
        Binding("q", "app.quit", "Quit", id="lobby.quit"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._solo: list[SavedGame] = []
        self._solo_what = ""  # how *Continue* names the newest solo game

    def compose(self) -> ComposeResult:
        with Vertical(id="lobby-box"):
            yield Static(LOGO, id="lobby-logo")
            yield Static(id="lobby-who")
            yield OptionList(id="lobby-list")
            yield Label("", id="lobby-message")
            with VerticalScroll(id="lobby-players"):
                yield Static(id="lobby-players-text")
        yield Footer(compact=True, show_command_palette=False)  # every key fits in 80 columns

    def on_mount(self) -> None:
        if lobby_host(self).exiting:  # the session ended while this screen was composed
            return
        self.listen_to_lobby()
        app = lobby_host(self)
        player = app.player
        who = Text()
        if app.names is not None and app.names.bound.taken:  # one line: which name, and the one given
            who.append(taken_line(app.names.bound.asked, app.lobby.label(app)) + "\n", style="bold")
        if player.is_guest:  # named as others see them: "zed-2 (guest)"
            who.append(f"Welcome, {app.lobby.label(app)}. ", style="bold")
            who.append(GUEST_NOTE, style="italic")
        else:
            who.append(f"Welcome, {player.name}. ", style="bold")
            who.append(f"Your games are kept under your key {player.key_hint}. "
                       f"Others see you as {app.lobby.label(app)}.")
        self.query_one("#lobby-who", Static).update(who)
        self._load_solo()
        self.refresh_lobby()
        self.query_one(OptionList).focus()
        if not app.auto_returned:
            app.auto_returned = True
            game_id = app.lobby.absent_seat(player)
            if game_id is not None:  # back after a dropped connection: straight to the seat
                self.call_after_refresh(self._return, game_id)

    def on_screen_resume(self) -> None:
        self._load_solo()
        self.refresh_lobby()

    def _load_solo(self) -> None:
        """The solo games in progress, and how the newest is named (a lesson by its name)."""
        self._solo = lobby_host(self).unfinished_solo()
        title = game_title(self._solo[0]) if self._solo else ""
        self._solo_what = f"your last game ({title})" if self._solo and title == self._solo[0].game_id else title

    def _return(self, game_id: str) -> None:
        error = lobby_host(self).return_to_table(game_id)
        if error:
            self.say(error)

    def say(self, text: str) -> None:
        """Show ``text`` under the options."""
        self.query_one("#lobby-message", Label).update(text)

    def _refresh_lobby(self) -> None:
        app = lobby_host(self)
        lobby = app.lobby
        options: list[Option] = []
        absent = lobby.absent_seat(app.player)
        if absent is not None:
            options.append(Option(f"c  Return to your seat at {absent}", id="continue"))
        elif self._solo:
            options.append(Option(f"c  Continue {self._solo_what}", id="continue"))
        options.append(Option("n  New game against bots", id="new"))
        mine = len(self._solo) + len(lobby.my_tables(app.player))
        options.append(Option(f"r  Resume my games ({mine})", id="resume"))
        options.append(Option("t  Create a table for several players", id="create"))
        open_tables = len(lobby.open_tables())
        options.append(Option(f"j  Join a table ({open_tables} open)", id="join"))
        if lobby.spectators.enabled:
            options.append(Option(f"w  Watch a game ({len(lobby.watchable())} playing)", id="watch"))
        options.append(Option("k  Your name and keys", id="names"))
        options.append(Option("l  Learn to play (a guided first game)", id="learn"))
        if lobby.daily is not None:
            options.append(Option("d  Daily deal: the same deal for everyone, once a day (UTC)", id="daily"))
            options.append(Option("b  Daily board: the day's and the week's scores", id="board"))
        options.append(Option("?  Help and rules", id="help"))
        options.append(Option("q  Quit", id="quit"))
        self.refill(self.query_one("#lobby-list", OptionList), options)
        self.query_one("#lobby-players-text", Static).update(who_is_playing(lobby.snapshot()))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        actions = {"continue": self.action_continue, "new": self.action_new, "resume": self.action_resume,
                   "create": self.action_create, "join": self.action_join, "watch": self.action_watch,
                   "names": self.action_names, "learn": self.action_learn, "help": lobby_host(self).action_help,
                   "daily": self.action_daily, "board": self.action_board,
                   "quit": self.app.exit}
        actions[str(event.option.id)]()

    def action_names(self) -> None:
        """Your name and keys: add another key to your name."""
        self.app.push_screen(NamesScreen())

    def action_continue(self) -> None:
        """Return to a shared table, else continue the newest solo game."""
        app = lobby_host(self)
        absent = app.lobby.absent_seat(app.player)
        if absent is not None:
            self._return(absent)
            return
        self._solo = app.unfinished_solo()
        if not self._solo:
            self.say(app.games_problem or "There is no unfinished game.")
            return
        try:
            app.resume_game(self._solo[0].path)
        except Exception as exc:  # a damaged file or a game open elsewhere
            self.say(f"Cannot continue: {exc}")

    def action_new(self) -> None:
        """A new solo game against bots."""
        # The name goes in with the form, not after it is shown: a later fill
        # overwrote what the player had typed or pasted meanwhile.
        self.app.push_screen(NewGameScreen(name=lobby_host(self).player.name))

    def action_learn(self) -> None:
        """The guided first game against a scripted Easy."""
        try:
            lobby_host(self).start_tutorial()
        except Exception as exc:  # the store or the database refused
            self.say(f"Cannot start the tutorial: {exc}")

    def action_resume(self) -> None:
        """Every unfinished game of mine: solo and at shared tables."""
        self.app.push_screen(MyGamesScreen())

    def action_create(self) -> None:
        """Open a table for several players."""
        self.app.push_screen(CreateTableScreen())

    def action_join(self) -> None:
        """Join a table that waits for players."""
        self.app.push_screen(JoinScreen())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The daily deal's and the watch's keys only where the server offers them."""
        if action in ("daily", "board"):
            return lobby_host(self).lobby.daily is not None
        if action == "watch":
            return lobby_host(self).lobby.spectators.enabled
        return True

    def action_daily(self) -> None:
        """Play today's daily deal (refused in one line if played already)."""
        error = lobby_host(self).start_daily()
        if error:
            self.say(error)

    def action_board(self) -> None:
        """The daily deal's boards of the day and of the week."""
        self.app.push_screen(DailyBoardScreen())

    def action_watch(self) -> None:
        """Watch a game being played (session/spectators.py)."""
        self.app.push_screen(WatchListScreen())
