"""The only place where ``momiji_tui.ui`` relies on Textual internals.

Textual is pinned (``textual==8.2.8``). Re-check everything here when that pin
moves; ``tests/ui/test_table_confirm_work.py`` exercises each item.

1. ``Widget.vertical_scrollbar`` creates a plain ``ScrollBar`` and starts it
   with ``App._start_widget`` (it keeps it in ``Widget._vertical_scrollbar``).
   A layout that resizes a scrolling widget sets its scrollbar's
   ``virtual_size``, and ``Widget.virtual_size`` then asks for a second
   whole-screen layout, though a scrollbar is drawn from its own
   ``window_size``/``window_virtual_size`` and placed by the layout that
   just ran (issue 13, fourth round: a play that grew the table above the
   log at 80×24 laid the screen out twice). ``quiet_vertical_scrollbar``
   creates the scrollbar the same way, as a ``QuietScrollBar``.
"""

from __future__ import annotations

from textual.geometry import Size
from textual.reactive import Reactive
from textual.scrollbar import ScrollBar
from textual.widget import Widget

__all__ = ["QuietScrollBar", "quiet_vertical_scrollbar"]


class QuietScrollBar(ScrollBar):
    """A scrollbar whose ``virtual_size`` asks for neither a layout nor a
    repaint (a scrollbar never scrolls)."""

    virtual_size = Reactive(Size(0, 0), layout=False, repaint=False)


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
