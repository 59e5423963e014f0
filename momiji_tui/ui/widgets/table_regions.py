"""The regions of the table, one widget each: status line, display,
objectives, each other seat's row, your row, hand and preview.

Each widget takes the slice of the game it shows (``ui/models/table_text``)
through its reactive ``data``; Textual calls ``watch_data`` only when the
new slice differs from the old (slices are frozen dataclasses compared by
value), so a widget whose slice did not change is neither re-rendered nor
refreshed. Widgets never see the app: data comes down from the screen.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Generic, TypeVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.geometry import Region as Area
from textual.geometry import Size
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Static

from ..models.table_fit import fit_lines, fitted_height
from ..models.text_lines import split_lines
from ._textual_private import ScreenRepaint, set_static_content
from ._textual_private_rows import ContentRows, render_options
from .quick_content import KeptLines, QuickContent, QuickLines, fits_by_lines
from .quiet_size import TableColumn, quiet_virtual_size
from ..models.table_text import (
    DisplaySlice, HandSlice, ObjectivesSlice, SeatSlice, StatusSlice, YouSlice, display_region_text,
    hand_text, objectives_region_text, opponent_text, status_text, you_text,
)

SliceT = TypeVar("SliceT")


class Region(ScreenRepaint, Static, Generic[SliceT]):
    """A Static that draws its ``data`` slice; ``renders`` counts redraws.

    ``LINES`` > 0: the region reserves that many lines (its CSS height) and
    never changes height; a longer text is cut with an ellipsis.

    Drawn through ``QuickLines`` (``QuickContent`` for a text that wraps):
    no per-cell offsets (no mouse text selection in the table's regions; the
    log keeps it), and a line drawn last time is not drawn again."""

    ALLOW_SELECT = False
    LINES: ClassVar[int] = 0
    data: reactive[Any] = reactive(None, init=False, layout=False, repaint=False)
    virtual_size = quiet_virtual_size()  # never scrolled: a layout that resized it asks for no second one

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.renders = 0
        self._measured: tuple[int, int] | None = None  # (width, height) of the text shown
        self._shown: tuple[Text, str | Style, int] | None = None  # the text shown, its style, its width
        self._lines: tuple[int, tuple[Text, ...]] | None = None  # width, lines shown
        self._lines_text: Text | None = None  # the text ``_lines`` holds the lines of
        self._kept = KeptLines()  # the strips of the lines drawn last
        self._rows = ContentRows()  # the rows drawn last (``_textual_private_rows``)

    def render_slice(self, data: SliceT) -> Text:
        """The text for ``data`` (each region its own renderer)."""
        raise NotImplementedError

    def render(self) -> Any:
        """The text shown, drawn without selection offsets: by its lines
        (``QuickLines``) when they are known, else ``QuickContent``."""
        lines = self._lines
        if lines is not None and self.content is self._lines_text:
            return QuickLines(lines[1], self._kept, self.app.theme, self._content)
        visual = self.visual
        return QuickContent(visual) if isinstance(visual, Content) else visual

    def render_lines(self, crop: Area) -> list[Strip]:
        """The rows of ``crop``: drawn by ``ContentRows`` (each line kept as
        drawn) while the text is drawn by its lines, else Textual's drawing."""
        lines, options = self._lines, render_options(self)
        if lines is not None and self.content is self._lines_text and fits_by_lines(
                lines[1], self.size.width, options):
            theme = self.app.theme
            rows = self._rows.render(self, crop, lines[1], options,
                                     lambda line, style, options: self._kept.draw(line, style, options, theme),
                                     super().render_lines)
            if rows is not None:
                return rows
        return super().render_lines(crop)

    def _content(self) -> Content:
        """The text shown as a ``Content`` (converted when first asked)."""
        visual = self.visual
        return visual if isinstance(visual, Content) else Content(str(visual))

    def watch_data(self, data: SliceT | None) -> None:
        if data is None:
            return
        self.renders += 1
        text = self.render_slice(data)
        shown = (text, text.style, self.content_size.width)  # Text == compares plain text and spans
        if shown == self._shown:
            return  # a new slice that reads the same (e.g. the whole view changed): nothing to repaint
        self._shown = shown if shown[2] > 0 else None  # before the first layout: shown again later
        self.show(text)

    def show(self, text: Text) -> None:
        """Show ``text``; lay the screen out again only when it needs more
        lines than the region has (measured as Textual lays it out: wrapped at
        the content width). A shorter text keeps the region's lines, blank at
        the bottom, until the next layout (a repaint: nothing below moves).
        A region of fixed ``LINES`` is only repainted."""
        width = self.content_size.width
        if self.LINES:
            self.repaint_lines(fit_lines(text, width, self.LINES, self.app.console), width)
            return
        if width <= 0:
            self._lines = None
            self.update(text)
            return
        measured = self._measured
        before = measured[1] if measured is not None and measured[0] == width else \
            self.get_content_height(self.parent_size(), self.app.size, width)
        self.repaint_lines(text, width)
        height = fitted_height(text, width)  # the table's texts are packed to fit: no wrap to measure
        if height is None:
            height = self.get_content_height(self.parent_size(), self.app.size, width)
        self._measured = (width, height)  # the next text is compared with this one's height
        if height == before:
            return
        column = self.column()
        if height > self.content_size.height or column is None or not column.keep_lines(self):
            self.refresh(layout=True)  # more lines than it has (or nowhere to keep them): lay out
            if column is not None:
                column.lay_out_kept()  # the regions that kept lines are measured in the same layout

    def column(self) -> TableColumn | None:
        """The table's column this region sits in (None outside one)."""
        for node in self.ancestors:
            if isinstance(node, TableColumn):
                return node
        return None

    def repaint_lines(self, text: Text, width: int) -> None:
        """Show ``text`` and repaint only its lines that differ from the lines
        shown (text or styles); all of them when either text wraps at
        ``width`` (no line of it known) or the width changed. A new base
        style (the preview turns bold) is in each line's own style."""
        lines = split_lines(text) if fitted_height(text, width) is not None else None
        old, self._lines = self._lines, (width, lines) if lines is not None else None
        self._lines_text = text
        if lines is None or old is None or old[0] != width:
            self.update(text, layout=False)
            return
        before = old[1]
        # Text == compares characters and spans, not the base style: compare it too.
        changed = [y for y in range(max(len(lines), len(before)))
                   if y >= len(lines) or y >= len(before) or lines[y] != before[y]
                   or lines[y].style != before[y].style]
        set_static_content(self, text)
        if changed:
            self.refresh(*(Area(0, y, width, 1) for y in changed))

    def on_resize(self, event: events.Resize) -> None:
        """A fixed region cuts its text again at its new width."""
        if self.LINES and self.data is not None:
            self.show(self.render_slice(self.data))

    def parent_size(self) -> Size:
        """The size of the container the region sits in."""
        parent = self.parent
        return parent.size if isinstance(parent, Widget) else self.app.size


