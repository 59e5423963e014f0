"""The table footer's one line of text (no Textual): the keys that apply
now, each clickable, and the command palette's key at the right edge.

The footer is one widget drawing this line, so a change of the
keys offered is a repaint of one line, never a layout of the screen.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.style import Style
from rich.text import Text

from .render import CLICK_META


@dataclass(frozen=True)
class FooterKey:
    """One key of the footer: what is shown (``key``: the key map's label),
    what it does (``description``), the action a click runs, and whether it
    is drawn dim (``enabled`` False: offered but not possible now)."""

    key: str
    description: str
    action: str
    enabled: bool = True


@dataclass(frozen=True)
class FooterStyles:
    """The footer's rich styles (from the theme's footer variables)."""

    key: Style = field(default_factory=lambda: Style(bold=True))
    description: Style = field(default_factory=Style)
    separator: Style = field(default_factory=lambda: Style(dim=True))


def footer_text(keys: tuple[FooterKey, ...], palette: FooterKey | None, width: int,
                styles: FooterStyles = FooterStyles()) -> Text:
    """The footer line for ``width`` cells: ``keys`` from the left, each
    ``key description`` with its click action (``CLICK_META`` meta, run by
    the screen as a key press would), and ``palette`` (if any) after a ``▏``
    one cell from the right edge; the keys are cut with an ellipsis when they do not
    fit. ``width`` <= 0 gives the keys unpadded. Raises nothing."""
    left = Text(no_wrap=True, overflow="ellipsis", end="")
    for i, k in enumerate(keys):
        if i:
            left.append(" ")
        click = Style(meta={CLICK_META: k.action})
        dim = Style(dim=True) if not k.enabled else Style()
        left.append(k.key, styles.key + dim + click)
        left.append(" " + k.description, styles.description + dim + click)
    if palette is None or width <= 0:
        if width > 0:
            left.truncate(width, overflow="ellipsis", pad=True)
        return left
    right = Text(end="")
    right.append("▏", styles.separator)
    click = Style(meta={CLICK_META: palette.action})
    right.append(palette.key, styles.key + click)
    right.append(" " + palette.description, styles.description + click)
    right.append(" ")  # where Textual's footer left its margin
    room = max(width - right.cell_len, 0)
    left.truncate(room, overflow="ellipsis", pad=True)
    line = left + right
    line.truncate(width, overflow="ellipsis")
    return line
