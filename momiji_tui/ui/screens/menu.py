"""The start menu: continue, new game, saved games, learn to play, help, quit."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Footer, Label, OptionList, Static
from textual.widgets.option_list import Option

from ...session.saves import game_title
from ...session.tutorial import LESSON_TITLE
from ...store import SavedGame, delete_game
from ...store.errors import StoreError
from ..models.host import host
from ..models.choice import Choice
from .choice import ChoiceScreen
from .new_game import NewGameScreen
from .saved import SavedGamesScreen
from .sized import SizedScreen, SizeNotice

LOGO = "紅葉  M O M I J I"


class MenuScreen(SizedScreen):
    """Continue, new game, saved games, help, quit."""

    MIN_SIZE = (40, 12)
    #: Whether the data dir holds an unfinished game (set by ``refresh_menu``).
    has_unfinished = False
    # Short footer labels (the list above says each in full): at 50 columns
    # "q Quit" and "? Help" stay in view beside the palette's key.
    BINDINGS = [
        Binding("n", "new", "New", id="menu.new"),
        Binding("c", "continue", "Continue", id="menu.continue"),
        Binding("s", "saved", "Saved", id="menu.saved"),
        Binding("l", "learn", "Learn to play", show=False, id="menu.learn"),  # the list says it: the footer is full
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

    def on_screen_resume(self) -> None:  # also when first shown: the saves are looked at once
        self.refresh_menu()

    def _unfinished(self) -> list[SavedGame]:
        """The game in progress played last (checked by the rules), as a list of 0 or 1."""
        return host(self).unfinished_solo()[:1]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``c Continue`` is offered (in the footer too) only when there is an
        unfinished game to continue."""
        if action == "continue":
            return self.has_unfinished
        return True

    def refresh_menu(self) -> None:
        """The options, with *Continue* when there is an unfinished game."""
        menu = self.query_one("#menu-list", OptionList)
        menu.clear_options()
        self.query_one("#menu-message", Label).update("")
        unfinished = self._unfinished()
        self.has_unfinished = bool(unfinished)
        self.refresh_bindings()
        if unfinished:
            title = game_title(unfinished[0])
            what = f"your last game ({title})" if title == unfinished[0].game_id else title  # a lesson by its name
            menu.add_option(Option(f"c  Continue {what}", id="continue"))
        menu.add_option(Option("n  New game", id="new"))
        menu.add_option(Option("s  Saved games", id="saved"))
        menu.add_option(Option("l  Learn to play (a guided first game)", id="learn"))
        menu.add_option(Option("?  Help and rules", id="help"))
        menu.add_option(Option("q  Quit", id="quit"))
        menu.highlighted = 0
        menu.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        action = {"continue": self.action_continue, "new": self.action_new, "saved": self.action_saved,
                  "learn": self.action_learn,
                  "help": host(self).action_help, "quit": self.app.exit}[str(event.option.id)]
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
        self._resume(unfinished[0])

    def action_learn(self) -> None:
        """Start the guided first game (a game that cannot be saved is
        explained); with one in progress, offer to continue it or to start
        again in its place (the one in progress deleted)."""
        lessons = [(g, game_title(g)) for g in host(self).unfinished_solo()]
        lessons = [(g, title) for g, title in lessons if title.startswith(LESSON_TITLE)]
        if not lessons:
            self._start_tutorial()
            return
        game, title = lessons[0]

        def chosen(value: object) -> None:
            if value == "continue":
                self._resume(game)
            elif value == "again":
                try:
                    delete_game(host(self).data_dir, game.game_id)
                except (StoreError, OSError) as exc:
                    self.query_one("#menu-message", Label).update(f"Cannot start again: {exc}")
                    return
                self._start_tutorial()

        self.app.push_screen(ChoiceScreen(f"A lesson game is in progress ({title})", [
            Choice("c", f"Continue it ({title})", "continue"),
            Choice("n", "Start again from lesson 1 (the game in progress is deleted)", "again"),
        ]), chosen)

    def _start_tutorial(self) -> None:
        try:
            host(self).start_tutorial()
        except (StoreError, OSError) as exc:
            self.query_one("#menu-message", Label).update(f"Cannot start the tutorial: {exc}")

    def _resume(self, game: SavedGame) -> None:
        try:
            host(self).resume_game(game.path)
        except (StoreError, OSError) as exc:
            self.query_one("#menu-message", Label).update(f"Cannot continue: {exc}")

    def action_saved(self) -> None:
        """Browse saved games."""
        self.app.push_screen(SavedGamesScreen())
