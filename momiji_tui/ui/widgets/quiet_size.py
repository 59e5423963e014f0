"""Widgets of the table that a layout resizes without asking for another
layout (issue 13).

Textual sets the ``virtual_size`` of every widget a layout resized, and
``Widget.virtual_size`` then asks for another whole-screen layout and a
repaint: a play that grew your row (and so shrank the spacer beside the
log) cost two layouts where one placed everything. The table's regions and
its spacer never scroll, and the layout that resized them already placed
and repaints them, so their ``virtual_size`` asks for nothing.
"""

from __future__ import annotations

from typing import Any

from textual.containers import Vertical
from textual.geometry import Size
from textual.reactive import Reactive
from textual.widget import Widget
from textual.widgets import Static


def quiet_virtual_size() -> Reactive[Size]:
    """A ``virtual_size`` reactive that asks for neither a layout nor a
    repaint when it changes (for widgets that never scroll). Never raises."""
    return Reactive(Size(0, 0), layout=False, repaint=False)


class Spacer(Static):
    """The blank that fills the table's column beside a tall log (wide
    screens); resized by a layout, it asks for no second one. Drawn as blank
    lines of its style (``BLANK``), not through Textual's line cache: a
    confirm that moved your row repainted its ~17 lines one by one."""

    BLANK = True
    virtual_size = quiet_virtual_size()


class TableColumn(Vertical):
    """The table's column of regions (``#table``): it never scrolls, so a
    layout that resized its content asks for no second one. Its own cells
    (the padding beside the regions) are blank lines of its style
    (``BLANK``): a layout that resized it repainted ~19 lines one by one.

    It also keeps the regions whose text got shorter (issue 13, sixth
    round): such a region keeps its lines, blank at its bottom, and asks for
    no layout (nothing moves: a repaint). The next time a region needs more
    lines, a turn ends, the window is resized or the table's screen comes
    back (the table screen's calls), every kept region asks for a layout, so
    that one layout measures them all (Textual repaints what it moves).
    While the table does not fit its window, a shorter region lays it out at
    once: the lines it frees may bring the rest back into view."""

    BLANK = True
    virtual_size = quiet_virtual_size()

    def __init__(self, *children: Widget, **kwargs: Any) -> None:
        super().__init__(*children, **kwargs)
        self._kept: list[Widget] = []

    def keep_lines(self, region: Widget) -> bool:
        """Whether ``region`` (shorter now) may keep its lines until the next
        layout; False when the table overflows its window (lay it out now).
        Raises nothing."""
        if self.overflows():
            return False
        if region not in self._kept:
            self._kept.append(region)
        return True

    def lay_out_kept(self) -> None:
        """Have every kept region ask for a layout (one is being asked)."""
        kept, self._kept = self._kept, []
        for region in kept:
            region.refresh(layout=True)

    def overflows(self) -> bool:
        """Whether the table's regions take more lines than it shows (its
        content, or the window it sits in with the log, cut at the bottom)."""
        parent = self.parent
        if self.virtual_size.height > self.size.height:
            return True
        return isinstance(parent, Widget) and parent.virtual_size.height > parent.size.height
