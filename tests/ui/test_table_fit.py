"""fit_lines: a fixed-height region's text is cut to its lines with an
ellipsis, never re-wrapped by the widget."""

from __future__ import annotations

import io

from hypothesis import given
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from momiji_tui.ui.models.table_fit import fit_lines

CONSOLE = Console(width=200, file=io.StringIO())


def test_a_text_that_fits_is_unchanged():
    text = Text("⏎ Play M0 → new pile\nAfter: 0→0 pts")
    assert fit_lines(text, 40, 2, CONSOLE) is text


def test_a_longer_text_keeps_its_lines_and_ends_with_an_ellipsis():
    text = Text("word " * 40 + "END", style="bold")
    fitted = fit_lines(text, 30, 2, CONSOLE)
    lines = fitted.plain.split("\n")
    assert len(lines) == 2 and all(len(line) <= 30 for line in lines)
    assert lines[-1].endswith("…") and "END" not in fitted.plain
    assert fitted.get_style_at_offset(CONSOLE, len(fitted.plain) - 1) == text.get_style_at_offset(CONSOLE, 0)
    assert text.plain.endswith("END")  # the original is not changed


def test_a_full_last_line_is_cut_to_leave_room_for_the_ellipsis():
    fitted = fit_lines(Text("x" * 95), 30, 2, CONSOLE)
    lines = fitted.plain.split("\n")
    assert lines == ["x" * 30, "x" * 29 + "…"]


def test_a_text_that_wraps_within_its_lines_comes_wrapped_each_line_fitting():
    """A region draws a text line by line only when each line fits: one that
    wraps into its two lines comes back wrapped, its words and styles kept."""
    text = Text.assemble(("⏎ ", "bold"), "Play M0 onto your Maple pile, then", (" collect", "italic"), " later")
    fitted = fit_lines(text, 30, 2, CONSOLE)
    lines = fitted.plain.split("\n")
    assert len(lines) == 2 and all(len(line) <= 30 for line in lines)
    assert fitted.plain.replace("\n", " ").split() == text.plain.split()
    at = fitted.plain.index("collect")
    assert fitted.get_style_at_offset(CONSOLE, at) == CONSOLE.get_style("italic")


def test_a_wrapped_text_keeps_the_spaces_at_its_end_as_textual_s_wrap_does():
    """Only the space a line breaks at is dropped: the last line keeps its
    trailing (here underlined) space, as Textual draws it unwrapped."""
    text = Text.assemble(("abc ", "reverse"), ("defgh ", "underline"))
    fitted = fit_lines(text, 6, 2, CONSOLE)
    assert fitted.plain == "abc\ndefgh "
    assert fitted.get_style_at_offset(CONSOLE, len(fitted.plain) - 1) == CONSOLE.get_style("underline")


def test_each_paragraph_s_last_line_keeps_its_trailing_spaces():
    fitted = fit_lines(Text("ab \ncd ef gh "), 5, 3, CONSOLE)
    assert fitted.plain == "ab \ncd ef\ngh "


WORDS = st.sampled_from(["a", "bb", "ccc", "dddd", "⏎", "Play", "日本", "  ", "\n", "x" * 12, "end turn", "…"])
STYLES = st.sampled_from(["", "bold", "dim", "italic underline"])


def wrapped_twice(text: Text, width: int, lines: int) -> Text:
    """``fit_lines`` as it was written first (the reference): the whole text
    wrapped, then each paragraph wrapped again when the lines fit."""
    parts = text.plain.split("\n")
    if len(parts) <= lines and all(cell_len(part) <= width for part in parts):
        return text
    wrapped = text.wrap(CONSOLE, width)
    if len(wrapped) <= lines:
        broken: list[Text] = []
        for paragraph in text.split("\n", allow_blank=True):
            paragraph_lines = list(paragraph.wrap(CONSOLE, width))
            for line in paragraph_lines[:-1]:
                line.rstrip()
            broken.extend(paragraph_lines)
        return Text("\n").join(broken)
    kept = [line.copy() for line in wrapped[:lines]]
    last = kept[-1]
    last.rstrip()
    if last.cell_len >= width:
        last.truncate(width - 1)
    last.append("…", style=last.get_style_at_offset(CONSOLE, max(len(last) - 1, 0)))
    return Text("\n").join(kept)


@given(pieces=st.lists(st.tuples(WORDS, st.sampled_from(["", " ", "  "]), STYLES), max_size=14),
       base=STYLES, width=st.integers(1, 30), lines=st.integers(1, 4))
def test_fitted_lines_are_rich_s_wrapped_lines(pieces, base, width, lines):
    """Wrapped paragraph by paragraph (once), the lines are the ones Rich's
    ``Text.wrap`` gives for the whole text (characters, spans and styles, as
    the whole text wrapped and then each paragraph again gave them): the
    space a line breaks at dropped when they fit, else the first ``lines``
    with an ellipsis."""
    text = Text(style=base)
    for word, gap, style in pieces:
        text.append(word + gap, style=style)
    fitted, reference = fit_lines(text, width, lines, CONSOLE), wrapped_twice(text, width, lines)
    assert (fitted.plain, fitted.spans, fitted.style) == (reference.plain, reference.spans, reference.style)
    plain = fitted.plain.split("\n")
    if fitted is not text and len(text.wrap(CONSOLE, width)) > lines:
        assert len(plain) == lines and plain[-1].endswith("…")
