"""A region's text drawn without Textual's per-cell offsets (issue 13,
fifth round).

Textual draws a ``Content`` by building, for every segment of every line, a
new Rich style whose meta holds the segment's offset (``"offset": (x, y)``,
which only mouse text selection reads), and a Rich style with meta is
pickled when it is built: the table's regions are made of many short
segments (a card chip, a click meta per card), so a confirm spent ~40 % of
its repaint there (a one-line hand at 80×24, ~36 segments, cost more than
the whole log). ``QuickContent`` wraps the same ``Content`` and draws the
same cells with each segment's combined style as Textual combines it (its
``rich_style`` kept by Textual's own cache), only without the offset. A
widget drawn through it therefore offers no mouse text selection (its
``ALLOW_SELECT`` must be False); anything but plain left-aligned wrapped
text (a selection, a post style, alignment, no-wrap, line padding) is drawn
by Textual's own path. A text whose lines all fit (the table's texts are
packed to fit) is cut at its line ends without Textual's wrap.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from itertools import pairwise
from operator import itemgetter

from rich.segment import Segment
from rich.style import Style as RichStyle
from rich.text import Text
from textual._cells import cell_len
from textual._context import active_app
from textual.content import Content, Span
from textual.css.styles import RulesMap
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual

_LINE_STYLE = "line style"
"""Marks a line's own style among a piece's span styles (parsed as a
``stylize_before`` style: by the render options when it is a name)."""

__all__ = ["KeptLines", "QuickContent", "QuickLines", "fits_by_lines"]


class QuickContent(Visual):
    """``content`` drawn as Textual draws it, minus the selection offsets."""

    def __init__(self, content: Content) -> None:
        self.content = content

    def __str__(self) -> str:
        """The text, as ``str(Content)`` gives it (what ``render()`` read as before)."""
        return str(self.content)

    @property
    def plain(self) -> str:
        """The text without styles."""
        return self.content.plain

    def render_strips(self, width: int, height: int | None, style: Style,
                      options: RenderOptions) -> list[Strip]:
        """The strips of ``content`` wrapped at ``width`` (at most ``height``
        lines) over ``style``. Never raises for any text."""
        if not _plain_left_wrap(width, options):
            return self.content.render_strips(width, height, style, options)
        lines = self.content.split(allow_blank=True)
        if "\t" in self.content.plain or any(line.cell_length > width for line in lines):
            lines = self.content.wrap(width, overflow=options.rules.get("text_overflow", "fold"))  # else: nothing wraps
        if height is not None:
            lines = lines[:height]
        return [_line_strip(line, style, options) for line in lines]

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return self.content.get_optimal_width(rules, container_width)

    def get_minimal_width(self, rules: RulesMap) -> int:
        return self.content.get_minimal_width(rules)

    def get_height(self, rules: RulesMap, width: int) -> int:
        return self.content.get_height(rules, width)


def _plain_left_wrap(width: int, options: RenderOptions) -> bool:
    """True when the text is drawn as plain left-aligned wrapped text
    (what ``QuickContent`` and ``QuickLines`` draw themselves)."""
    rules = options.rules
    return bool(width) and options.selection is None and options.post_style is None \
        and rules.get("text_align", "left") in ("left", "start") \
        and rules.get("text_wrap", "wrap") == "wrap" and not rules.get("line_pad", 0)


def _line_strip(line: Content, style: Style, options: RenderOptions,
                drawn: dict[Style, RichStyle] | None = None) -> Strip:
    """One line of content drawn over ``style`` as Textual draws it, minus
    the selection offsets; ``drawn`` keeps each span style's Rich style over
    ``style`` (the same ``style`` every time it is passed)."""
    if drawn is None:
        return Strip([Segment(text, (style + text_style).rich_style)
                      for text, text_style in line.render(style, end="", parse_style=options.get_style)],
                     line.cell_length)
    segments = []
    for text, text_style in line.render(style, end="", parse_style=options.get_style):
        rich = drawn.get(text_style)
        if rich is None:
            rich = drawn[text_style] = (style + text_style).rich_style
        segments.append(Segment(text, rich))
    return Strip(segments, line.cell_length)


class KeptLines:
    """What a region drew last (a region keeps one and hands it to each
    ``QuickLines`` it renders), all for one ``context``: the strips of its
    lines, the Textual style of each Rich style of its texts, and the Rich
    style each Textual style is drawn with."""

    LIMIT = 4096
    """Styles kept at most: more (a text with ever new styles) starts afresh."""

    def __init__(self) -> None:
        self.context: Hashable = None
        self.strips: dict[Hashable, Strip] = {}
        self.styles: dict[str | RichStyle, Style] = {}
        self.drawn: dict[Style, RichStyle] = {}
        self.combined: dict[tuple[Hashable, ...], RichStyle] = {}  # span styles over a piece → its Rich style

    def start(self, context: Hashable) -> dict[Hashable, Strip]:
        """The strips kept for ``context`` (none, and nothing else kept,
        when it differs from the last one or more than ``LIMIT`` styles are
        kept)."""
        if context != self.context or len(self.styles) + len(self.drawn) + len(self.combined) > self.LIMIT:
            self.context, self.strips, self.styles, self.drawn, self.combined = context, {}, {}, {}, {}
        return self.strips

    def draw(self, line: Text, style: Style, options: RenderOptions, context: Hashable) -> Strip:
        """``line`` drawn over ``style`` as ``_line_strip`` draws
        ``content(line)`` with this ``context`` (the same segments), straight
        from its Rich spans: each set of spans over a piece of the line is
        combined once for the context (``Content.render``'s arithmetic), not
        once per line. A line with a tab or another character that is not
        printable takes ``_line_strip``."""
        self.start((style, context))
        plain = line.plain
        if not plain.isprintable():
            return _line_strip(self.content(line), style, options, self.drawn)
        length = len(plain)
        raw: list[Hashable] = [(_LINE_STYLE, line.style)] if line.style and length else []
        bounds = [(0, length)] if raw else []
        for start, end, span_style in line.spans:
            raw.append(span_style)
            bounds.append((start, end))
        if not raw:
            return Strip([Segment(plain, self._combined((), style, options))], cell_len(plain))
        # Content.render: enter and leave each span (0: the base style), in this order.
        events = [(0, False, 0), *((start, False, i) for i, (start, _) in enumerate(bounds, 1)),
                  *((end, True, i) for i, (_, end) in enumerate(bounds, 1)), (length, True, 0)]
        events.sort(key=itemgetter(0, 1))
        stack: list[int] = []
        segments = []
        combined = self.combined
        for (offset, leaving, index), (next_offset, _, _) in pairwise(events):
            if leaving:
                stack.remove(index)
            else:
                stack.append(index)
            if next_offset > offset:
                key = tuple(raw[i - 1] for i in sorted(stack) if i)
                rich = combined.get(key)
                if rich is None:
                    rich = self._combined(key, style, options)
                segments.append(Segment(plain[offset:next_offset], rich))
        return Strip(segments, cell_len(plain))

    def _combined(self, key: tuple[Hashable, ...], style: Style, options: RenderOptions) -> RichStyle:
        """The Rich style of a piece of a line under the span styles ``key``
        (in span order; a line's own style first, as ``stylize_before`` puts
        it) over ``style``, as ``_line_strip`` draws it; kept for the context."""
        convert = self._converter()
        styles = [options.get_style(raw[1]) if isinstance(raw, tuple) and isinstance(raw[1], str)
                  else convert(raw[1] if isinstance(raw, tuple) else raw) for raw in key]  # type: ignore[arg-type]
        rich = self.combined[key] = (style + Style.combine([style, *styles])).rich_style
        return rich

    def _converter(self) -> Callable[[str | RichStyle], Style]:
        """Converts a Rich span style as ``Content.from_rich_text`` does (the
        app's console parses style names, its ANSI theme maps ANSI colours),
        each once for this context."""
        get_style: Callable[[str], RichStyle]
        try:
            app = active_app.get()
        except LookupError:
            get_style, ansi_theme = RichStyle.parse, None
        else:
            get_style, ansi_theme = app.console.get_style, app.ansi_theme
        styles = self.styles

        def convert(style: str | RichStyle) -> Style:
            converted = styles.get(style)
            if converted is None:
                rich = get_style(style) if isinstance(style, str) else style
                converted = styles[style] = Style.from_rich_style(rich, ansi_theme)
            return converted

        return convert

    def content(self, line: Text) -> Content:
        """``line`` as ``Content.from_rich_text`` converts it, each Rich style
        converted once for this context (``_converter``)."""
        convert = self._converter()
        content = Content(line.plain, [Span(start, end, convert(style)) for start, end, style in line.spans])
        if line.style:
            content = content.stylize_before(line.style if isinstance(line.style, str) else convert(line.style))
        return content


def fits_by_lines(lines: Sequence[Text], width: int, options: RenderOptions) -> bool:
    """True when ``QuickLines`` of ``lines`` draws them line by line at
    ``width`` (plain left-aligned wrapped text, every line fitting, no tab)."""
    return _plain_left_wrap(width, options) and _each_fits(lines, width)


def _each_fits(lines: Sequence[Text], width: int) -> bool:
    """True when every line fits ``width`` cells and none holds a tab."""
    return all(line.cell_len <= width and "\t" not in line.plain for line in lines)


class QuickLines(Visual):
    """Rich text lines that each fit their width, drawn as ``QuickContent``
    draws their text (the same cells); a line equal to one drawn last time
    (same characters, spans and style) over the same ``context`` (base
    style, theme) is not drawn again. Anything else falls back to ``QuickContent``
    of ``content()``, the whole text as a ``Content``."""

    def __init__(self, lines: tuple[Text, ...], kept: KeptLines, context: Hashable,
                 content: Callable[[], Content]) -> None:
        self.lines = lines
        self.kept = kept
        self.context = context
        self.content = content

    def __str__(self) -> str:
        """The text, as ``str(Content)`` gives it."""
        return "\n".join(line.plain for line in self.lines)

    @property
    def plain(self) -> str:
        """The text without styles."""
        return str(self)

    def render_strips(self, width: int, height: int | None, style: Style,
                      options: RenderOptions) -> list[Strip]:
        """The strips of the lines (at most ``height``) over ``style``; lines
        drawn last time with the same context are reused. Never raises for
        any text."""
        if not fits_by_lines(self.lines, width, options):
            return QuickContent(self.content()).render_strips(width, height, style, options)
        kept = self.kept
        old = kept.start((style, self.context))
        new: dict[Hashable, Strip] = {}
        out = []
        for line in self.lines if height is None else self.lines[:height]:
            key = (line.plain, tuple(line.spans), line.style)
            strip = new.get(key)
            if strip is None:
                strip = old.get(key)
            if strip is None:
                strip = kept.draw(line, style, options, self.context)
            new[key] = strip
            out.append(strip)
        kept.strips = new
        return out

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        """Cells the text would like (Textual's measure of the whole text)."""
        return self.content().get_optimal_width(rules, container_width)

    def get_minimal_width(self, rules: RulesMap) -> int:
        """Fewest cells the text can take (Textual's measure of the whole text)."""
        return self.content().get_minimal_width(rules)

    def get_height(self, rules: RulesMap, width: int) -> int:
        """Lines the text takes at ``width`` cells: one per line when every
        line fits (plain wrapped text, no line padding), else Textual's
        measure of the whole text."""
        if width > 0 and rules.get("text_wrap", "wrap") == "wrap" and not rules.get("line_pad", 0) \
                and _each_fits(self.lines, width):
            return len(self.lines)
        return self.content().get_height(rules, width)
