"""The table's footer: ONE widget drawing one line of text.

Textual's ``Footer`` is a row of key widgets: a change of the keys that
apply (select a card: ⏎, Play, Exchange appear) rebuilds them, and each time
the screen is laid out again. Here the screen hands the keys that apply now
(``keys``, ``palette``: ``ui/models/table_footer_text``) and the footer
repaints its single line; its size never changes. A click on a key runs
its action through the screen's click handler (``CLICK_META`` meta), as
pressing the key would. Colours come from component classes
(``table-footer--key`` …), so themes restyle it.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from ..models.table_footer_text import FooterKey, FooterStyles, footer_text

class TableFooter(Widget):
    """One line: the keys that apply now, the palette's key at the right."""

    DEFAULT_CSS: ClassVar[str] = """
    TableFooter {
        dock: bottom;
        height: 1;
        width: 1fr;
        color: $footer-foreground;
        background: $footer-background;
    }
    TableFooter > .table-footer--key {
        color: $footer-key-foreground;
        background: $footer-key-background;
        text-style: bold;
    }
    TableFooter > .table-footer--description {
        color: $footer-description-foreground;
        background: $footer-description-background;
    }
    TableFooter > .table-footer--separator {
        color: $foreground 20%;
    }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "table-footer--key", "table-footer--description", "table-footer--separator"}

    keys: reactive[tuple[FooterKey, ...]] = reactive((), layout=False)
    palette: reactive[FooterKey | None] = reactive(None, layout=False)

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.renders = 0  # how many times the line was drawn

    def render(self) -> Text:
        self.renders += 1
        styles = FooterStyles(
            key=self.get_component_rich_style("table-footer--key"),
            description=self.get_component_rich_style("table-footer--description"),
            separator=self.get_component_rich_style("table-footer--separator"))
        return footer_text(self.keys, self.palette, self.size.width, styles)

    @property
    def plain(self) -> str:
        """The line as text (what a player reads)."""
        return footer_text(self.keys, self.palette, 0).plain
