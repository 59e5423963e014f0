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

from textual.containers import Vertical
from textual.geometry import Size
from textual.reactive import Reactive
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
    (``BLANK``): a layout that resized it repainted ~19 lines one by one."""

    BLANK = True
    virtual_size = quiet_virtual_size()
