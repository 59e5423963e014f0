"""fit_lines: a fixed-height region's text is cut to its lines with an
ellipsis (issue 13), never re-wrapped by the widget."""

from __future__ import annotations

import io

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
    """A region draws a text line by line only when each line fits
    (issue 13): one that wraps into its two lines comes back wrapped, its
    words and styles kept."""
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
