"""Small terminals: below a screen's minimum size, say how big the window
must be instead of drawing a broken table; recover when it grows.

A screen that wants this subclasses ``SizedScreen``, sets ``MIN_SIZE`` and
yields a ``SizeNotice`` (``ui/widgets/size_notice.py``) first in ``compose``.
The screen gets the CSS class ``-too-small`` (which hides everything but the
notice, see ``momiji.tcss``) and ``-wide`` when there is room for
side-by-side panels. The app calls ``fit_to_size`` on every sized screen of
its stack when the terminal is resized.
"""

from __future__ import annotations

from textual import events
from textual.screen import Screen

from ..models.host import GameHost, host
from ..widgets.size_notice import SizeNotice

WIDE = 150  # columns from which the table puts the move log beside the table

__all__ = ["WIDE", "SizedScreen", "SizeNotice"]  # SizeNotice: what a sized screen composes


class SizedScreen(Screen[None]):
    """A screen with a minimum size (``MIN_SIZE``: columns, rows)."""

    MIN_SIZE: tuple[int, int] = (40, 12)

    @property
    def momiji(self) -> GameHost:
        """The app, as the screens see it (``models.host``)."""
        return host(self)

    @property
    def too_small(self) -> bool:
        """True while the terminal is smaller than ``MIN_SIZE``."""
        return self.has_class("-too-small")

    #: What keys may still do while the window is too small: leave the
    #: screen (the notice says the game is saved). Nothing else acts on a
    #: screen the player cannot see.
    ALLOWED_WHEN_TOO_SMALL: tuple[str, ...] = ("menu", "back", "leave")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """While too small, only leaving the screen applies (a pick, a
        rematch… behind the notice would be made blind)."""
        if self.too_small:
            return action in self.ALLOWED_WHEN_TOO_SMALL
        return True

    def fit_to_size(self) -> None:
        """Set ``-too-small``/``-wide`` from the terminal's size."""
        w, h = self.app.size
        small = w < self.MIN_SIZE[0] or h < self.MIN_SIZE[1]
        changed = small != self.too_small or (w >= WIDE) != self.has_class("-wide")
        self.set_class(small, "-too-small")
        self.set_class(w >= WIDE, "-wide")
        if small:
            for notice in self.query(SizeNotice):
                notice.show((w, h), self.MIN_SIZE)
        if changed:
            self.size_changed()

    def size_changed(self) -> None:
        """Called when the screen crosses a size threshold (redraw hook)."""
        self.refresh_bindings()

    def on_resize(self, event: events.Resize) -> None:
        self.fit_to_size()

    def on_screen_resume(self) -> None:
        self.fit_to_size()