TEXT_DATA: reactive[Any] = reactive(None, init=False, layout=False, repaint=False, always_update=True)
"""The ``data`` of a region given a ready ``Text``: every text set reaches
``watch_data``, because ``Text ==`` ignores the base style (the same words
turned bold would be dropped); ``watch_data`` skips a text shown already."""


class StatusLine(Region[StatusSlice]):
    """Round, deck, torii, discard, whose turn."""

    def render_slice(self, data: StatusSlice) -> Text:
        return status_text(data)


class DisplayRegion(Region[DisplaySlice]):
    """The display's columns (clickable)."""

    def render_slice(self, data: DisplaySlice) -> Text:
        return display_region_text(data)


class ObjectivesRegion(Region[ObjectivesSlice]):
    """The revealed objectives and their owners."""

    def render_slice(self, data: ObjectivesSlice) -> Text:
        return objectives_region_text(data)


class OpponentRow(Region[SeatSlice]):
    """Another seat: its head line and its row."""

    def render_slice(self, data: SeatSlice) -> Text:
        return opponent_text(data)


class YouRegion(Region[YouSlice]):
    """Your own head line and row (piles clickable)."""

    def render_slice(self, data: YouSlice) -> Text:
        return you_text(data)


class HandRegion(Region[HandSlice]):
    """Your hand, selected cards marked (cards clickable)."""

    def render_slice(self, data: HandSlice) -> Text:
        return hand_text(data)


class PreviewLine(Region[Text]):
    """What ⏎ would do now (the text comes ready from the screen); two
    lines reserved."""

    LINES = 2
    data = TEXT_DATA

    def render_slice(self, data: Text) -> Text:
        return data


class MessageLine(Region[Text]):
    """What the last key said (a refusal and its reason); two lines
    reserved, blank when there is nothing to say."""

    LINES = 2
    data = TEXT_DATA

    def render_slice(self, data: Text) -> Text:
        return data


class Opponents(Vertical):
    """One ``OpponentRow`` per other seat, in seat order."""

    def __init__(self, count: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.count = count

    def compose(self) -> ComposeResult:
        for _ in range(self.count):
            yield OpponentRow(classes="opponent")

    @property
    def rows(self) -> list[OpponentRow]:
        """The rows, in seat order."""
        return list(self.query_children(OpponentRow))

    def set_rows(self, slices: Sequence[SeatSlice]) -> None:
        """Hand each row its seat's slice (rows whose slice is equal stay as drawn)."""
        for row, data in zip(self.rows, slices, strict=False):
            row.data = data

    @property
    def content(self) -> Text:
        """Every row's text, one after the other (what the region shows)."""
        texts = [row.content for row in self.rows]
        return Text("\n").join(t if isinstance(t, Text) else Text(str(t)) for t in texts)
