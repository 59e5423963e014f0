"""Your name and keys (over SSH): the name this server keeps for your key,
a one-time code that adds another key to it, and the field where the other
key's session types that code (``session/bound_names.py``)."""

from __future__ import annotations

import logging

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Input, OptionList, Static
from textual.widgets.option_list import Option

from ...safe_text import safe_text
from ..models.host import lobby_host
from ..widgets.form_input import FormInput

log = logging.getLogger("momiji_tui.lobby")

STORE_FAILED = "The server cannot reach its names now: try again later."


class NamesScreen(Screen[None]):
    """The name bound to this session's key; make or type a one-time code."""

    BINDINGS = [Binding("escape", "back", "Back", id="names.back")]

    def compose(self) -> ComposeResult:
        app = lobby_host(self)
        names = app.names
        with Vertical(id="names-box"):
            yield Static("Your name and keys", classes="title")
            yield Static(self._about(), id="names-about", markup=False)  # names come from the store
            if names is not None and names.fingerprint is not None:
                yield OptionList(Option(Text(f"Show a code that adds another key to {safe_text(names.bound.name)}"),
                                        id="code"), id="names-list")
                yield Static("Have a code from your other key's session? Type it here, then Enter:")
                yield FormInput(placeholder="ABCDE-FGHJK", id="names-code", max_length=16,
                                restrict=r"[A-Za-z0-9 -]*")
            yield Static("", id="names-message", markup=False)  # wraps: a code and its line may pass 80 columns
        yield Footer(compact=True)

    def _about(self) -> str:
        app = lobby_host(self)
        names = app.names
        if names is None:
            return ("This server could not look up names when you came in: others see your name with "
                    f"your key's tag, {app.lobby.label(app)}.")
        if names.fingerprint is None:
            return "You are a guest: log in with an SSH key to hold a name on this server."
        name = safe_text(names.bound.name)
        if names.bound.taken:
            asked = safe_text(names.bound.asked)
            return (f"The name {asked} belongs to another key, so here you are {name}. If {asked} is "
                    f"yours: choose Show a code in a session of {asked}, then type that code below "
                    f"(tab) and log in again as {asked}.")
        return (f"On this server the name {name} is yours: only your keys can show it, and your games "
                f"are kept under it. To play as {name} from another key (another computer): choose "
                "the code below, then log in with the other key, open this screen (k) there and type "
                "the code. A code works once, for 10 minutes.")

    def on_mount(self) -> None:
        for widget in self.query(OptionList):
            widget.focus()

    def say(self, text: str) -> None:
        """Show ``text`` under the screen's fields."""
        self.query_one("#names-message", Static).update(text)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        names = lobby_host(self).names
        assert names is not None
        try:
            code = names.new_code()
        except Exception:
            log.exception("cannot make a code for %s", names.bound.name)
            self.say(STORE_FAILED)
            return
        self.say(f"Your code: {code} (type it in the other key's session, at k, within 10 minutes)")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        names = lobby_host(self).names
        assert names is not None
        if not event.value.strip():
            return
        try:
            self.say(names.use_code(event.value))
        except Exception:
            log.exception("cannot use a code for %s", names.bound.name)
            self.say(STORE_FAILED)
        event.input.value = ""

    def action_back(self) -> None:
        self.app.pop_screen()
