"""split_lines gives the lines Rich's ``Text.split("\\n", allow_blank=True)``
gives: characters, spans in order, base style,
justify and overflow, for any text and spans."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from rich.text import Span, Text

from momiji_tui.ui.models.text_lines import split_lines


def described(lines) -> list[tuple[object, ...]]:
    return [(line.plain, line.spans, line.style, line.justify, line.overflow, line.no_wrap, line.end, line.tab_size)
            for line in lines]


@st.composite
def texts(draw) -> Text:
    plain = draw(st.text(alphabet="ab \n日", max_size=14))
    text = Text(plain, style=draw(st.sampled_from(["", "bold"])), justify=draw(st.sampled_from([None, "left"])),
                overflow=draw(st.sampled_from([None, "fold"])))
    for _ in range(draw(st.integers(0, 6))):
        start = draw(st.integers(0, len(plain)))
        end = draw(st.integers(start, len(plain)))  # empty spans too: Rich drops their remains
        text.spans.append(Span(start, end, draw(st.sampled_from(["red", "blue", "bold"]))))
    return text


@given(texts())
def test_the_lines_are_rich_s_lines(text):
    before = (text.plain, list(text.spans))
    assert described(split_lines(text)) == described(text.split("\n", allow_blank=True))
    assert (text.plain, list(text.spans)) == before  # the text itself is not changed


def test_a_span_across_lines_is_cut_at_each_newline():
    text = Text("ab\ncd\n")
    text.stylize("red", 1, 4)
    lines = split_lines(text)
    assert [line.plain for line in lines] == ["ab", "cd", ""]
    assert [line.spans for line in lines] == [[Span(1, 2, "red")], [Span(0, 1, "red")], []]
