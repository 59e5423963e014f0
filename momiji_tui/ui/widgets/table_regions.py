"""The regions of the table, one widget each: status line, display,
objectives, each other seat's row, your row, hand, news, message, preview
and, in the tutorial, the step panel.

Each region is a Line-API widget (Textual's ``render_line``): it takes the
slice of the game it shows (``ui/models/table_text``) through its reactive
``data``, turns it into a Rich ``Text`` and keeps that text's lines. A new
text repaints only the lines that differ from the ones shown
(``refresh`` of those lines' regions: Textual keeps every other line as
drawn), and asks for a layout only when the text needs more lines than the
region has. A shorter text keeps the region's lines, blank at the bottom
(nothing below moves: a repaint), until the screen calls ``release`` (a
new turn, a resize, the screen shown again) or the table no longer fits
its window. Each
line is drawn into a ``Strip`` once per content and base style (a line
cache keyed on the line's text, spans and style): a player going back and
forth between a few selections draws no line twice. Textual's CSS does the
rest (padding, borders, the background under the text, NO_COLOR filters); a
line is drawn as Textual draws text (``Content``), over the region's
``visual_style``.

Widgets never see the app: data comes down from the screen.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from rich.console import Console
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

from ..models.table_fit import fit_lines, fitted_height
from ..models.table_text import (
    DisplaySlice, HandSlice, ObjectivesSlice, SeatSlice, StatusSlice, YouSlice, display_region_text,
    hand_text, objectives_region_text, opponent_text, status_text, you_text,
)
from ..models.text_lines import split_lines
from ...textual_fence import still_virtual_size

SliceT = TypeVar("SliceT")

STRIPS_KEPT = 512
"""Lines drawn a region keeps (keyed on content); more: start again."""


def text_lines(text: Text, width: int, console: Console) -> tuple[Text, ...]:
    """The lines ``text`` shows at ``width`` cells: its own lines when each
    fits (the table's texts are packed to fit), else Rich's word wrap.
    ``width`` <= 0: none. Raises nothing."""
    if width <= 0:
        return ()
    if fitted_height(text, width) is not None:
        return split_lines(text)
    return tuple(text.wrap(console, width))


def line_key(line: Text) -> Hashable:
    """What a drawn line depends on in its text: characters, spans, base style."""
    return (line.plain, tuple(line.spans), line.style)


class Region(Widget, Generic[SliceT]):
    """A widget that draws its ``data`` slice line by line; ``renders``
    counts the slices turned into text.

    ``LINES`` > 0: the region reserves that many lines (its CSS height) and
    never changes height; a longer text is cut with an ellipsis."""

    DEFAULT_CSS = "Region { height: auto; }"
    ALLOW_SELECT = False
    LINES: ClassVar[int] = 0
    data: reactive[Any] = reactive(None, init=False, layout=False, repaint=False)
    virtual_size = still_virtual_size()  # never scrolled: its layout asks for no second one

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.renders = 0
        self.content = Text("")  # the text shown
        self._lines: tuple[Text, ...] = ()  # its lines at ``_width``
        self._width = 0
        self._height = 0  # the lines the last layout gave it (kept when the text gets shorter)
        self._strips: dict[Hashable, Strip] = {}  # (line key, base style) -> the line drawn

    def render_slice(self, data: SliceT) -> Text:
        """The text for ``data`` (each region its own renderer)."""
        raise NotImplementedError

    def watch_data(self, data: SliceT | None) -> None:
        if data is None:
            return
        self.renders += 1
        self.show(self.render_slice(data))

    def fitted(self, text: Text, width: int) -> Text:
        """``text`` as shown at ``width``: cut to ``LINES`` lines when the
        region has a fixed height."""
        return fit_lines(text, width, self.LINES, self.app.console) if self.LINES else text

    def show(self, text: Text) -> None:
        """Show ``text``: repaint the lines that changed; lay the screen out
        again only when it needs more lines than the region has, or fewer
        while the table does not fit its window (never for ``LINES``)."""
        width = self.content_size.width
        text = self.fitted(text, width)
        self.content = text
        old, old_width = self._lines, self._width
        lines = self._lines = text_lines(text, width, self.app.console)
        self._width = width
        if width <= 0 or old_width != width:
            self.refresh(layout=not self.LINES)
        elif not self.LINES and (len(lines) > self._height or
                                 (len(lines) < self._height and self.table_overflows())):
            self._height = 0
            self.refresh(layout=True)
        else:
            changed = [Area(0, y, width, 1) for y in range(max(len(lines), len(old)))
                       if y >= len(lines) or y >= len(old) or line_key(lines[y]) != line_key(old[y])]
            if changed:
                self.refresh(*changed)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """The lines the text takes at ``width`` (``LINES`` when fixed)."""
        if self.LINES:
            return self.LINES
        if width != self._width:
            self._width = width
            self._lines = text_lines(self.content, width, self.app.console)
        self._height = max(len(self._lines), self._height)
        return self._height

    def release(self) -> None:
        """Give back the lines kept beyond the text's own (a layout)."""
        if self._height > len(self._lines):
            self._height = 0
            self.refresh(layout=True)

    def table_overflows(self) -> bool:
        """Whether a container this region sits in (the screen included)
        shows fewer lines than its content takes: freed lines may bring the
        rest into view."""
        return any(node.virtual_size.height > node.size.height
                   for node in self.ancestors if isinstance(node, Widget))

    def render_line(self, y: int) -> Strip:
        """Line ``y`` of the text, over the region's own style (Textual adds
        padding, borders and filters); blank below the text."""
        style = self.visual_style
        lines = self._lines
        if y >= len(lines):
            return Strip.blank(self.size.width, style.rich_style)
        line = lines[y]
        key = (line_key(line), style)
        strip = self._strips.get(key)
        if strip is None:
            if len(self._strips) >= STRIPS_KEPT:
                self._strips.clear()
            segments = Content.from_rich_text(line, self.app.console).render_segments(style)
            strip = self._strips[key] = Strip(segments, line.cell_len)
        return strip

    def on_resize(self, event: events.Resize) -> None:
        """At a new width the text is cut and split again."""
        if self.content_size.width != self._width:
            self.show(self.render_slice(self.data) if self.data is not None else self.content)


TEXT_DATA: reactive[Any] = reactive(None, init=False, layout=False, repaint=False, always_update=True)
"""The ``data`` of a region given a ready ``Text``: every text set reaches
``watch_data``, because ``Text ==`` ignores the base style (the same words
turned bold would be dropped); lines that read the same are not repainted."""


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


class LessonPanel(Region[Text]):
    """The tutorial's step: what to do now and why (the text comes ready
    from the screen, ``models/lesson_text``)."""

    data = TEXT_DATA

    def render_slice(self, data: Text) -> Text:
        return data


class TableColumn(Vertical):
    """The table's column of regions (``#table``) and the blank beside a
    tall log (``#spacer``): they never scroll, so a layout that resized them
    asks for no second one, and their own cells (padding, background) are
    drawn as blank lines of their style (``BLANK``), not line by line."""

    BLANK = True
    virtual_size = still_virtual_size()


class Opponents(TableColumn):
    """One ``OpponentRow`` per other seat, in seat order (its border is drawn:
    not ``BLANK``)."""

    BLANK = False

    DEFAULT_CSS = "Opponents { height: auto; }"

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
        return Text("\n").join(row.content for row in self.rows)
