"""A widget's Rich style computed once per repaint, not once per line
(issue 13).

Textual's ``DOMNode.rich_style`` walks every ancestor's styles each time it
is read, and ``RichLog.render_line`` reads it for every line it draws: a
move that scrolled the log by a line re-drew its ~60 lines at 200×60 and
computed the same style each time (~116 times per play). ``KeptStyleLog``
computes it once in each repaint that draws a row (``render_lines``), when
first read, and keeps it for that repaint only, so a style change (theme,
CSS, an ancestor's background) is seen by the next repaint as before.

It also keeps each drawn row (issue 13, fifth round): later in a game every
move scrolls the log by its new lines, and Textual repaints a scrolled
widget whole, each row rendered again through its styles (58 rows per
confirm at 200×60) although every line but the new ones is the same line one
row higher. A row of a written line is kept by that line's number, a row of
the border or padding by its row; they are drawn again only when what they
are drawn from changes (size, horizontal scroll, a style counter of the log
or an ancestor (``style_key``), filters) or the lines are cleared
(``clear``: every line written again). Rows past the last line, and every
row while text is selected or in a log that drops its first lines
(``max_lines``), are not kept.

A row of a new line is drawn in the frame Textual's styles give the log's
content rows (borders and padding left and right, the inner background:
``_textual_private_rows.row_frame``, worked out once while the rows are
kept), not through Textual's styles cache, which works out the log's
colours and styles again for every repaint: ~0.2 ms of every play
(twelfth round). Border rows, blank rows and a log with a step the frame
leaves out go through Textual as before.
"""

from __future__ import annotations

from typing import Any

from rich.style import Style
from typing import Self

from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import RichLog

from ._textual_private import ScreenRepaint
from ._textual_private_rows import RowFrame, framed_row, row_frame, style_key

ROWS_KEPT = 512
"""Drawn rows kept; more: start again (a log is at most a screen tall)."""


class KeptStyleLog(ScreenRepaint, RichLog):
    """A ``RichLog`` whose ``rich_style`` is computed once per ``render_lines``.

    A subclass of ``RichLog``, not a ``Widget`` mixin: Textual collects a
    widget's default CSS along the first base of each class that is a
    ``DOMNode``, so a ``Widget`` mixin placed first would hide ``RichLog``'s
    own CSS (``ScreenRepaint`` is a plain mixin, ``_textual_private`` note 11)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._kept_style: Style | None = None
        self._repainting = False  # in ``render_lines``: the style read is kept until it ends
        self._rows: dict[tuple[str, int], Strip] = {}  # ("line", number) or ("row", y): the row as drawn
        self._rows_drawn_from: tuple[object, ...] = ()  # what the kept rows were drawn from
        self._frame: RowFrame | bool | None = None  # the content rows' frame (False: Textual draws them)

    @property
    def rich_style(self) -> Style:
        """The widget's Rich style (as ``DOMNode.rich_style``); during a
        repaint, the one computed when it was first read. Never raises."""
        kept = self._kept_style
        if kept is None:
            kept = super().rich_style
            if self._repainting:
                self._kept_style = kept
        return kept

    def render_lines(self, crop: Region) -> list[Strip]:
        """Repaint the rows in ``crop`` with the style computed once (only
        when a row is drawn): a row kept as drawn is not rendered again (see
        the module's docstring)."""
        self._kept_style = None
        self._repainting = True
        try:
            return self._kept_rows(crop)
        finally:
            self._repainting = False
            self._kept_style = None

    def _content_frame(self, ys: list[int], top: int, bottom: int, end: int) -> RowFrame | None:
        """The frame of the content rows (``row_frame``, kept with the rows)
        when every row of ``ys`` shows a line (a row below ``end`` shows
        none: Textual's styles cache keeps it as drawn), else None."""
        if not all(top <= y < min(bottom, end) for y in ys) or ys[-1] - top >= self.content_region.height:
            return None  # (a horizontal scrollbar makes the content shorter than the rows inside the borders)
        if self._frame is None:
            self._frame = row_frame(self) or False
        return self._frame if isinstance(self._frame, RowFrame) else None

    def clear(self) -> Self:
        """Clear the log and forget every row drawn."""
        self._rows.clear()
        return super().clear()

    def _kept_rows(self, crop: Region) -> list[Strip]:
        """The rows of ``crop``, whole rows kept by line number or row."""
        width, height = size = self.region.size  # what Textual's styles cache draws: the whole region
        drawn_from = (size, self.scroll_offset.x, style_key(self), tuple(self.get_line_filters()),
                      self.app.ansi_theme)
        kept = self.text_selection is None and self.max_lines is None  # lines keep their numbers
        if not kept or drawn_from != self._rows_drawn_from or len(self._rows) > ROWS_KEPT:
            self._rows.clear()
            self._frame = None
            self._rows_drawn_from = drawn_from
        if not kept:
            return super().render_lines(crop)
        top, bottom = self.styles.gutter.top, height - self.styles.gutter.bottom
        first, count = self.scroll_offset.y - top, len(self.lines)
        rows = self._rows
        keys = [("line", first + y) if top <= y < bottom else ("row", y) for y in crop.line_range]
        # Rows past the last line are never kept (a line written there later must show).
        missing = [y for y, key in zip(crop.line_range, keys, strict=True)
                   if key not in rows or (key[0] == "line" and key[1] >= count)]
        fresh: dict[int, Strip] = {}
        if missing and (frame := self._content_frame(missing, top, bottom, count - first)) is not None:
            filters, background = drawn_from[3], frame.background
            for y in missing:  # content rows: drawn in their frame, as Textual draws them (``row_frame``)
                drawn = framed_row(frame, self.render_line(y - top))
                for line_filter in filters:
                    drawn = drawn.apply_filter(line_filter, background)
                fresh[y] = drawn
        elif missing:  # one repaint from the first row missing to the last
            start = missing[0]
            fresh = dict(zip(range(start, missing[-1] + 1),
                             super().render_lines(Region(0, start, width, missing[-1] + 1 - start)), strict=True))
        out: list[Strip] = []
        for y, key in zip(crop.line_range, keys, strict=True):
            row = fresh.get(y)
            if row is None:
                row = rows[key]
            elif not (key[0] == "line" and key[1] >= count):
                rows[key] = row
            out.append(row)
        if crop.column_span != (0, width):
            x1, x2 = crop.column_span
            out = [row.crop(x1, x2) for row in out]
        return out
