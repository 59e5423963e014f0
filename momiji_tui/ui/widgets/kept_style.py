"""A widget's Rich style computed once per repaint, not once per line
(issue 13).

Textual's ``DOMNode.rich_style`` walks every ancestor's styles each time it
is read, and ``RichLog.render_line`` reads it for every line it draws: a
move that scrolled the log by a line re-drew its ~60 lines at 200×60 and
computed the same style each time (~116 times per play). ``KeptStyleLog``
computes it once at the start of each repaint (``render_lines``) and keeps
it for that repaint only, so a style change (theme, CSS, an ancestor's
background) is seen by the next repaint as before.
"""

from __future__ import annotations

from typing import Any

from rich.style import Style
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import RichLog


class KeptStyleLog(RichLog):
    """A ``RichLog`` whose ``rich_style`` is computed once per ``render_lines``.

    A subclass, not a mixin: Textual collects a widget's default CSS along
    the first base of each class only, so a mixin placed first would hide
    ``RichLog``'s own CSS."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._kept_style: Style | None = None

    @property
    def rich_style(self) -> Style:
        """The widget's Rich style (as ``DOMNode.rich_style``); during a
        repaint, the one computed when it began. Never raises."""
        kept = self._kept_style
        return kept if kept is not None else super().rich_style

    def render_lines(self, crop: Region) -> list[Strip]:
        """Repaint the lines in ``crop`` with the style computed once."""
        self._kept_style = None
        self._kept_style = self.rich_style
        try:
            return super().render_lines(crop)
        finally:
            self._kept_style = None
