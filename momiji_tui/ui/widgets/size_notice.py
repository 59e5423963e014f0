"""'The window is too small': shown by a ``SizedScreen`` below its minimum size."""

from __future__ import annotations

from textual.widgets import Static


class SizeNotice(Static):
    """'The window is too small' with the size needed."""

    def show(self, have: tuple[int, int], need: tuple[int, int]) -> None:
        """Say the window is ``have`` (columns, rows) and must be at least ``need``."""
        w, h = have
        nw, nh = need
        self.update(
            f"Momiji needs a window of at least {nw}×{nh}.\n"
            f"This one is {w}×{h}: make it {'wider' if w < nw else ''}"
            f"{' and ' if w < nw and h < nh else ''}{'taller' if h < nh else ''}.\n\n"
            "The game is saved; ctrl+q quits."
        )
