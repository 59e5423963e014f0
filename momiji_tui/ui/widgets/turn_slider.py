"""The replay's turn slider: a bar of the game's turns with a handle."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget


class TurnSlider(Widget):
    """A horizontal bar of the game's turns with a handle at the current one.

    Moved by the replay screen's keys; a click jumps to the turn under the
    mouse (posts :class:`TurnSlider.Changed`)."""

    DEFAULT_CSS = """
    TurnSlider { height: 1; width: 1fr; }
    """

    value: reactive[int] = reactive(0)
    maximum: reactive[int] = reactive(0)

    class Changed(Message):
        """The user picked turn ``value`` with the mouse."""

        def __init__(self, slider: TurnSlider, value: int) -> None:
            super().__init__()
            self.slider = slider
            self.value = value

    def render(self) -> Text:
        width = max(self.size.width, 3)
        handle = 0 if self.maximum <= 0 else round(self.value * (width - 1) / self.maximum)
        out = Text()
        out.append("━" * handle, style="bold #E8602C")
        out.append("●", style="bold")
        out.append("─" * (width - handle - 1), style="dim")
        return out

    def on_click(self, event: events.Click) -> None:
        width = max(self.size.width, 2)
        value = round(event.x * self.maximum / (width - 1)) if self.maximum > 0 else 0
        self.value = min(max(value, 0), self.maximum)
        self.post_message(self.Changed(self, self.value))
