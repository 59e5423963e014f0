"""The only place where ``momiji_tui.ui`` relies on Textual internals.

Textual is pinned (``textual==8.2.8``). Re-check everything here when that pin
moves; ``tests/ui/test_table_confirm_work.py`` exercises items 1-6,
``tests/ui/test_cyclic_garbage.py`` item 7, ``tests/ui/test_dirty_lines.py``
and ``tests/ui/test_dirty_lines_fuzz.py`` item 8 (its code is in
``_textual_private_chops``), ``tests/ui/test_log_fast_write.py`` item 10.
Item 9 (a table region's content rows drawn without Textual's
``StylesCache``, and the frame of a log's content rows) is in its own
module, ``_textual_private_rows``, tested by ``tests/ui/test_content_rows.py``
and ``tests/ui/test_log_rows.py``.

1. ``Widget.vertical_scrollbar`` creates a plain ``ScrollBar`` and starts it
   with ``App._start_widget`` (it keeps it in ``Widget._vertical_scrollbar``).
   A layout that resizes a scrolling widget sets its scrollbar's
   ``virtual_size``, and ``Widget.virtual_size`` then asks for a second
   whole-screen layout, though a scrollbar is drawn from its own
   ``window_size``/``window_virtual_size`` and placed by the layout that
   just ran (issue 13, fourth round: a play that grew the table above the
   log at 80×24 laid the screen out twice). ``quiet_vertical_scrollbar``
   creates the scrollbar the same way, as a ``QuietScrollBar``.
2. ``Widget._scroll_update``, run for a scrolling widget after every
   layout that touched it, calls ``refresh()`` on its scrollbar whether or
   not anything it draws changed; a scrollbar is its own message pump, so
   its repaint (an ``Update`` message) reaches the screen after the frame
   that layout drew: a second frame for nothing, after every confirm that
   changed a region's height (issue 13, fourth round). ``QuietScrollBar``
   keeps the look it last asked to be drawn with (``look``: size, lengths,
   position, mouse, colours) and drops a ``refresh()`` that asks for the
   same look again: the repaint already asked draws it.
3. A layout hands each widget it placed its new size through the private
   hook ``Widget._size_updated``, before that layout's frame is drawn; a
   widget whose geometry changed is repainted whole in that frame (the
   compositor marks its old and new regions dirty; a new size clears its
   lines). A log resized there (the table above it grew, at 80×24) used to
   be scrolled back to its end only on the ``Resize`` message that follows,
   and the repaints its scrollbar asked in the layout (an ``Update`` each,
   see note 2) came after the frame too: a second frame. ``LogPanel``
   overrides ``_size_updated`` and calls ``painted_by_layout``: it scrolls
   to the end with ``set_reactive`` (no watcher, no repaint asked) and
   drops the repaints asked (``_repaint_required``) for the log and its
   scrollbar, which that frame draws: the compositor files the bar under
   the log's size, so a log resized marks the bar's cells dirty too. The
   log counts a resize by its outer size (``Widget.outer_size``, what the
   layout hands in): compared with its size inside the gutter, every layout
   was a resize, and dropped the repaints of a log that had not moved
   (thirteenth round).
4. A scrollbar draws its thumb from ``window_size``, ``window_virtual_size``
   and ``position`` as ``ScrollBar._render_bar`` and
   ``ScrollBarRender.render_bar`` compute it (in eighths of a cell).
   ``drawn_thumb`` repeats that arithmetic so that ``QuietScrollBar`` knows
   what it would draw: a log shorter than its box (``overflow-y: scroll``)
   draws no thumb however many lines it holds, and a new line used to
   repaint every cell of its scrollbar (issue 13, fifth round: 59 lines per
   confirm at 200×60). Re-check it against ``render_bar`` when the pin moves.
5. A scrollbar is drawn through Rich: ``ScrollBar.render`` returns a
   ``ScrollBarRender``, whose ``render_bar`` gives one ``Segment`` per row
   of a vertical bar, and Textual renders that whole (every row) on each
   repaint: a scrolling log's bar repaints with nearly every move (59 rows
   at 200×60). ``QuietScrollBar.render_lines`` computes those segments with
   ``render_bar`` (as ``ScrollBarRender.__rich_console__`` calls it: the
   bar's height, its width as thickness, the style's colours) and keeps, per
   segment, the row Textual drew for it; a repaint whose rows are all known
   is drawn from them. A row depends only on its segment and on what the
   bar is drawn over (size, style, filters, ANSI theme): a change of those
   forgets them. Horizontal bars and other renderers take Textual's path.
6. ``Static.update`` sets the content (private ``_Static__content`` and
   ``_Static__visual``) and repaints the whole widget. ``set_static_content``
   sets them without the repaint, so that a region can repaint only the
   lines whose text changed (``Widget.refresh`` with regions): Textual then
   draws only those lines again (issue 13, sixth round). It leaves the
   visual unset (``None``), as ``Static.__init__`` leaves it, and
   ``Static.visual`` converts the content when first read: a region drawn
   by its lines never needs it (seventh round).
7. ``Strip.divide`` keeps its result in the strip's own ``_divide_cache``;
   cut at its own length, the result is ``[self]``, so the strip holds
   itself: a reference cycle that only the garbage collector frees, with the
   strip's seven ``FIFOCache``s and its segments (~30 objects). The
   compositor cuts every line it draws, and a line as wide as its widget is
   cut at its own length: every repaint left such cycles, ~190 objects of
   cyclic garbage per key at the table, 95 % of all of it (issue 15: the
   young collections of a server with 64 players took 31-68 ms of CPU).
   ``strips_without_self_cycles`` makes ``divide`` return ``[self]``
   without keeping it; any other cut goes through Textual's ``divide``.
8. ``Compositor.render_partial_update`` draws a repaint from the box around
   every dirty region (``_render_chops`` with ``Region.from_union``): each
   widget inside that box renders every line it has in it, and lines
   outside the dirty spans are then thrown away. A confirm at the table
   dirties a few lines from the status line to the log, so the box was
   the whole screen: the screen, the table's column and their containers
   rendered all their lines (60 each at 200×60), and each changed region
   all of its own (issue 13, seventh round). ``DirtyLinesCompositor``
   renders, for each widget in the same front-to-back order, only its runs
   of lines that meet a dirty span, and cuts them as Textual cuts them:
   every chop a span reaches is filled by the same widget with the same
   cells, so the bytes sent are the same (``tests/ui/test_dirty_lines.py``
   compares them with Textual's for every frame of a game's turns,
   ``tests/ui/test_dirty_lines_fuzz.py`` on random repaints of layers, a
   modal, a scrolled container and resizes). It
   uses the private ``_dirty_regions``, ``_regions_to_spans``, ``cuts``
   and ``visible_widgets`` as ``render_partial_update`` does; whole-screen
   updates stay Textual's. A widget's line whose chops are all filled by
   widgets in front (the screen and the containers behind the table's
   regions) is not rendered at all: its pieces would be thrown away (ninth
   round). Only chops with cells written count: a chop that starts where a
   span ends is written empty, so it is filled with an empty strip and the
   table's column is not drawn for its padding beside a region (tenth
   round). ``QuickChopsUpdate`` writes the same bytes as ``ChopsUpdate``
   with each cursor move made once per cell.
10. ``RichLog.write`` renders a line through the console (``Text.wrap``,
   a joined ``Text``, ``Segment.split_lines``), appends the strips to
   ``lines`` and keeps ``_widest_line_width``, then sets ``virtual_size``.
   For a one-line ``Text`` that fits the width (no tab, no justify or
   overflow of its own, ending in a newline) the wrap leaves it as it is,
   so ``append_fitting_line`` renders it straight (joined as the console
   joins wrapped lines, then ``Text.render``) and does the same
   bookkeeping (issue 13, tenth round: every confirm writes the log).
   ``tests/ui/test_log_fast_write.py`` compares the lines with ``write``'s
   for every line of a game, at several widths.
11. ``Widget.refresh`` (a repaint) marks the widget's dirty regions and
   sets ``_repaint_required``, then wakes the widget's own message pump
   (``check_idle`` posts a ``Prompt``); on its idle, ``_check_refresh``
   posts ``messages.Update`` to the screen, whose ``_on_update`` adds the
   widget to ``_dirty_widgets`` (when the screen is in its compositor) and
   wakes the screen, which draws the frame. A confirm at the table repaints
   six widgets: six pumps woken and six messages handled, ~0.5 ms of a
   ~9 ms key (issue 13, thirteenth round). ``ScreenRepaint.refresh`` marks
   the same regions (private ``_set_dirty``, ``_layout_cache``,
   ``_rich_style_cache``) and does the screen's part at once (the widget
   added to the private ``Screen._dirty_widgets``, the screen woken): the
   same frame, drawn from the same dirty regions, with no pump of the
   widget woken. Only a widget the compositor has placed takes that path
   (it is in the compositor's ``_visible_widgets``, read as it is: working
   it out in the middle of a reflow would keep a stale map), on a screen
   in its compositor (``Compositor.widgets``) with no layout asked;
   a layout, a recompose, a widget not mounted or not shown takes
   Textual's ``refresh``; a layout asked also runs the widget's idle work
   at once (private ``Widget._check_refresh``: the ``Layout`` message
   posted to the screen now, not from the widget's idle after the screen
   drew the repaints handed to it, which drew the layout in a second frame).
   It is a mixin of ``object`` (typed as ``Widget``):
   Textual collects a widget's default CSS along the first base that is a
   ``DOMNode``, so a ``Widget`` mixin placed first would hide the widget's
   own CSS. A repaint asked while the screen draws a frame (from a
   widget's ``render_lines``) would be cleared with the frame's dirty
   widgets; no table widget asks one there.
   ``tests/ui/test_screen_repaint.py`` checks, after every key of a turn,
   that a model of the terminal fed every frame shows what a redraw of the
   whole screen shows, that a play posts no ``Update`` for the table's
   widgets, and that a play that grows your row is one frame.
12. ``Widget.scroll_end(animate=False, immediate=True)`` anchors an
   anchored widget again (private ``_anchored``, ``_anchor_released``) and
   scrolls with the private ``_scroll_to(..., release_anchor=False)``,
   passing it an ``on_complete`` of its own, which ``_scroll_to`` schedules
   with ``call_after_refresh``: an ``InvokeLater`` posted to the widget at
   once (its pump woken), which hands the callback to the screen to run
   after its next refresh, a callback that does nothing when no
   ``on_complete`` was given (every line written to the log).
   ``scroll_end_now`` does the same scroll with no callback.
   ``tests/ui/test_screen_repaint.py``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from math import ceil
from typing import TYPE_CHECKING, Self

from rich.color import Color
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.dom import NoScreen
from textual.geometry import Region, Size
from textual.reactive import Reactive
from textual.scrollbar import ScrollBar, ScrollBarRender
from textual.strip import Strip
from textual.visual import VisualType
from textual.widget import Widget
from textual.widgets import RichLog, Static

__all__ = ["QuietScrollBar", "ScreenRepaint", "append_fitting_line", "drawn_thumb", "painted_by_layout",
           "quiet_vertical_scrollbar", "scroll_end_now", "set_static_content", "strips_without_self_cycles"]

EIGHTHS = 8  # ``ScrollBarRender``'s glyphs per cell (note 4)


if TYPE_CHECKING:
    _WidgetMixin = Widget
else:
    _WidgetMixin = object  # a mixin, not a ``Widget``: a Widget subclass in the MRO changes what CSS applies


class ScreenRepaint(_WidgetMixin):
    """A widget whose repaint is handed to its screen at once, without a
    round through its own message pump (note 11). Mixed in before the
    Textual widget class it repaints for (``class Region(ScreenRepaint,
    Static)``)."""

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False,
                recompose: bool = False) -> Self:
        """``Widget.refresh``; a plain repaint of a shown widget on a
        composed screen is handed to the screen directly, and a layout
        asked is posted to it at once (note 11)."""
        if layout and not recompose and self._is_mounted:
            super().refresh(*regions, repaint=repaint, layout=layout)
            self._check_refresh()  # private, note 11: the widget's idle work, now
            return self
        if layout or recompose or not repaint or not self._is_mounted or self._parent is None \
                or self._closing or not self.display:  # private, note 11
            return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)
        try:
            screen = self.screen
        except NoScreen:  # being removed: Textual's ``refresh`` raises nothing either
            return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)
        compositor = screen._compositor  # private, note 11
        placed = compositor._visible_widgets  # read, never worked out here: a reflow may be under way
        if self._layout_required or screen._layout_required or screen not in compositor.widgets \
                or placed is None or self not in placed:  # a layout to come, or not drawn yet: Textual's
            return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)
        self._layout_cache.clear()  # private, note 11: as ``Widget.refresh`` does
        self._set_dirty(*regions)
        self.clear_cached_dimensions()
        self._rich_style_cache.clear()
        screen._dirty_widgets.add(self)  # private, note 11: as ``Screen._on_update`` does
        screen.check_idle()
        return self


def drawn_thumb(length: int, virtual_size: float, window_size: float, position: float) -> tuple[int, int] | None:
    """Where a scrollbar ``length`` cells long draws its thumb, in eighths of a
    cell (start, end), cut to the bar; None when it draws none (note 4).
    Never raises."""
    window = ceil(window_size) if window_size < virtual_size else 0
    virtual = ceil(virtual_size)
    if not (window and length and virtual and length != virtual):
        return None
    thumb = max(1, window / (virtual / length))
    start = int((length - thumb) * (position / (virtual - window)) * EIGHTHS)
    end = start + ceil(thumb * EIGHTHS)
    bar = length * EIGHTHS
    return min(max(0, start), bar), min(max(0, end), bar)


class QuietScrollBar(ScreenRepaint, ScrollBar):
    """A scrollbar whose ``virtual_size`` asks for neither a layout nor a
    repaint (a scrollbar never scrolls)."""

    virtual_size = Reactive(Size(0, 0), layout=False, repaint=False)

    def __init__(self, vertical: bool = True, name: str | None = None, *, thickness: int = 1) -> None:
        super().__init__(vertical, name, thickness=thickness)
        self._asked: tuple[object, ...] | None = None  # the look last asked to be drawn
        self._rows: dict[Segment, Strip] = {}  # each row's segment → the row Textual drew for it (note 5)
        self._rows_drawn_over: tuple[object, ...] = ()  # what those rows were drawn over

    def look(self) -> tuple[object, ...]:
        """Everything ``ScrollBar.render`` draws from. Never raises."""
        parent = self.parent
        styles = parent.styles if isinstance(parent, Widget) else self.styles
        under = parent.background_colors if isinstance(parent, Widget) else None
        length = self.size.height if self.vertical else self.size.width
        thumb = drawn_thumb(length, self.window_virtual_size, self.window_size, self.position)  # note 4
        return (self.size, thumb, self.grabbed is not None,
                self.mouse_over, under, styles.scrollbar_background, styles.scrollbar_background_hover,
                styles.scrollbar_background_active, styles.scrollbar_color, styles.scrollbar_color_hover,
                styles.scrollbar_color_active, self.screen.styles.scrollbar_color if self.is_attached else None)

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False,
                recompose: bool = False) -> Self:
        """Repaint, unless the repaint asked last draws this look already (note 2)."""
        look = self.look()
        if not regions and repaint and not (layout or recompose) and look == self._asked:
            return self
        self._asked = look
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)


    def render_lines(self, crop: Region) -> list[Strip]:
        """The rows in ``crop``: from the rows drawn before for the same
        segments when every one is known, else as Textual draws them (then
        kept). Never raises more than Textual's own drawing (note 5)."""
        size = self.region.size
        drawn_over = (size, self.visual_style, tuple(self.get_line_filters()), self.app.ansi_theme)
        if drawn_over != self._rows_drawn_over:
            self._rows.clear()
            self._rows_drawn_over = drawn_over
        segments = self._row_segments(size)
        whole = crop.column_span == (0, size.width)
        if segments is not None:
            known = [self._rows.get(segments[y]) for y in crop.line_range]
            if all(row is not None for row in known):
                rows = [row for row in known if row is not None]
                return rows if whole else [row.crop(*crop.column_span) for row in rows]
        strips = super().render_lines(crop)
        if segments is not None and whole:
            for y, strip in zip(crop.line_range, strips, strict=False):
                self._rows[segments[y]] = strip
        return strips

    def _row_segments(self, size: Size) -> list[Segment] | None:
        """One segment per row of a vertical bar ``size`` big, as
        ``ScrollBarRender`` draws it; None for anything else (note 5)."""
        if not self.vertical or not self.is_attached or not size:
            return None
        bar = self.render()
        if type(bar) is not ScrollBarRender or not isinstance(bar.style, Style):
            return None
        drawn = ScrollBarRender.render_bar(
            size=size.height, window_size=bar.window_size, virtual_size=bar.virtual_size, position=bar.position,
            vertical=True, thickness=size.width, back_color=bar.style.bgcolor or Color.parse("#555555"),
            bar_color=bar.style.color or Color.parse("bright_magenta"))
        segments = list(drawn.segments)
        return segments if len(segments) == size.height else None


