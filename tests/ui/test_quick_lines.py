"""A region draws its text by lines and keeps each line's strip
(``ui/widgets/quick_content.QuickLines``): the same cells as ``QuickContent``
draws from the whole text, and a line drawn last time is not drawn again."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.style import Style
from rich.text import Span as RichSpan
from rich.text import Text
from textual.content import Content
from textual.style import Style as TStyle
from textual.visual import RenderOptions

from momiji_tui.ui.widgets.quick_content import KeptLines, QuickContent, QuickLines, _line_strip

BASE = TStyle.parse("#ffffff on #102030")
OPTIONS = RenderOptions(TStyle.parse, {})


def cells(strips) -> list[list[tuple[str, object]]]:
    """Each strip as (character, style) per cell."""
    return [[(char, segment.style) for segment in strip for char in segment.text] for strip in strips]


def hand(selected: int) -> Text:
    """A two-line text like the hand's: card chips with click metas."""
    text = Text("Hand 8/8", style="bold")
    text.append("  1 selected" if selected >= 0 else "", style="italic")
    text.append("\n")
    for i, card in enumerate(["M2", "G3", "C1", "O4", "紅葉"]):
        style = "bold reverse" if i == selected else Style(color="red", bgcolor="blue")
        text.append(f"{i + 1}", style="dim")
        text.append(f" •{card}• ", style=style)
        text.append(" ", style=Style(meta={"momiji": f"card({i})"}))
    return text


def quick_lines(text: Text, kept: KeptLines | None = None, context: object = "theme") -> QuickLines:
    return QuickLines(tuple(text.split("\n", allow_blank=True)), kept or KeptLines(), context,
                      lambda: Content.from_rich_text(text))


@pytest.mark.parametrize("selected", [-1, 0, 4])
def test_rules_4_2_a_region_by_lines_draws_the_cells_of_its_whole_text(selected):
    text = hand(selected)
    for width in (4, 20, 45, 120):  # 4 and 20: lines that do not fit wrap, as QuickContent wraps them
        for height in (None, 1, 2):
            by_lines = quick_lines(text).render_strips(width, height, BASE, OPTIONS)
            whole = QuickContent(Content.from_rich_text(text)).render_strips(width, height, BASE, OPTIONS)
            assert cells(by_lines) == cells(whole), (width, height)
    assert quick_lines(text).get_height({}, 120) == Content.from_rich_text(text).get_height({}, 120)
    assert quick_lines(text).get_height({}, 20) == Content.from_rich_text(text).get_height({}, 20)
    assert str(quick_lines(text)) == text.plain


def test_rules_4_2_selecting_a_card_draws_only_the_line_that_changed(monkeypatch):
    drawn: list[str] = []
    draw = KeptLines.draw

    def counted(self, line, *args):
        drawn.append(line.plain)
        return draw(self, line, *args)

    monkeypatch.setattr(KeptLines, "draw", counted)
    kept = KeptLines()
    quick_lines(hand(-1), kept).render_strips(80, None, BASE, OPTIONS)
    assert len(drawn) == 2
    drawn.clear()
    quick_lines(hand(2), kept).render_strips(80, None, BASE, OPTIONS)  # head and chips change
    assert len(drawn) == 2
    drawn.clear()
    text = hand(2)
    text.append("\nnew last line")
    strips = quick_lines(text, kept).render_strips(80, None, BASE, OPTIONS)
    assert drawn == ["new last line"]
    drawn.clear()  # the two lines drawn last time are kept
    assert cells(strips) == cells(QuickContent(Content.from_rich_text(text)).render_strips(80, None, BASE, OPTIONS))


def test_rules_4_2_a_new_base_style_or_theme_draws_every_line_again(monkeypatch):
    drawn: list[str] = []
    draw = KeptLines.draw
    monkeypatch.setattr(KeptLines, "draw", lambda self, line, *args: drawn.append(line.plain) or
                        draw(self, line, *args))
    kept = KeptLines()
    quick_lines(hand(1), kept).render_strips(80, None, BASE, OPTIONS)
    other = TStyle.parse("#000000 on #ffffff")
    strips = quick_lines(hand(1), kept).render_strips(80, None, other, OPTIONS)
    assert len(drawn) == 4
    quick_lines(hand(1), kept, context="another theme").render_strips(80, None, other, OPTIONS)
    assert len(drawn) == 6
    assert cells(strips) == cells(QuickContent(Content.from_rich_text(hand(1))).render_strips(80, None, other, OPTIONS))


styles = st.sampled_from(["bold", "dim italic", "red on blue", Style(color="green", meta={"momiji": "card(1)"}),
                          Style(bgcolor="#F0E442", bold=True), "reverse"])
pieces = st.lists(st.tuples(st.text(st.sampled_from("ab •→×紅\n"), max_size=6), styles), max_size=8)


@given(first=pieces, second=pieces, width=st.integers(1, 30))
def test_rules_4_2_lines_kept_from_any_text_draw_the_cells_of_the_next(first, second, width):
    """Whatever the texts, a text drawn after another with the same kept
    lines has the cells of the same text drawn whole."""
    kept = KeptLines()
    for pieces_ in (first, second):
        text = Text()
        for piece, style in pieces_:
            text.append(piece, style=style)
        by_lines = quick_lines(text, kept).render_strips(width, None, BASE, OPTIONS)
        whole = QuickContent(Content.from_rich_text(text)).render_strips(width, None, BASE, OPTIONS)
        assert cells(by_lines) == cells(whole)


