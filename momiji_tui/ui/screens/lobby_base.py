"""What the lobby's screens share: they redraw from the lobby's state when
it changes (the app's ``lobby_changed`` Signal) while in view, and when they
come back into view."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import Footer, Label, OptionList, Static
from textual.widgets.option_list import Option

from ..models.host import lobby_host


class LobbyListScreen(Screen[None]):
    """A screen drawn from the lobby's state; subclasses write
    ``_refresh_lobby`` and call ``listen_to_lobby`` in ``on_mount``."""

    def listen_to_lobby(self) -> None:
        """Redraw on every change of the lobby from now on (while in view)."""
        lobby_host(self).lobby_changed.subscribe(self, self._lobby_changed)

    def on_screen_resume(self) -> None:
        self.refresh_lobby()

    def _lobby_changed(self, _: None) -> None:
        """The lobby's lists changed: redraw while in view (else on resume)."""
        if self.is_active:
            self.refresh_lobby()

    def refresh_lobby(self) -> None:
        """Redraw from the lobby's state (quietly skipped while not composed)."""
        try:
            self._refresh_lobby()
        except NoMatches:  # not composed yet, or already being removed
            pass

    def _refresh_lobby(self) -> None:
        raise NotImplementedError

    @staticmethod
    def refill(menu: OptionList, options: list[Option]) -> list[str | None]:
        """Replace ``menu``'s options by ``options``, keeping the highlight
        on the option of the same id if it is still there (else the first);
        returns the options' ids. Raises nothing."""
        highlighted = menu.highlighted_option.id if menu.highlighted_option is not None else None
        menu.clear_options()
        menu.add_options(options)
        ids = [option.id for option in options]
        if ids:
            menu.highlighted = ids.index(highlighted) if highlighted in ids else 0
        return ids


class LobbyPickScreen(LobbyListScreen):
    """A titled list of the lobby's (tables to join, games to watch) with a
    message line under it; Esc goes back. Subclasses set ``TITLE_TEXT`` and
    ``PREFIX`` (the ids ``#<PREFIX>-box``, ``-list``, ``-message`` the
    styles use), fill the list in ``_refresh_lobby`` and handle its choice."""

    TITLE_TEXT: ClassVar[str] = ""
    PREFIX: ClassVar[str] = ""

    def compose(self) -> ComposeResult:
        with Vertical(id=f"{self.PREFIX}-box"):
            yield Static(self.TITLE_TEXT, classes="title")
            yield OptionList(id=f"{self.PREFIX}-list")
            yield Label("", id=f"{self.PREFIX}-message")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        if lobby_host(self).exiting:  # the session ended while this screen was composed
            return
        self.listen_to_lobby()
        self.refresh_lobby()
        self.query_one(OptionList).focus()

    def say(self, text: str) -> None:
        """Show ``text`` on the message line under the list."""
        self.query_one(f"#{self.PREFIX}-message", Label).update(text)

    def action_back(self) -> None:
        """Back to the lobby."""
        self.app.pop_screen()
