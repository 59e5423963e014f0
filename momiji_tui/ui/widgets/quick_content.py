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

from rich.segment import Segment
from textual.content import Content
from textual.css.styles import RulesMap
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual

__all__ = ["QuickContent"]


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
        rules = options.rules
        if (not width or options.selection is not None or options.post_style is not None
                or rules.get("text_align", "left") not in ("left", "start")
                or rules.get("text_wrap", "wrap") != "wrap" or rules.get("line_pad", 0)):
            return self.content.render_strips(width, height, style, options)
        lines = self.content.split(allow_blank=True)
        if "\t" in self.content.plain or any(line.cell_length > width for line in lines):
            lines = self.content.wrap(width, overflow=rules.get("text_overflow", "fold"))  # else: nothing wraps
        if height is not None:
            lines = lines[:height]
        get_style = options.get_style
        return [Strip([Segment(text, (style + text_style).rich_style)
                       for text, text_style in line.render(style, end="", parse_style=get_style)],
                      line.cell_length)
                for line in lines]

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return self.content.get_optimal_width(rules, container_width)

    def get_minimal_width(self, rules: RulesMap) -> int:
        return self.content.get_minimal_width(rules)

    def get_height(self, rules: RulesMap, width: int) -> int:
        return self.content.get_height(rules, width)
