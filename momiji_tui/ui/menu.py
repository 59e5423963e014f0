"""The start menu and the new-game form."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Footer, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from ..session.saves import latest_unfinished_game
from ..store.errors import StoreError
from .app import BOT_SPEEDS, MomijiApp, NewGameOptions, bot_speed_name
from .sizing import SizedScreen, SizeNotice

LOGO = "紅葉  M O M I J I"


class MenuScreen(SizedScreen):
    """Continue, new game, saved games, help, quit."""

    MIN_SIZE = (40, 12)
    BINDINGS = [
        Binding("n", "new", "New game", id="menu.new"),
        Binding("c", "continue", "Continue", id="menu.continue"),
        Binding("s", "saved", "Saved games", id="menu.saved"),
        Binding("q", "app.quit", "Quit", id="menu.quit"),
    ]

    def compose(self) -> ComposeResult:
        yield SizeNotice()
        with Vertical(id="menu-box"):
            yield Static(LOGO, id="logo")
            yield Static("Collect autumn leaves, build piles, close them with torii.", id="tagline")
            yield OptionList(id="menu-list")
            yield Label("", id="menu-message")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.refresh_menu()

    def on_screen_resume(self) -> None:
        self.refresh_menu()

    def _unfinished(self):
        """The game in progress played last (checked by the rules), as a list of 0 or 1."""
        app = self.app
        assert isinstance(app, MomijiApp)
        try:
            latest = latest_unfinished_game(app.data_dir)
        except (OSError, StoreError):
            return []
        return [] if latest is None else [latest]

    def refresh_menu(self) -> None:
        menu = self.query_one("#menu-list", OptionList)
        menu.clear_options()
        self.query_one("#menu-message", Label).update("")
        unfinished = self._unfinished()
        if unfinished:
            menu.add_option(Option(f"c  Continue your last game ({unfinished[0].game_id})", id="continue"))
        menu.add_option(Option("n  New game", id="new"))
        menu.add_option(Option("s  Saved games", id="saved"))
        menu.add_option(Option("?  Help and rules", id="help"))
        menu.add_option(Option("q  Quit", id="quit"))
        menu.highlighted = 0
        menu.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        action = {"continue": self.action_continue, "new": self.action_new, "saved": self.action_saved,
                  "help": self.app.action_help, "quit": self.app.exit}[event.option.id]
        action()

    def action_new(self) -> None:
        """Open the new-game form."""
        self.app.push_screen(NewGameScreen())

    def action_continue(self) -> None:
        """Resume the unfinished game played last (a game that cannot be
        opened, e.g. open in another terminal, is explained instead)."""
        unfinished = self._unfinished()
        message = self.query_one("#menu-message", Label)
        if not unfinished:
            message.update("There is no unfinished game.")
            return
        app = self.app
        assert isinstance(app, MomijiApp)
        try:
            app.resume_game(unfinished[0].path)
        except (StoreError, OSError) as exc:
            message.update(f"Cannot continue: {exc}")

    def action_saved(self) -> None:
        """Browse saved games."""
        from .saved import SavedGamesScreen

        self.app.push_screen(SavedGamesScreen())


class NewGameScreen(SizedScreen):
    """Seats, bot level, landscapes, bot speed, memory mode and seed."""

    MIN_SIZE = (50, 14)
    # Focused by Textual when the screen is shown, never on a form already
    # dismissed: an on_mount query_one("#start") crashed (NoMatches) when Esc
    # or quitting was handled before the form had mounted.
    AUTO_FOCUS = "#start"
    BINDINGS = [
        Binding("escape", "back", "Back", id="new.back"),
        Binding("ctrl+s", "start", "Start", id="new.start"),
    ]

    def compose(self) -> ComposeResult:
        app = self.app
        assert isinstance(app, MomijiApp)
        yield SizeNotice()
        with Vertical(id="new-box"):
            yield Static("New game", classes="title")
            with Horizontal(classes="field"):
                yield Label("Your name", classes="field-label")
                yield Input(value="You", id="name", max_length=16, compact=True)
            with Horizontal(classes="field"):
                yield Label("Seats", classes="field-label")
                yield Select([("2 — you and 1 bot", 2), ("3 — you and 2 bots", 3), ("4 — you and 3 bots", 4)],
                             value=2, allow_blank=False, compact=True, id="seats")
            with Horizontal(classes="field"):
                yield Label("Bots", classes="field-label")
                yield Select([("Easy", "easy"), ("Normal", "normal"), ("Hard", "hard")],
                             value="normal", allow_blank=False, compact=True, id="level")
            with Horizontal(classes="field"):
                yield Label("Landscapes", classes="field-label")
                yield Select([("Starter panorama", "starter"), ("Draft (RULES §2.1)", "draft")],
                             value="starter", allow_blank=False, compact=True, id="landscapes")
            with Horizontal(classes="field"):
                yield Label("Bot speed", classes="field-label")
                yield Select([(f"{name.capitalize()}" + (f" ({secs:g} s a move)" if secs else " (no pause)"), name)
                              for name, secs in BOT_SPEEDS.items()],
                             value=bot_speed_name(app.bot_delay), allow_blank=False, compact=True, id="speed")
            with Horizontal(classes="field"):
                yield Label("Memory mode", classes="field-label")
                yield Select([("Off: piles show every card", False),
                              ("On: only top cards (RULES §8)", True)],
                             value=app.memory_mode, allow_blank=False, compact=True, id="memory")
            with Horizontal(classes="field"):
                yield Label("Seed", classes="field-label")
                yield Input(placeholder="random", id="seed", restrict=r"[0-9]*", max_length=9, compact=True)
            yield Button("Start  (ctrl+s)", id="start", variant="primary", compact=True)
            yield Label("", id="new-message")
        yield Footer(compact=True)

    def options(self) -> NewGameOptions:
        """The form's values."""
        seed_text = self.query_one("#seed", Input).value.strip()
        return NewGameOptions(
            name=self.query_one("#name", Input).value.strip()[:16] or "You",
            seats=int(self.query_one("#seats", Select).value),  # type: ignore[arg-type]
            bot_level=str(self.query_one("#level", Select).value),
            landscape_mode=str(self.query_one("#landscapes", Select).value),
            seed=int(seed_text) if seed_text else None,
            bot_delay=BOT_SPEEDS[str(self.query_one("#speed", Select).value)],
            memory=bool(self.query_one("#memory", Select).value),
        )

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_start()

    def action_start(self) -> None:
        """Start the game with the form's values."""
        app = self.app
        assert isinstance(app, MomijiApp)
        try:
            app.start_game(self.options())
        except StoreError as exc:  # disk full, read-only…: the store's message says what failed
            self.query_one("#new-message", Label).update(str(exc))
        except (OSError, ValueError) as exc:
            self.query_one("#new-message", Label).update(f"Could not start: {exc}")

    def action_back(self) -> None:
        """Back to the menu."""
        self.app.pop_screen()