async def test_rules_4_2_in_an_app_lines_draw_with_its_console_styles():
    """Inside an app a style name is parsed by its console, as
    ``Content.from_rich_text`` does, for every line drawn and drawn again,
    and again after the theme changed."""
    from textual.app import App

    text = Text("plain ", style="bold")
    text.append("ansi red", style="red on blue")
    text.append(" named", style="italic magenta")
    text.append("\nsecond ", style=Style(color="bright_green", meta={"momiji": "card(1)"}))
    app = App()
    async with app.run_test():
        kept = KeptLines()
        for _ in range(2):  # drawn, then from what was kept
            by_lines = quick_lines(text, kept).render_strips(40, None, BASE, OPTIONS)
            whole = QuickContent(Content.from_rich_text(text)).render_strips(40, None, BASE, OPTIONS)
            assert cells(by_lines) == cells(whole)
        app.theme = "textual-light"
        light = quick_lines(text, kept, context=app.theme).render_strips(40, None, BASE, OPTIONS)
        assert cells(light) == cells(QuickContent(Content.from_rich_text(text)).render_strips(40, None, BASE, OPTIONS))


def test_rules_4_2_a_line_whose_base_style_changed_is_drawn_again():
    """Same characters and spans, another ``Text.style`` (e.g. a head line
    turning bold for whose turn it is): not the line kept."""
    kept = KeptLines()
    for style in ("", "bold", "reverse", ""):
        text = Text("Hand 8/8  ", style=style)
        text.append("•M2•", style="red")
        by_lines = quick_lines(text, kept).render_strips(40, None, BASE, OPTIONS)
        whole = QuickContent(Content.from_rich_text(text)).render_strips(40, None, BASE, OPTIONS)
        assert cells(by_lines) == cells(whole), style


def test_rules_4_2_kept_styles_are_bounded(monkeypatch):
    """A text with ever new styles does not grow what a region keeps."""
    kept = KeptLines()
    monkeypatch.setattr(KeptLines, "LIMIT", 50)
    for i in range(200):
        text = Text(f"line {i}", style=Style(meta={"momiji": f"card({i})"}))
        quick_lines(text, kept).render_strips(40, None, BASE, OPTIONS)
        assert len(kept.styles) + len(kept.drawn) <= 50 + 2


def test_a_region_with_line_padding_measures_as_textual():
    text = Text("ten chars!")
    rules = {"line_pad": 1}
    assert quick_lines(text).get_height(rules, 10) == Content.from_rich_text(text).get_height(rules, 10)


line_styles = st.sampled_from(["", "bold", "dim italic", "red on blue", Style(color="red", meta={"momiji": "card(2)"}),
                               Style(bgcolor="#123456")])
spans = st.lists(st.tuples(st.integers(0, 9), st.integers(0, 4), styles), max_size=6)  # start, length, style


@given(plain=st.text(st.sampled_from("ab •紅\t"), max_size=9), line_style=line_styles, spans_=spans)
def test_rules_4_2_a_line_drawn_from_its_spans_has_the_segments_of_its_content(plain, line_style, spans_):
    """``KeptLines.draw`` (straight from the Rich spans: overlapping, empty;
    a line style; a tab) gives the segments
    ``_line_strip`` gives for the line's ``Content``, drawn twice (the
    second time from the kept combinations)."""
    line = Text(plain, style=line_style)
    for start, length, style in spans_:  # inside the text, as Rich keeps a line's spans
        line.spans.append(RichSpan(min(start, len(plain)), min(start + length, len(plain)), style))
    kept = KeptLines()
    for _ in range(2):
        try:
            expected = _line_strip(kept.content(line), BASE, OPTIONS)
        except RuntimeError:  # Textual's Content.render fails: a span past the text Rich left (no control codes)
            return
        drawn = kept.draw(line, BASE, OPTIONS, "theme")
        assert list(drawn) == list(expected)
        assert drawn.cell_length == expected.cell_length


def test_rules_4_2_overlapping_spans_combine_in_span_order_not_in_the_order_they_start():
    """A later span wins where spans overlap, whichever starts first; a
    line style given by name is parsed as ``stylize_before`` parses it."""
    line = Text("abcdefgh", style="red on blue")
    line.spans.append(RichSpan(4, 8, Style(color="green")))  # starts last, applied first
    line.spans.append(RichSpan(0, 6, Style(color="#F0E442", bold=True)))  # starts first, applied last
    kept = KeptLines()
    drawn = kept.draw(line, BASE, OPTIONS, "theme")
    assert list(drawn) == list(_line_strip(kept.content(line), BASE, OPTIONS))
    assert [segment.text for segment in drawn] == ["abcd", "ef", "gh"]


@pytest.mark.parametrize("line_style", ["bold", Style(bgcolor="#123456")])
def test_rules_4_2_a_blank_line_with_a_style_draws_as_its_content_does(line_style):
    """A blank line keeps its text's base style (``Text.split`` gives it one):
    drawn as its ``Content`` draws it (``stylize_before`` adds no span to an
    empty text)."""
    for line in (Text("", style=line_style), Text("ab\n\ncd", style=line_style).split("\n", allow_blank=True)[1]):
        kept = KeptLines()
        drawn = kept.draw(line, BASE, OPTIONS, "theme")
        assert list(drawn) == list(_line_strip(kept.content(line), BASE, OPTIONS))
