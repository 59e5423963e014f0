"""A list entry whose wrapped lines stay under its text (a hanging indent):
``head`` (a number, a marker, spaces) then ``body``; when ``body`` does not
fit the width, its next lines start where it started, so a wrapped part never
reads as an entry of its own (the landscape draft's offer and panoramas,
RULES §2.1). Pure rich: no Textual.
"""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.style import StyleType
from rich.text import Text

#: The fewest cells left for the body beside the indent; narrower, the entry
#: wraps as plain text (the head's width would leave no room to read).
MIN_BODY = 12


class Hanging:
    """``head`` then ``body`` on one line; the body's wrapped lines are
    indented by the head's width, with ``pad_style`` on the indent (e.g. the
    click style of the entry, so the whole entry stays clickable)."""

    def __init__(self, head: Text, body: Text, *, pad_style: StyleType = "") -> None:
        self.head = head
        self.body = body
        self.pad_style = pad_style

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """The entry's lines at ``options.max_width`` (the body wrapped at
        word boundaries, folded when a word is longer than the line)."""
        indent = self.head.cell_len
        room = options.max_width - indent
        if room < MIN_BODY:
            yield Text.assemble(self.head, self.body)
            return
        lines = self.body.wrap(console, room, overflow="fold")
        pad = Text(" " * indent, style=self.pad_style)
        for i, line in enumerate(lines):
            line.rstrip()
            yield Text.assemble(self.head if i == 0 else pad, line)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        """As wide as head and body on one line, at least the head and one word."""
        return Measurement.get(console, options, Text.assemble(self.head, self.body))