def quiet_vertical_scrollbar(widget: Widget) -> ScrollBar:
    """``widget``'s vertical scrollbar, created (once) as a ``QuietScrollBar``
    exactly as ``Widget.vertical_scrollbar`` creates its own (note 1).
    Never raises."""
    bar = widget._vertical_scrollbar  # private, note 1
    if bar is None:
        bar = widget._vertical_scrollbar = QuietScrollBar(
            vertical=True, name="vertical", thickness=widget.scrollbar_size_vertical)
        bar.display = False
        widget.app._start_widget(widget, bar)  # private, note 1
    return bar


def painted_by_layout(widget: Widget, scroll_y: float | None) -> None:
    """In a layout that resized ``widget`` (a scrolling widget, from its
    ``_size_updated``): scroll it to ``scroll_y`` (None: leave it) without
    asking for a repaint, and drop the repaints it and its vertical
    scrollbar asked: the layout's frame draws both (note 3). Never raises."""
    bar = widget._vertical_scrollbar  # private, note 1
    if scroll_y is not None:
        widget.set_reactive(Widget.scroll_y, scroll_y)
        widget.set_reactive(Widget.scroll_target_y, scroll_y)
        if bar is not None:
            bar.set_reactive(ScrollBar.position, bar.validate_position(scroll_y))
    widget._repaint_required = False  # private, note 3
    if bar is not None:
        bar._repaint_required = False  # private, note 3


