"""A chooser beside the table: pick one option, by key or cursor; Esc goes back.

A modal screen with a transparent background (``momiji.tcss``): the panel is
docked below the table (over the message, preview and log) or, on a wide
terminal, beside it (over the log), so the row, hand and display stay in view.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from ..models.choice import Choice
from .sized import WIDE

__all__ = ["Choice", "ChoiceScreen"]


class ChoiceScreen(ModalScreen[object]):
    """Ask a question; dismisses with the chosen ``value`` or None on Esc.

    Unavailable options are shown dimmed with their reason and cannot be
    picked (the reason is shown when tried).
    """

    BINDINGS = [Binding("escape", "cancel", "Back", id="choice.cancel")]

    def __init__(self, title: str, choices: list[Choice]) -> None:
        super().__init__()
        self.title_text = title
        self.choices = choices

    def compose(self) -> ComposeResult:
        with Vertical(id="choice-box"):
            yield Label(Text.assemble((self.title_text, "bold"), ("   a key shown, or ↑ ↓ and ⏎; Esc goes back",
                                                                   "dim")), id="choice-title")
            options = []
            for c in self.choices:
                label = Text(f"{c.key}  ") + (c.label if isinstance(c.label, Text) else Text(str(c.label)))
                if c.reason:
                    label.stylize("dim")
                    label.append(f"  — {c.reason}", style="italic dim")
                options.append(Option(label))
            yield Label("", id="choice-message")
            yield OptionList(*options, id="choice-list", compact=True)

    def on_mount(self) -> None:
        self.fit_to_size()
        self.query_one(OptionList).focus()

    def on_resize(self, event: events.Resize) -> None:
        self.fit_to_size()

    def fit_to_size(self) -> None:
        """Beside the table on a wide terminal (where the table puts its log), else below it."""
        self.set_class(self.app.size.width >= WIDE, "-wide")

    def _pick(self, index: int) -> None:
        if not self.is_active:  # a key queued here before a pick closed it (``dismiss`` pops the top screen)
            return
        choice = self.choices[index]
        if choice.reason:
            self.query_one("#choice-message", Label).update(choice.reason)
            return
        self.dismiss(choice.value)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._pick(event.option_index)

    def on_key(self, event: events.Key) -> None:
        for i, c in enumerate(self.choices):
            if event.character is not None and event.character.lower() == c.key.lower():
                event.stop()
                self._pick(i)
                return

    def action_cancel(self) -> None:
        self.dismiss(None)
