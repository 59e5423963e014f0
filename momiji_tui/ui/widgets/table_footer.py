"""The table's footer: ONE widget drawing one line of text (issue 13).

Textual's ``Footer`` is a row of key widgets: a change of the keys that
apply (select a card: ⏎, Play, Exchange appear) rebuilt them, or showed and
hid them, and each time the screen was laid out again (~13 ms of a key
press, bench_keys). Here the screen hands the keys that apply now
(``keys``, ``palette``: ``ui/models/table_footer_text``) and the footer
repaints its single line; its size never changes. A click on a key runs
its action through the screen's click handler (``CLICK_META`` meta), as
pressing the key would. The row is kept as Textual drew it, per set of
keys (a player goes back and forth between a few), for as long as what it
is drawn over stays (size, style, colours, filters, the link under the
mouse): a line seen before is neither rendered nor drawn through Textual's
styles again (issue 13; twelfth round: ~0.3 ms of a confirm at 80×24).
The kept lines and rows are dropped when the footer's own styles change
(``notify_style_update``: a theme, its CSS); a rule that changed only its
component classes (``.table-footer--key`` …) under an ancestor's class or
pseudo-class would not reach them: ``styles/`` has none.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.geometry import Region
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from ..models.table_footer_text import FooterKey, FooterStyles, footer_text
from ._textual_private import ScreenRepaint
from ._textual_private_rows import style_key

LINES_KEPT = 32
"""Drawn lines (and rows) the footer keeps (per keys, palette and width); more: start again."""


class TableFooter(ScreenRepaint, Widget):
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
        self._rows: dict[tuple[tuple[FooterKey, ...], FooterKey | None], Strip] = {}
        self._rows_drawn_over: tuple[object, ...] = ()  # what the kept rows were drawn over
        self._lines: dict[tuple[tuple[FooterKey, ...], FooterKey | None, int], Strip] = {}

    def render_lines(self, crop: Region) -> list[Strip]:
        """The footer's row as Textual draws it (``StylesCache``): kept per
        keys and palette while what it is drawn over stays the same, so a
        line shown before is drawn from what was kept. Other rows (none
        while the footer is one line tall) are Textual's. Raises nothing
        beyond Textual's own drawing."""
        size = self.region.size
        if crop.line_range != range(0, 1) or not size:
            return super().render_lines(crop)
        drawn_over = (style_key(self), tuple(self.get_line_filters()), self.app.ansi_theme)
        if drawn_over != self._rows_drawn_over or len(self._rows) >= LINES_KEPT:
            self._rows.clear()
            self._rows_drawn_over = drawn_over
        key = (self.keys, self.palette)
        row = self._rows.get(key)
        if row is None:
            row = self._rows[key] = super().render_lines(Region(0, 0, size.width, 1))[0]
        return [row] if crop.column_span == (0, size.width) else [row.crop(*crop.column_span)]

    def render_line(self, y: int) -> Strip:
        """The footer's line as rendered (before Textual's styles draw it
        into a row): from the lines kept when these keys were shown at this
        width before, else rendered (and kept)."""
        if y != 0:
            return super().render_line(y)
        key = (self.keys, self.palette, self.size.width)
        line = self._lines.get(key)
        if line is None:
            if len(self._lines) >= LINES_KEPT:
                self._lines.clear()
            line = self._lines[key] = super().render_line(y)
        return line

    def notify_style_update(self) -> None:
        """The styles changed (a theme): the lines and rows kept are drawn again."""
        self._lines.clear()
        self._rows.clear()
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
