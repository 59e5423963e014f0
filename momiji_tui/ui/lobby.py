"""The lobby: the first screen of a player who comes in over SSH.

From here a player starts a solo game against bots, resumes their games,
opens a table for several players (each other seat open for a player or
given to a bot), joins an open table, and sees who is playing. The lobby's
state lives in :class:`momiji_tui.session.lobby.Lobby` (one per server);
this module only shows it and sends it requests.

A :class:`LobbyApp` is a :class:`MomijiApp` whose start screen is the lobby
and whose saves go to its player's own folder. At a shared table it renders
its own seat only; other players' moves reach it as ``TableChanged``
messages (posted by the table's listener, whichever app made the move), and
lobby news reaches it as :class:`LobbyEventMessage` (posted by the lobby).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.css.query import NoMatches
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from ..session.lobby import (
    IN_LOBBY, Dissolved, Lobby, LobbyError, LobbyEvent, LobbySnapshot, Player, Seated, SeatNews,
    SharedTable,
)
from ..session.presence import waiting_with_others
from ..store import IN_PROGRESS, SavedGame, list_games
from ..store.errors import StoreError
from .app import MomijiApp, NewGameOptions
from .paths import styles_dir, stylesheets

LOGO = "紅葉  M O M I J I  ·  over SSH"
GUEST_NOTE = ("You came in as a guest (no SSH key). Your games are saved, but a guest cannot "
              "come back to them: connect with a key to keep them.")


class LobbyEventMessage(Message):
    """News from the lobby, delivered in this app's own context."""

    def __init__(self, event: LobbyEvent) -> None:
        super().__init__()
        self.event = event


class LobbyApp(MomijiApp):
    """The game for one SSH session: lobby first, saves in the player's folder.

    ``lobby``: the server's lobby. ``player``: who this session is.
    ``bot_delay``/``make_bot`` as for :class:`MomijiApp`.
    """

    CSS_PATH = [*stylesheets(), styles_dir() / "lobby.tcss"]

    def __init__(self, lobby: Lobby, player: Player, *, bot_delay: float = 0.6,
                 make_bot: Callable[..., object] | None = None) -> None:
        super().__init__(lobby.player_dir(player), bot_delay=bot_delay, make_bot=make_bot, hosted=True)
        self.lobby = lobby
        self.player = player
        self.auto_returned = False
        self.exiting = False
        self._lobby_redraw_pending = False

    def start_screen(self) -> Screen:
        return LobbyScreen()

    def exit(self, *args: Any, **kwargs: Any) -> None:
        """Exit; from now on ``exiting`` is True (the server calls this when the
        client leaves, possibly while a screen is still being composed)."""
        self.exiting = True
        super().exit(*args, **kwargs)

    def on_mount(self) -> None:
        self.lobby.enter(self)

    def on_unmount(self) -> None:
        self.close_table()
        self.lobby.exit(self)

    def waiting_with_others(self) -> bool:
        """For the SSH server's idle timeout: True while others wait with us."""
        return waiting_with_others(self.lobby, self, self.table)

    # ------------------------------------------------------------ lobby news
    def lobby_event(self, event: LobbyEvent) -> None:
        """Called by the lobby (possibly from another app's handler): queue only."""
        self.post_message(LobbyEventMessage(event))

    def on_lobby_event_message(self, message: LobbyEventMessage) -> None:
        event = message.event
        if isinstance(event, Seated):
            if self.table is not event.table:
                self.open_table(event.table, event.seat)
                self.notify("Every seat is taken: the game begins.")
        elif isinstance(event, Dissolved):
            if isinstance(self.screen, WaitingScreen):
                self.pop_screen()
            self.notify(event.reason, severity="warning")
        elif isinstance(event, SeatNews) and self.table is event.table:
            self.notify(event.text)
            refresh = getattr(self.screen, "refresh_table", None)
            if refresh is not None:
                refresh([])
            self.drive_bots()  # a bot may have to move now (or its runner left)
        # Redraw lobby lists once per frame however many changes arrive, and
        # only on the screen in view (the others redraw when they come back).
        if not self._lobby_redraw_pending:
            self._lobby_redraw_pending = True
            self.call_after_refresh(self._redraw_lobby)

    def _redraw_lobby(self) -> None:
        self._lobby_redraw_pending = False
        refresh_lobby = getattr(self.screen, "refresh_lobby", None)
        if refresh_lobby is not None:
            refresh_lobby()

    # ----------------------------------------------------------------- games
    def start_game(self, options: NewGameOptions) -> None:
        super().start_game(options)
        if self.table is not None and self.table.log is not None:
            self.lobby.claim_file(self, self.table.log.path)
        self.lobby.set_activity(self, _solo_activity(options.seats - 1))

    def resume_game(self, path: str | os.PathLike[str]) -> None:
        """Resume a solo game of this player (never one open in another session)."""
        if not self.lobby.claim_file(self, path):
            raise LobbyError("That game is open in another of your sessions.")
        try:
            super().resume_game(path)
        except BaseException:
            self.lobby.release_file(self, path)
            raise
        if self.table is not None:
            self.lobby.set_activity(self, _solo_activity(sum(s.is_bot for s in self.table.seats)))

    def return_to_table(self, game_id: str) -> str | None:
        """Sit back down at a shared game; returns why not, or None."""
        try:
            table, seat = self.lobby.return_to(self, game_id)
        except LobbyError as exc:
            return str(exc)
        self.open_table(table, seat)
        return None

    def close_table(self) -> None:
        table = self.table
        super().close_table()
        if table is None:
            return
        if isinstance(table, SharedTable):
            self.lobby.leave_table(self, table)
        elif table.log is not None:
            self.lobby.release_file(self, table.log.path)
        self.lobby.set_activity(self, IN_LOBBY)

    def unfinished_solo(self) -> list[SavedGame]:
        """This player's solo games in progress, newest first."""
        try:
            return [g for g in list_games(self.data_dir) if g.status == IN_PROGRESS]
        except (OSError, StoreError):
            return []


