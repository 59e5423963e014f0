"""The table's footer: ONE widget drawing one line of text.

Textual's ``Footer`` is a row of key widgets: a change of the keys that
apply (select a card: ⏎, Play, Exchange appear) rebuilds them, and each time
the screen is laid out again. Here the screen hands the keys that apply now
(``keys``, ``palette``: ``ui/models/table_footer_text``) and the footer
repaints its single line; its size never changes. A click on a key runs
its action through the screen's click handler (``CLICK_META`` meta), as
pressing the key would. Colours come from component classes
(``table-footer--key`` …), so themes restyle it. The line is drawn once
per set of keys, width and style (a Line-API cache): a player goes back
and forth between a few sets.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.content import Content
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from ..models.table_footer_text import FooterKey, FooterStyles, footer_text

LINES_KEPT = 32
"""Lines drawn the footer keeps (per keys, palette, width and style); more: start again."""


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
        self._lines: dict[tuple[object, ...], Strip] = {}

    def render_line(self, y: int) -> Strip:
        """The footer's line: drawn from the lines kept when these keys were
        shown at this width and style before, else rendered (and kept)."""
        style = self.visual_style
        if y != 0:
            return Strip.blank(self.size.width, style.rich_style)
        key = (self.keys, self.palette, self.size.width, style)
        line = self._lines.get(key)
        if line is None:
            if len(self._lines) >= LINES_KEPT:
                self._lines.clear()
            text = self.render()
            segments = Content.from_rich_text(text, self.app.console).render_segments(style)
            line = self._lines[key] = Strip(segments, text.cell_len)
        return line

    def notify_style_update(self) -> None:
        """The styles changed (a theme): the lines kept are drawn again."""
        self._lines.clear()
        super().notify_style_update()

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