def scroll_end_now(widget: Widget) -> None:
    """Scroll ``widget`` to its last line at once, as
    ``widget.scroll_end(animate=False, immediate=True, x_axis=False)`` does
    (an anchored widget anchored again), with no callback after the frame
    (note 12). Never raises for a mounted widget."""
    if widget._anchored and widget._anchor_released:  # private, note 12
        widget._anchor_released = False
    widget._scroll_to(None, widget.max_scroll_y, animate=False, release_anchor=False)  # private, note 12


def append_fitting_line(log: RichLog, line: Text, width: int) -> bool:
    """Append ``line`` to ``log`` as ``log.write(line, width=width,
    shrink=False, expand=False, scroll_end=False)`` would (note 10), when it
    is one line that fits ``width`` cells, the log knows its size and keeps
    every line (no ``max_lines``); False (nothing done) otherwise. Never raises."""
    if (not log._size_known or log.max_lines is not None  # private, note 10
            or line.cell_len > width or line.justify not in (None, "default") or line.overflow is not None
            or line.end != "\n" or "\n" in line.plain or "\t" in line.plain):
        return False
    joined = Text("\n").join((line,))  # as ``Text.__rich_console__`` does: the line's own style becomes a span
    strip = Strip(list(joined.render(log.app.console, end="")))
    log.lines.append(strip)
    log._widest_line_width = max(log._widest_line_width, strip.cell_length)  # private, note 10
    log.virtual_size = Size(log._widest_line_width, len(log.lines))
    return True