def _solo_activity(bots: int) -> str:
    return f"solo game against {bots} bot{'s' if bots != 1 else ''}"


def _lobby_app(screen: Screen) -> LobbyApp:
    app = screen.app
    assert isinstance(app, LobbyApp)
    return app


def who_is_playing(snapshot: LobbySnapshot) -> Text:
    """The "who is playing" panel: tables first, then every player online."""
    t = Text()
    t.append(f"Who is playing · {len(snapshot.players)} online\n", style="bold")
    marks = {"here": "", "away": " (away)", "bot": " (bot)", "bot for": " (away, a bot plays)", "open": ""}
    for info in snapshot.tables:
        label = f"table {info.table_id}" if info.state == "waiting" else info.table_id
        t.append(f"  {label}", style="bold")
        if info.state == "waiting":
            t.append(f" waiting for {info.open_seats} player{'s' if info.open_seats != 1 else ''}: ",
                     style="italic")
        else:
            t.append(f" {info.detail}: ", style="italic")
        t.append(" · ".join(f"{name}{marks.get(status, '')}" if status != "open" else "(open seat)"
                            for name, status in info.seats))
        t.append("\n")
    for name, activity in snapshot.players:
        t.append(f"  {name}", style="bold")
        t.append(f" — {activity}\n", style="dim")
    return t


