"""The move log panel: the whole game, one line per event told from the
player's seat, grouped by turn under a heading (``ui/models/log_lines.py``).

Lines are wrapped at the panel's width minus its scrollbar, and wrapped again
when that width changes; the panel then stays at the latest moves.

A new line asks for no layout: ``RichLog.write`` grows the log's
``virtual_size``, which in ``Widget`` lays the whole screen out again. The
log is a fixed box (its height comes from the screen, never from its
lines), so here ``virtual_size`` asks for nothing and its watcher tells the
scrollbar the new length; a layout is asked only when a scrollbar must
appear or go (``overflow: auto``). What is repainted is what moved: the
whole log when it scrolled, else only the new lines (``refresh_lines``).

A tall log turns its page by a quarter at once, as Vim's ``scrolljump`` and
xterm's jump scroll do for slow terminals: a new line that does not fit a
full log scrolls it so that the newest line has a quarter of the log's rows
blank below it, and the next lines fill them in place (a log filled at
once, as when a game is resumed, ends flush). A scroll repaints every row
of the log; a line written into a blank row repaints that row alone. The
blank rows are the log's virtual size, padded to the page shown
(``validate_virtual_size``), so the scrollbar, the end of the log and
Textual's anchoring all agree. A short log (fewer than ``JUMP_FROM`` rows:
80×24 shows 3 or 4) keeps every row for lines and scrolls line by line."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self

from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.reactive import Reactive
from textual.widgets import RichLog

from ...engine import events as ev
from ..models.host import GameHost
from ..models.log_lines import LogBook

JUMP_FROM = 16
"""Rows from which the log turns its page by a quarter instead of a line."""


def jump_rows(height: int) -> int:
    """How many blank rows a log ``height`` rows tall leaves below its newest
    line when a new line scrolls it: a quarter of its rows from ``JUMP_FROM``
    rows, else none (it scrolls line by line)."""
    return height // 4 if height >= JUMP_FROM else 0


class LogPanel(RichLog):
    """A scrolling log of the whole game. Not focusable: the table's keys
    stay with the table; the mouse wheel and PageUp/PageDown scroll it."""

    can_focus = False
    virtual_size = Reactive(Size(0, 0), layout=False, repaint=False)  # see the module's docstring

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_lines=None, min_width=1, wrap=True, markup=False, auto_scroll=True, **kwargs)
        self.entries: list[Text] = []  # every line written, unwrapped
        self.book: LogBook | None = None
        self._wrapped_at = 0  # the width the shown lines were wrapped at
        self.following = True  # the latest moves are in view (the player has not scrolled up)
        self._page_end = 0  # the last page's bottom row when it was turned (blank rows to fill), else 0
        self._box = Size(0, 0)  # the log's outer size at its last resize

    def reset(self, app: GameHost, preface: str = "") -> None:
        """Refill from the table's whole event log, after ``preface`` (a dim
        first line, e.g. the deal's commitment; none when "")."""
        self.book = None
        self.entries = []
        self.clear()
        if preface:
            line = Text(preface, style="dim")
            self.entries.append(line)
            self._write_line(line)
        if app.table is not None:
            self.add(app, app.table.events)

    def add(self, app: GameHost, events: Sequence[ev.Event]) -> None:
        """Append the lines for ``events`` as ``app``'s seat sees them."""
        if app.table is not None:
            self.write_events(events, app.seat, [s.name for s in app.table.seats], memory=app.memory_mode)

    def write_events(self, events: Sequence[ev.Event], viewer: int | None, names: Sequence[str], *,
                     memory: bool = False) -> None:
        """Append the lines for ``events`` told from seat ``viewer`` (None: a
        spectator); ``memory``: plays without their cards (RULES §8)."""
        if self.book is None or (self.book.viewer, self.book.names, self.book.memory) != (
                viewer, list(names), memory):
            self.book = LogBook(viewer, names, memory=memory)
        count, top = len(self.lines), round(self.scroll_y)
        for line in self.book.feed(events):
            self.entries.append(line)
            self._write_line(line)
        if len(self.lines) > count:  # at once: no frame drawn first at the old position
            height = self.scrollable_content_region.height
            # A log full before these lines turns its page; one filled at once (a game resumed, the
            # log redrawn) ends flush at its last line.
            if count >= height and len(self.lines) > max(self._page_end, height) and (blank := jump_rows(height)):
                self._page_end = len(self.lines) + blank  # turn the page: blank rows below the newest line
                self.virtual_size = self.virtual_size  # padded to the new page (``validate_virtual_size``)
            self.scroll_end(animate=False, immediate=True, x_axis=False)
            if round(self.scroll_y) == top:  # nothing moved (a scroll repaints the whole log)
                self.refresh_lines(count, len(self.lines) - count)

    def validate_virtual_size(self, size: Size) -> Size:
        """The log's lines, and the blank rows below them up to the page
        shown when it was last turned (see the module's docstring)."""
        return size if size.height >= self._page_end else Size(size.width, self._page_end)

    def clear(self) -> Self:
        """Clear the log: no lines, no page turned."""
        self._page_end = 0
        return super().clear()

    def watch_virtual_size(self, old: Size, new: Size) -> None:
        """The lines changed: tell the scrollbars their new length, or ask for
        a layout when a scrollbar must appear or go. Never raises."""
        styles, room = self.styles, self.container_size
        shown = (_shown(styles.overflow_x, new.width, room.width),
                 _shown(styles.overflow_y, new.height, room.height))
        if not room or shown != (self.show_horizontal_scrollbar, self.show_vertical_scrollbar):
            self.refresh(layout=True)
            return
        if self.show_vertical_scrollbar:
            self.vertical_scrollbar.window_virtual_size = new.height
        if self.show_horizontal_scrollbar:
            self.horizontal_scrollbar.window_virtual_size = new.width

    def line_width(self) -> int:
        """The width lines are wrapped at: the content width, less the
        scrollbar's even before it shows (0 before the first layout)."""
        width = self.scrollable_content_region.width
        if not self.show_vertical_scrollbar:
            width -= self.styles.scrollbar_size_vertical
        return max(width, 0)

    def _write_line(self, line: Text) -> None:
        """Write one line wrapped at the log's width (none while the log has
        no width: then ``on_resize`` writes every line, at any new width)."""
        width = self.line_width()
        if width <= 0:
            self._wrapped_at = 0  # the lines shown lack this one: wrap all again on a resize
            return
        self._wrapped_at = width
        self.write(line, width=width, shrink=False, expand=False, scroll_end=False)

    def on_mount(self) -> None:
        """Anchored at the end: a layout that resizes the log (the table
        above it grew) keeps the latest moves in view in the same frame;
        scrolling up releases it, a new line anchors it again."""
        self.anchor()

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self.following = new_value >= self.max_scroll_y

    def on_resize(self, event: events.Resize) -> None:
        """Wrap every line again at a new width; stay at the latest moves
        when they were in view (else near the same place). A page turned at
        the old size is dropped (its blank rows were a quarter of the old
        height): the log ends at its last line again."""
        width = self.line_width()
        following = self.following
        if self.outer_size != self._box:
            self._box = self.outer_size
            if self._page_end:
                self._page_end = 0
                self.virtual_size = Size(self.virtual_size.width, len(self.lines))
        if width <= 0 or width == self._wrapped_at:
            if following:
                self.scroll_end(animate=False, x_axis=False)
            return
        top = self.scroll_y / self.max_scroll_y if self.max_scroll_y else 1.0
        self.clear()
        self._wrapped_at = width
        for line in self.entries:
            self.write(line, width=width, shrink=False, expand=False, scroll_end=False)
        if following:
            self.scroll_end(animate=False, x_axis=False)  # once the new lines are laid out
        else:
            self.call_after_refresh(lambda: self.scroll_to(y=round(top * self.max_scroll_y), animate=False))


def _shown(overflow: str, length: int, room: int) -> bool:
    """Whether a scrollbar with this ``overflow`` shows for ``length`` cells
    of content in ``room`` cells (as Textual decides it)."""
    return overflow == "scroll" or (overflow == "auto" and length > room)
