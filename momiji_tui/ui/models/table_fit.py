"""Text cut to a region's reserved lines (no Textual): issue 13's fixed-height
regions (message, preview) never change height, so a longer text is cut,
its last shown line ending with an ellipsis."""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

ELLIPSIS = "…"


def fit_lines(text: Text, width: int, lines: int, console: Console) -> Text:
    """``text`` wrapped at ``width`` cells; if it takes more than ``lines``
    lines, only the first ``lines`` are kept and the last one ends with
    ``…`` (styles kept). ``text`` itself is not changed; a text that fits,
    or ``width``/``lines`` <= 0, is returned as it is. Raises nothing."""
    if width <= 0 or lines <= 0:
        return text
    parts = text.plain.split("\n")
    if len(parts) <= lines and all(cell_len(part) <= width for part in parts):
        return text  # fits as it is: no need to wrap (the common case, once per key)
    wrapped = text.wrap(console, width)
    if len(wrapped) <= lines:
        return text
    kept = [line.copy() for line in wrapped[:lines]]
    last = kept[-1]
    last.rstrip()
    if last.cell_len >= width:
        last.truncate(width - 1)
    last.append(ELLIPSIS, style=last.get_style_at_offset(console, max(len(last) - 1, 0)))
    return Text("\n").join(kept)