class LobbyScreen(Screen[None]):
    """New solo game, resume, create or join a table, who is playing."""

    BINDINGS = [
        Binding("c", "continue", "Continue", id="lobby.continue"),
        Binding("n", "new", "New game", id="lobby.new"),
        Binding("r", "resume", "My games", id="lobby.resume"),
        Binding("t", "create", "Create table", id="lobby.create"),
        Binding("j", "join", "Join table", id="lobby.join"),
        Binding("q", "app.quit", "Quit", id="lobby.quit"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._solo: list[SavedGame] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="lobby-box"):
            yield Static(LOGO, id="lobby-logo")
            yield Static(id="lobby-who")
            yield OptionList(id="lobby-list")
            yield Label("", id="lobby-message")
            with VerticalScroll(id="lobby-players"):
                yield Static(id="lobby-players-text")
        yield Footer()

    def on_mount(self) -> None:
        if _lobby_app(self).exiting:  # the session ended while this screen was composed
            return
        app = _lobby_app(self)
        player = app.player
        who = Text()
        who.append(f"Welcome, {player.name}. ", style="bold")
        if player.is_guest:
            who.append(GUEST_NOTE, style="italic")
        else:
            who.append(f"Your games are kept under your key {player.key_hint}. "
                       f"Others see you as {app.lobby.label(app)}.")
        self.query_one("#lobby-who", Static).update(who)
        self._solo = app.unfinished_solo()
        self.refresh_lobby()
        self.query_one(OptionList).focus()
        if not app.auto_returned:
            app.auto_returned = True
            game_id = app.lobby.absent_seat(player)
            if game_id is not None:  # back after a dropped connection: straight to the seat
                self.call_after_refresh(self._return, game_id)

    def on_screen_resume(self) -> None:
        self._solo = _lobby_app(self).unfinished_solo()
        self.refresh_lobby()

    def _return(self, game_id: str) -> None:
        error = _lobby_app(self).return_to_table(game_id)
        if error:
            self.say(error)

    def say(self, text: str) -> None:
        self.query_one("#lobby-message", Label).update(text)

    def refresh_lobby(self) -> None:
        """Redraw the options and who is playing from the lobby's state."""
        try:
            self._refresh_lobby()
        except NoMatches:  # not composed yet, or already being removed
            pass

    def _refresh_lobby(self) -> None:
        app = _lobby_app(self)
        lobby = app.lobby
        menu = self.query_one("#lobby-list", OptionList)
        highlighted = menu.highlighted_option.id if menu.highlighted_option is not None else None
        menu.clear_options()
        absent = lobby.absent_seat(app.player)
        if absent is not None:
            menu.add_option(Option(f"c  Return to your seat at {absent}", id="continue"))
        elif self._solo:
            menu.add_option(Option(f"c  Continue your last game ({self._solo[0].game_id})", id="continue"))
        menu.add_option(Option("n  New game against bots", id="new"))
        mine = len(self._solo) + len(lobby.my_tables(app.player))
        menu.add_option(Option(f"r  Resume my games ({mine})", id="resume"))
        menu.add_option(Option("t  Create a table for several players", id="create"))
        open_tables = len(lobby.open_tables())
        menu.add_option(Option(f"j  Join a table ({open_tables} open)", id="join"))
        menu.add_option(Option("?  Help and rules", id="help"))
        menu.add_option(Option("q  Quit", id="quit"))
        ids = [menu.get_option_at_index(i).id for i in range(menu.option_count)]
        menu.highlighted = ids.index(highlighted) if highlighted in ids else 0
        self.query_one("#lobby-players-text", Static).update(who_is_playing(lobby.snapshot()))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        actions = {"continue": self.action_continue, "new": self.action_new, "resume": self.action_resume,
                   "create": self.action_create, "join": self.action_join, "help": self.app.action_help,
                   "quit": self.app.exit}
        actions[str(event.option.id)]()

    def action_continue(self) -> None:
        """Return to a shared table, else continue the newest solo game."""
        app = _lobby_app(self)
        absent = app.lobby.absent_seat(app.player)
        if absent is not None:
            self._return(absent)
            return
        self._solo = app.unfinished_solo()
        if not self._solo:
            self.say("There is no unfinished game.")
            return
        try:
            app.resume_game(self._solo[0].path)
        except Exception as exc:  # a damaged file or a game open elsewhere
            self.say(f"Cannot continue: {exc}")

    def action_new(self) -> None:
        """A new solo game against bots."""
        from .menu import NewGameScreen

        screen = NewGameScreen()
        self.app.push_screen(screen)
        name = _lobby_app(self).player.name

        def use_player_name() -> None:
            try:
                screen.query_one("#name", Input).value = name
            except NoMatches:  # the form changed: its own default stays
                pass

        screen.call_after_refresh(use_player_name)

    def action_resume(self) -> None:
        """Every unfinished game of mine: solo and at shared tables."""
        self.app.push_screen(MyGamesScreen())

    def action_create(self) -> None:
        """Open a table for several players."""
        self.app.push_screen(CreateTableScreen())

    def action_join(self) -> None:
        """Join a table that waits for players."""
        self.app.push_screen(JoinScreen())


class MyGamesScreen(Screen[None]):
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
        yield Footer()

    def on_mount(self) -> None:
        if _lobby_app(self).exiting:  # the session ended while this screen was composed
            return
        self._solo = _lobby_app(self).unfinished_solo()
        self.refresh_lobby()
        self.query_one(OptionList).focus()

    def on_screen_resume(self) -> None:
        self.refresh_lobby()

    def refresh_lobby(self) -> None:
        try:
            self._refresh_lobby()
        except NoMatches:  # not composed yet, or already being removed
            pass

    def _refresh_lobby(self) -> None:
        app = _lobby_app(self)
        menu = self.query_one(OptionList)
        menu.clear_options()
        self.entries = []
        for table in app.lobby.my_tables(app.player):
            others = ", ".join(n for i, n in enumerate(table.names) if i != table.seat)
            where = " (open in another session)" if table.here else ""
            menu.add_option(Option(f"{table.game_id}  shared, with {others}{where}"))
            self.entries.append(("shared", table.game_id))
        for game in self._solo:
            names = ", ".join(s.get("name", "?") for s in (game.header or {}).get("seats", []))
            menu.add_option(Option(f"{game.game_id}  solo: {names}"))
            self.entries.append(("solo", str(game.path)))
        if not self.entries:
            self.query_one("#mygames-message", Label).update("No unfinished games.")
        else:
            menu.highlighted = 0

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        app = _lobby_app(self)
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
        self.app.pop_screen()


class CreateTableScreen(Screen[None]):
    """Seats (you and 1–3 others), how many are open for players, bot level,
    landscapes. No seed: a shared deal is secret (RULES §2.2, session/deal_seed.py)."""

    BINDINGS = [
        Binding("escape", "back", "Back", id="create.back"),
        Binding("ctrl+s", "start", "Open the table", id="create.start"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="create-box"):
            yield Static("Create a table", classes="title")
            with Horizontal(classes="field"):
                yield Label("Seats", classes="field-label")
                yield Select([("2 seats", 2), ("3 seats", 3), ("4 seats", 4)], value=2,
                             allow_blank=False, id="create-seats")
            with Horizontal(classes="field"):
                yield Label("Players", classes="field-label")
                yield Select([("you + 1 player (other seats: bots)", 1), ("you + 2 players", 2),
                              ("you + 3 players", 3)], value=1, allow_blank=False, id="create-players")
            with Horizontal(classes="field"):
                yield Label("Bots", classes="field-label")
                yield Select([("Easy", "easy"), ("Normal", "normal"), ("Hard", "hard")], value="normal",
                             allow_blank=False, id="create-level")
            with Horizontal(classes="field"):
                yield Label("Landscapes", classes="field-label")
                yield Select([("Starter panorama", "starter"), ("Draft (RULES §2.1)", "draft")],
                             value="starter", allow_blank=False, id="create-landscapes")
            yield Button("Open the table  (ctrl+s)", id="create-start", variant="primary")
            yield Label("", id="create-message")
        yield Footer()

    def on_mount(self) -> None:
        if _lobby_app(self).exiting:  # the session ended while this screen was composed
            return
        self.query_one("#create-start", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "create-start":
            self.action_start()

    def action_start(self) -> None:
        """Open the table and wait for players."""
        app = _lobby_app(self)
        seats = int(self.query_one("#create-seats", Select).value)  # type: ignore[arg-type]
        players = int(self.query_one("#create-players", Select).value)  # type: ignore[arg-type]
        message = self.query_one("#create-message", Label)
        if players > seats - 1:
            message.update(f"{seats} seats leave room for at most {seats - 1} other players.")
            return
        others = ["human"] * players + ["bot"] * (seats - 1 - players)
        try:
            pending = app.lobby.create_table(
                app, others, bot_level=str(self.query_one("#create-level", Select).value),
                landscape_mode=str(self.query_one("#create-landscapes", Select).value))
        except LobbyError as exc:
            message.update(str(exc))
            return
        self.app.switch_screen(WaitingScreen(pending.table_id))

    def action_back(self) -> None:
        self.app.pop_screen()


class JoinScreen(Screen[None]):
    """Tables that wait for players; Enter takes a seat."""

    BINDINGS = [Binding("escape", "back", "Back", id="join.back")]

    def compose(self) -> ComposeResult:
        with Vertical(id="join-box"):
            yield Static("Join a table", classes="title")
            yield OptionList(id="join-list")
            yield Label("", id="join-message")
        yield Footer()

    def on_mount(self) -> None:
        if _lobby_app(self).exiting:  # the session ended while this screen was composed
            return
        self.refresh_lobby()
        self.query_one(OptionList).focus()

    def on_screen_resume(self) -> None:
        self.refresh_lobby()

    def refresh_lobby(self) -> None:
        try:
            self._refresh_lobby()
        except NoMatches:  # not composed yet, or already being removed
            pass

    def _refresh_lobby(self) -> None:
        lobby = _lobby_app(self).lobby
        menu = self.query_one(OptionList)
        highlighted = menu.highlighted_option.id if menu.highlighted_option is not None else None
        menu.clear_options()
        tables = lobby.open_tables()
        for p in tables:
            names = " · ".join(s.name if s.name else "(open seat)" for s in p.seats)
            menu.add_option(Option(f"{p.table_id}  {names}  [{p.landscape_mode}]", id=p.table_id))
        ids = [p.table_id for p in tables]
        if ids:
            menu.highlighted = ids.index(highlighted) if highlighted in ids else 0
        self.query_one("#join-message", Label).update("" if ids else "No table is waiting for players. "
                                                      "Create one from the lobby (t).")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        app = _lobby_app(self)
        table_id = str(event.option.id)
        try:
            app.lobby.join_table(app, table_id)
        except LobbyError as exc:
            self.query_one("#join-message", Label).update(str(exc))
            return
        if table_id in app.lobby.pending:  # else the table is full and the game is opening
            self.app.switch_screen(WaitingScreen(table_id))

    def action_back(self) -> None:
        self.app.pop_screen()


class WaitingScreen(Screen[None]):
    """A table waiting for players; the game opens by itself when it is full."""

    BINDINGS = [Binding("escape", "leave", "Leave the table", id="waiting.leave")]

    def __init__(self, table_id: str) -> None:
        super().__init__()
        self.table_id = table_id

    def compose(self) -> ComposeResult:
        with Vertical(id="waiting-box"):
            yield Static(f"Table {self.table_id}", classes="title")
            yield Static(id="waiting-seats")
            yield Static("The game begins as soon as every open seat is taken. Esc leaves the table.",
                         classes="hint")
        yield Footer()

    def on_mount(self) -> None:
        if _lobby_app(self).exiting:  # the session ended while this screen was composed
            return
        self.refresh_lobby()

    def on_screen_resume(self) -> None:
        self.refresh_lobby()

    def refresh_lobby(self) -> None:
        try:
            self._refresh_lobby()
        except NoMatches:  # not composed yet, or already being removed
            pass

    def _refresh_lobby(self) -> None:
        lobby = _lobby_app(self).lobby
        pending = lobby.pending.get(self.table_id)
        seats = self.query_one("#waiting-seats", Static)
        if pending is None:
            seats.update("This table is no longer waiting.")
            return
        t = Text(f"Waiting for {pending.open_seats} more player{'s' if pending.open_seats != 1 else ''}\n",
                 style="bold")
        for i, s in enumerate(pending.seats, 1):
            t.append(f"  seat {i}: ")
            if s.kind == "bot":
                t.append(f"{s.name} — bot\n")
            elif s.member is None:
                t.append("(open for a player)\n", style="italic")
            else:
                t.append(f"{s.name}\n", style="bold")
        seats.update(t)

    def action_leave(self) -> None:
        """Leave (the creator closes the table)."""
        app = _lobby_app(self)
        app.lobby.leave_pending(app)
        self.app.pop_screen()
