"""Blocks of lines side by side (``render.join_columns``: your hand and piles
drawn big, the display's columns) and the hand's cards made once for each
way they look: the same texts as before."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given, strategies as st
from rich.style import Style
from rich.text import Text

from momiji_tui.ui.models.render import click, join_columns
from momiji_tui.ui.models.table_text import HandSlice, hand_text


def appended_columns(blocks: Sequence[Sequence[Text]], gap: int = 1) -> Text:
    """``join_columns`` as it was written first: every cell appended."""
    if not blocks:
        return Text()
    height = max(len(b) for b in blocks)
    widths = [max((line.cell_len for line in b), default=0) for b in blocks]
    lines = []
    for row in range(height):
        line = Text()
        for k, (block, width) in enumerate(zip(blocks, widths, strict=True)):
            if k:
                line.append(" " * gap)
            cell = block[row] if row < len(block) else Text("")
            line.append_text(cell)
            line.append(" " * (width - cell.cell_len))
        lines.append(line)
    return Text("\n").join(lines)


styles = st.sampled_from(["", "bold", "dim italic", "red on blue", Style(meta={"momiji": "card(1)"})])
def _spanned(plain: str, style: str | Style, spans: list[tuple[int, int, str | Style]]) -> Text:
    text = Text(plain, style=style)
    for start, length, span_style in spans:
        text.stylize(span_style, start, start + length)
    return text


cells = st.builds(_spanned, st.text(st.sampled_from("ab •Π紅"), max_size=6), styles,
                  st.lists(st.tuples(st.integers(0, 5), st.integers(1, 3), styles), max_size=3))


@given(blocks=st.lists(st.lists(cells, max_size=4), max_size=5), gap=st.integers(0, 3))
def test_rules_4_2_columns_joined_as_appending_each_cell_joined_them(blocks, gap):
    joined, appended = join_columns(blocks, gap), appended_columns(blocks, gap)
    assert joined == appended and joined.style == appended.style
    assert joined.spans == appended.spans  # the same spans, in the same order (the order styles apply in)


def test_rules_4_2_a_hand_card_looks_the_same_each_time_it_is_drawn():
    """A card made once for each way it looks is shown again unchanged,
    whatever the hands drawn between (nothing writes into a kept card)."""
    hand = (0, 5, 10, 15)
    for big in (True, False):
        first = hand_text(HandSlice(hand, (5,), 1, ("1", "2", "3", "4"), big, 60))
        hand_text(HandSlice(hand, (), None, ("1", "2", "3", "4"), big, 60))
        again = hand_text(HandSlice(hand, (5,), 1, ("1", "2", "3", "4"), big, 60))
        assert again == first and again.spans == first.spans
    assert click("card(1)") is click("card(1)") and click("card(1)").meta == {"momiji": "card(1)"}