def set_static_content(widget: Static, content: VisualType) -> None:
    """Make ``content`` what ``widget`` shows, as ``Static.update`` does, but
    ask for no repaint: the caller repaints what changed (note 6). Never raises
    for a ``rich`` ``Text`` or a string."""
    widget._Static__content = content  # type: ignore[attr-defined]  # private, note 6
    widget._Static__visual = None  # type: ignore[attr-defined]  # converted when ``visual`` is first read


_textual_divide = Strip.divide


def _divide_without_self_cycle(strip: Strip, cuts: Iterable[int]) -> Sequence[Strip]:
    """``Strip.divide``, but a cut at the strip's own length (as the
    compositor asks it: one cut, in a list) is not kept in the strip's cache
    (note 7): the same strips, no cycle. Any other cut is Textual's."""
    if type(cuts) is list and len(cuts) == 1 and cuts[0] == strip.cell_length:
        return [strip]
    return _textual_divide(strip, cuts)


def strips_without_self_cycles() -> None:
    """Patch ``Strip.divide`` (note 7) for every app of this process; called
    by each app's constructor, so more than once. Never raises."""
    if Strip.divide is not _divide_without_self_cycle:
        Strip.divide = _divide_without_self_cycle  # type: ignore[method-assign, assignment]  # private, note 7
