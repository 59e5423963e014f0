"""Note 9 of ``_textual_private`` (kept in its own module for its size): a
table region's content rows drawn as Textual draws them, without Textual's
``StylesCache`` (issue 13, ninth round).

Textual draws a widget's rows through ``Widget.render_lines`` →
``StylesCache.render_widget``. For each repaint it walks the widget's
ancestors for its colours, draws the whole visual again when any part of it
changed (``Widget._render_content``: every line of the region, not only the
changed ones), applies the link style to every segment with a click meta
(``Visual.to_strips``), pads each row to the content width over the inner
background, then draws borders, padding, outline, hatch, text opacity, tint,
opacity and the app's line filters (``StylesCache.render_line``). A confirm
at the table repainted ~6 lines of the regions that way at 0.3-1 ms each.

A table region has none of the middle steps on its content rows: no left or
right border or padding, no outline or hatch, full opacity, no tint, its
text at the left and top, never a text selection. ``ContentRows`` draws such
a row as those steps leave it: the line's strip over the widget's visual
style (``QuickLines``' own drawing), the link style on its click segments,
padded to the content width over the inner background, then the line filters
and the crop, and keeps each padded row by its line and everything it was
drawn from, so an unchanged line is not drawn again. Rows outside the
content (the top border of ``#you``) and any widget that has one of the
steps are left to Textual (``None``).

What the rows are drawn over (the widget's colours and its ancestors', its
link style, whether a step is left to Textual) takes ~40 µs to work out,
walking the ancestors; it is worked out again only when one of their style
counters changes (private ``Styles._cache_key``; Textual's own
``Widget.visual_style`` cache keys on the widget's alone) or the size, theme, selection or the
link under the mouse does (twelfth round).

Textual internals it relies on (re-check when the pin moves):
``Visual.to_strips`` applies the link style with the private
``Strip._apply_link_style`` unless the widget is a container or the screen
is selecting (private ``Screen._selecting``), and passes
``RenderOptions(widget._get_style, widget.styles, ...)`` (private
``Widget._get_style``); ``Widget.render_line`` draws a row past the visual's
lines as ``Strip.blank(size.width, visual_style.rich_style)``;
``StylesCache.render_line`` pads a content row with
``adjust_cell_length(content_width, Style(background=base + background).rich_style)``
(``ContentRows._finished`` does the link style and the padding in one
strip) and ``StylesCache.render`` applies each filter with ``apply_filter(filter,
background)`` and crops the columns last. ``tests/ui/test_content_rows.py``
compares every row with Textual's own drawing.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import NamedTuple, cast

from rich.segment import Segment
from rich.style import Style as RichStyle
from rich.text import Text
from textual._border import get_box  # private, see ``row_frame``
from textual._segment_tools import line_pad  # private, see ``row_frame``
from textual.color import Color
from textual.css.styles import RulesMap
from textual.geometry import Region
from textual.screen import Screen
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions
from textual.widget import Widget

__all__ = ["ContentRows", "LineStrip", "RowFrame", "render_options", "row_frame", "style_key"]

LineStrip = Callable[[Text, Style, RenderOptions], Strip]
"""Draws one line that fits the content width over a visual style (the
strip ``QuickLines`` gives for it)."""


class ContentRows:
    """The padded content rows of the lines a widget shows, as drawn last
    (all from one context): a line shown again is not drawn again, a line no
    longer shown is forgotten."""

    def __init__(self) -> None:
        self.context: tuple[Style, Color, Color, tuple[object, ...] | None, int, str] | None = None
        self.context_key: Hashable = None  # what ``context`` was worked out from (``style_key``)
        self.rows: dict[Hashable, Strip] = {}
        self.inner: RichStyle | None = None  # the inner background's Rich style (rows are padded with it)
        self.link_style: RichStyle | None = None  # None: no link style applied
        self.lines: Sequence[Text] = ()  # the lines ``keys`` are of
        self.keys: list[Hashable] = []  # each line's key: its characters, spans and style
        self.clicks: dict[bytes, bool] = {}  # a style's meta (as Rich keeps it) → whether it holds "@click"

    def render(self, widget: Widget, crop: Region, lines: Sequence[Text], options: RenderOptions,
               line_strip: LineStrip, textual_rows: Callable[[Region], list[Strip]]) -> list[Strip] | None:
        """The rows of ``crop`` (widget coordinates, gutter included) as
        Textual draws them for a widget showing ``lines`` (each fitting the
        content width), drawn with ``options`` (``render_options``); None
        when the widget's styles need Textual's own
        drawing. Gutter rows come from ``textual_rows``. Never raises for a
        mounted widget."""
        context_key = style_key(widget)
        if context_key != self.context_key or self.context is None:
            context = _row_context(widget)
            if context is None:
                return None
            self.context_key = context_key
            if context != self.context:  # what the rows are drawn over changed: draw every row again
                self.context, self.rows = context, {}
                self.inner = Style(background=context[1] + context[2]).rich_style
                self.link_style = widget.link_style if context[3] is not None else None
        context = self.context
        style, background, content_width = context[0], context[2], context[4]
        inner, link_style = self.inner, self.link_style
        if lines is not self.lines:  # another text: keep the rows of its lines only
            self.lines, self.keys = lines, [(line.plain, tuple(line.spans), line.style) for line in lines]
            self.rows = {key: self.rows[key] for key in [*self.keys, None] if key in self.rows}
        styles = widget.styles
        top = styles.gutter.top
        height = widget.size.height
        rows = self.rows
        filters = widget.get_line_filters()
        out: list[Strip] = []
        for y in crop.line_range:
            line_y = y - top
            if not 0 <= line_y < height:  # Textual's row, its filters applied already
                out.extend(textual_rows(Region(0, y, widget.region.width, 1)))
                continue
            line, key = (lines[line_y], self.keys[line_y]) if line_y < len(lines) else (None, None)
            row = rows.get(key)
            if row is None:
                if line is None:
                    row = Strip.blank(content_width, style.rich_style).adjust_cell_length(content_width, inner)
                else:
                    row = self._finished(line_strip(line, style, options), link_style, content_width, inner)
                rows[key] = row
            for filter_ in filters:
                row = row.apply_filter(filter_, background)
            out.append(row)
        if crop.column_span != (0, widget.region.width):
            out = [row.crop(*crop.column_span) for row in out]
        return out


    def _finished(self, row: Strip, link_style: RichStyle | None, width: int, inner: RichStyle | None) -> Strip:
        """``row`` with the link style on its click segments, as
        ``Strip._apply_link_style`` puts it (whether a meta holds a click is
        worked out once per meta, not per segment each time), then padded to ``width``
        over ``inner`` as ``adjust_cell_length`` pads it: one strip made, not
        two."""
        segments = row._segments
        length = row.cell_length
        if link_style is not None:
            clicks = self.clicks
            out: list[Segment] = []
            for segment in segments:
                text, segment_style, control = segment
                if not segment_style:
                    out.append(Segment(text))
                    continue
                meta = segment_style._meta
                if meta is None:
                    out.append(segment)
                    continue
                click = clicks.get(meta)
                if click is None:
                    click = clicks[meta] = "@click" in segment_style.meta
                out.append(Segment(text, segment_style + link_style, control) if click else segment)
            segments = out
        elif length == width:
            return row
        if length < width:
            return Strip([*segments, Segment(" " * (width - length), inner)], width)
        strip = Strip(segments, length)
        return strip if length == width else strip.adjust_cell_length(width, inner)


def render_options(widget: Widget) -> RenderOptions:
    """The options ``Visual.to_strips`` draws ``widget``'s visual with (no
    selection)."""
    return RenderOptions(widget._get_style, cast(RulesMap, widget.styles))  # private, see the module's docstring


def style_key(widget: Widget) -> tuple[object, ...]:
    """What a widget's rows are drawn over, as a key that is cheap to
    compare (what ``_row_context`` and Textual's ``StylesCache`` work out
    from it takes ~45 µs): each style
    counter of the widget and its ancestors (private ``Styles._cache_key``:
    any change of a style of any of them changes it; Textual's own
    ``Widget.visual_style`` cache keys on the widget's counter alone), the widget's outer size
    (private ``Widget._size``; its content size follows from it and its
    styles), the theme, the screen's selection (private
    ``Screen._selecting``) and the link under the mouse. Read from the
    ancestors walked once: ``Widget.screen`` and ``Widget.size`` walk them
    again. Never raises for a mounted widget."""
    nodes = widget.ancestors_with_self
    screen = next((node for node in nodes if isinstance(node, Screen)), None)
    selection = (screen._selecting, screen.selections.get(widget)) if screen is not None else None  # private
    return (tuple((node, node.styles._cache_key) for node in nodes), widget._size,  # private
            widget.app.theme, selection, widget.hover_style, widget.auto_links)


def _row_context(widget: Widget) -> tuple[Style, Color, Color, tuple[object, ...] | None, int, str] | None:
    """What a content row is drawn from beyond its line: the visual style,
    the background under the widget and its own (``background_colors``),
    what its link style is made of (None: no link style applied), the
    content width and the theme; None when a step of Textual's drawing that
    ``ContentRows`` leaves out applies to this widget."""
    styles = widget.styles
    gutter = styles.gutter
    if widget.BLANK or widget.text_selection is not None or gutter.left or gutter.right \
            or any(edge for edge, _ in styles.outline) or styles.text_opacity != 1.0 or styles.tint.a \
            or (styles.has_rule("hatch") and styles.hatch != "none") or styles.content_align != ("left", "top") \
            or widget.hover_style.link_id or widget.opacity != 1.0:
        return None
    base_background, background = widget.background_colors
    links = widget.auto_links and not widget.is_container and not widget.screen._selecting  # private
    link = (styles.link_style, styles.link_color, styles.link_background, styles.auto_link_color) if links else None
    return widget.visual_style, base_background, background, link, widget.size.width, widget.app.theme


class RowFrame(NamedTuple):
    """What ``StylesCache.render_line`` puts around a content row of a
    widget (``row_frame``)."""

    width: int  # the row's cells
    content_width: int  # the content line's cells
    pad_left: int
    pad_right: int
    inner: RichStyle  # the inner background's Rich style (padding, and the line padded to the content width)
    left: Segment | None  # the left border's cell (None: no border there)
    right: Segment | None
    background: Color  # the background line filters are applied over


def row_frame(widget: Widget) -> RowFrame | None:
    """The frame of ``widget``'s content rows, as ``StylesCache.render_line``
    draws a content row (its case "content with border and padding"), or
    None when a step it leaves out applies: an outline, text opacity, tint,
    hatch, opacity below 1, a text selection or a link under the mouse
    (``StylesCache.render_widget`` restyles it). Work it out again when
    ``style_key(widget)`` changes. Never raises for a mounted widget.

    Relies on Textual internals (re-check when the pin moves):
    ``StylesCache.render_line`` pads the content line to the content width
    (``adjust_cell_length`` over the inner background), pads it left and
    right (private ``_segment_tools.line_pad``), puts the left and right
    border cells around it (private ``_border.get_box``, each coloured
    ``base_background + border colour``), and makes one strip of the
    widget's width; ``StylesCache.render`` then applies the line filters
    over the widget's background."""
    styles = widget.styles
    if widget.text_selection is not None or any(edge for edge, _ in styles.outline) \
            or styles.text_opacity != 1.0 or styles.tint.a or widget.opacity != 1.0 \
            or (styles.has_rule("hatch") and styles.hatch != "none") or widget.hover_style.link_id:
        return None
    base_background, background = widget.background_colors
    inner, outer = Style(background=base_background + background), Style(background=base_background)  # as
    # ``StylesCache.get_inner_outer`` makes them
    _top, (border_right, right_color), _bottom, (border_left, left_color) = styles.border
    left = get_box(border_left, inner, outer, Style(foreground=base_background + left_color))[1][0] \
        if border_left else None
    right = get_box(border_right, inner, outer, Style(foreground=base_background + right_color))[1][2] \
        if border_right else None
    _pad_top, pad_right, _pad_bottom, pad_left = styles.padding
    return RowFrame(widget.region.width, widget.content_region.width, pad_left, pad_right, inner.rich_style,
                    left, right, background)


def framed_row(frame: RowFrame, content: Strip) -> Strip:
    """A content row as ``StylesCache.render_line`` draws it from the
    content line ``content`` (``widget.render_line``) in ``frame``; the
    line filters are not applied (see ``row_frame``). Raises nothing."""
    width, content_width, pad_left, pad_right, inner, left, right, _ = frame
    line: list[Segment] = list(content.adjust_cell_length(content_width, inner))
    if pad_left or pad_right:
        line = line_pad(line, pad_left, pad_right, inner)
    if left is not None:
        line.insert(0, left)
    if right is not None:
        line.append(right)
    return Strip(line, width)
