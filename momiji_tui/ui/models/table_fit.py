"""Text made to fit (no Textual): the fixed-height regions (message,
preview) never change height, so a longer text is cut, its last shown line
ending with an ellipsis; lines of tokens (hand cards, objectives, a seat's
head line) are packed so that no token is ever split by a wrap."""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

ELLIPSIS = "…"


def fitted_height(text: Text, width: int) -> int | None:
    """The lines ``text`` takes at ``width`` cells when none of its lines is
    wider (one line each, as Textual wraps it); None when one would wrap
    (then only Textual can say). Raises nothing."""
    parts = text.plain.split("\n")
    if width > 0 and "\t" not in text.plain and all(cell_len(part) <= width for part in parts):
        return len(parts)
    return None


def fit_lines(text: Text, width: int, lines: int, console: Console) -> Text:
    """``text`` wrapped at ``width`` cells (Rich's ``Text.wrap``), its lines
    joined by newlines so that each fits (the space a line breaks at
    dropped, as Textual's wrap drops it, a paragraph's last line kept as it
    is); if it takes more than ``lines``
    lines, only the first ``lines`` are kept and the last one ends with
    ``…`` (styles kept). ``text`` itself is not changed; a text whose lines
    fit already, or ``width``/``lines`` <= 0, is returned as it is (the
    region then draws it line by line, not through Textual's wrap).
    ``text.no_wrap`` is not honoured (each paragraph wraps; the regions' texts
    never set it). Raises nothing."""
    if width <= 0 or lines <= 0:
        return text
    parts = text.plain.split("\n")
    if len(parts) <= lines and all(cell_len(part) <= width for part in parts):
        return text  # fits as it is: no need to wrap (the common case, once per key)
    # Paragraph by paragraph: the lines ``Text.wrap`` gives for the whole text, up to one too many.
    wrapped: list[Text] = []
    ends: set[int] = set()  # each paragraph's last line
    for paragraph in text.split("\n", allow_blank=True):
        wrapped.extend(paragraph.wrap(console, width))
        if len(wrapped) > lines:
            break
        ends.add(len(wrapped) - 1)
    else:
        for i, line in enumerate(wrapped):
            if i not in ends:
                line.rstrip()  # the space a line breaks at is not drawn; a paragraph's last line keeps its own
        return Text("\n").join(wrapped)
    kept = wrapped[:lines]  # new lines (``wrap`` made them): changed here, ``text`` is not
    last = kept[-1]
    last.rstrip()
    if last.cell_len >= width:
        last.truncate(width - 1)
    last.append(ELLIPSIS, style=last.get_style_at_offset(console, max(len(last) - 1, 0)))
    return Text("\n").join(kept)


def pack_tokens(tokens: Sequence[Text], width: int, *, sep: str = "  ", indent: str = "") -> Text:
    """``tokens`` laid out left to right in lines of at most ``width`` cells,
    ``sep`` between two tokens of a line and ``indent`` before every line but
    the first: a token is never split (a card key stays with its card, an
    objective's name with its owner). A token wider than a line gets a line of
    its own (cut by whoever shows it). ``width`` <= 0: one line. Raises nothing."""
    out = Text()
    used = 0
    for i, token in enumerate(tokens):
        if i and width > 0 and used + len(sep) + token.cell_len > width:
            out.append("\n" + indent)
            used = len(indent)
        elif i:
            out.append(sep)
            used += len(sep)
        out.append_text(token)
        used += token.cell_len
    return out


def fit_tokens(tokens: Sequence[Text], width: int, *, sep: str = "  ") -> Text:
    """As many of ``tokens`` as fit one line of ``width`` cells, in order (the
    first always), ``sep`` between them; when some are left out the line ends
    with `` …``. ``width`` <= 0: every token. Raises nothing."""
    whole = Text(sep).join(tokens)
    if width <= 0 or whole.cell_len <= width:
        return whole
    out = Text()
    for i, token in enumerate(tokens):
        if i and out.cell_len + len(sep) + token.cell_len + 2 > width:
            break
        if i:
            out.append(sep)
        out.append_text(token)
    out.append(" " + ELLIPSIS, style="dim")
    return out
