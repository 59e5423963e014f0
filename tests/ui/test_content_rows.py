"""A table region draws its content rows itself, as Textual draws them
(issue 13, ninth round; ``ui/widgets/_textual_private_rows``).

Every region's rows, drawn by ``ContentRows`` after each key of a turn, are
compared cell by cell (characters and Rich styles) with the rows Textual's
own drawing gives for the same region from scratch: whole, row by row and cut
to a column span; in the dark and the light theme, and with the no-colour
filter of a client that sent ``NO_COLOR``.
"""

from __future__ import annotations

import pytest
from helpers import scripted_bot, sit, situation
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.app import App
from textual.filter import LineFilter
from textual.geometry import Region as Area
from textual.widget import Widget

from momiji_tui.ssh._textual_private import set_session_colors
from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.widgets import _textual_private_rows
from momiji_tui.ui.widgets._textual_private_rows import render_options
from momiji_tui.ui.widgets.table_regions import TEXT_DATA, Region

HAND = "M0a M1a C0a C1a O0a O1a G0a G1a K0a"
KEYS = ("1", "right", "2", "enter", "u", "1", "enter", "down", "up", "c", "M", "escape", "m", "m", "e")


def cells(strips) -> list[list[tuple[str, object]]]:
    """Each strip as (character, Rich style) per cell."""
    return [[(char, segment.style) for segment in strip for char in segment.text] for strip in strips]


def textual_rows(widget: Widget, crop: Area):
    """``crop`` of ``widget`` as Textual draws it, nothing kept from before."""
    widget._styles_cache.clear()
    widget._layout_cache.clear()  # the visual ``render()`` gave
    widget._dirty_regions.add(widget.size.region)  # every line of the visual drawn again
    return Widget.render_lines(widget, crop)


def compare_regions(screen) -> int:
    """Compare every region's rows with Textual's; the number of regions."""
    regions = [r for r in screen.query(Region) if r.display and r.region.width and r.region.height]
    for region in regions:
        width, height = region.region.size
        crops = [Area(0, 0, width, height), *(Area(0, y, width, 1) for y in range(height)),
                 Area(min(3, width - 1), 0, max(1, width - 8), height)]
        for crop in crops:
            assert cells(region.render_lines(crop)) == cells(textual_rows(region, crop)), (type(region), crop)
    return len(regions)


@pytest.mark.parametrize("size", [(80, 24), (200, 60)])
async def test_rules_4_a_region_draws_the_rows_textual_draws_after_every_key(isolated_dirs, monkeypatch, size):
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
    drawn: list[str] = []
    render = _textual_private_rows.ContentRows.render

    def counted(self, widget, *args):
        rows = render(self, widget, *args)
        if rows is not None:
            drawn.append(type(widget).__name__)
        return rows

    monkeypatch.setattr(_textual_private_rows.ContentRows, "render", counted)
    async with app.run_test(size=size) as pilot:
        screen = await sit(pilot, situation(hand=HAND, display="O3b Z3b M3b", seats=3))
        for key in KEYS:
            await pilot.press(key)
            for _ in range(3):  # bounded: the table changes arrive as messages
                await pilot.pause()
            assert compare_regions(screen) >= 8
        app.theme = "textual-light"
        await pilot.pause()
        compare_regions(screen)
        set_session_colors(app, "truecolor", True)  # NO_COLOR: the monochrome filter
        screen.refresh()
        await pilot.pause()
        compare_regions(screen)
    # The regions drawn by lines took this path (else the comparison proves nothing).
    assert {"HandRegion", "YouRegion", "ObjectivesRegion", "OpponentRow"} <= set(drawn)


class ClickRegion(Region[Text]):
    """A region given a ready text (as the preview is), with click metas."""

    data = TEXT_DATA

    def render_slice(self, data: Text) -> Text:
        return data


class ClickApp(App[None]):
    CSS = """
    ClickRegion { link-style: underline; link-color: red; link-background: blue; background: #203040; }
    #bordered { border-top: solid green; height: 4; }
    """

    def compose(self):
        yield ClickRegion(id="plain")
        yield ClickRegion(id="bordered")


async def show_chips(app: App[None], pilot, selected: int) -> None:
    """Every region of ``app`` shows ``click_text(selected)``, drawn."""
    for region in app.query(ClickRegion):
        region.data = click_text(selected)
    await pilot.pause()


def click_text(selected: int) -> Text:
    """Two lines of chips; each chip's click meta is an ``@click`` action."""
    text = Text("Hand", style="bold")
    text.append("\n")
    for i in range(4):
        style = Style(color="red", bgcolor="blue", meta={"@click": f"app.bell({i})"})
        text.append(f" chip {i} ", style=style + Style(reverse=True) if i == selected else style)
        text.append(" ", style="dim")
    return text


async def test_rules_4_a_region_draws_click_links_and_its_border_as_textual_does():
    """Segments with an ``@click`` meta get the link style (``Visual.to_strips``);
    a top border is drawn by Textual; a new theme draws every row again."""
    app = ClickApp()
    async with app.run_test(size=(60, 12)) as pilot:
        for selected in (-1, 0, 2, 2):
            await show_chips(app, pilot, selected)
            compare_regions(app.screen)
        plain = app.query_one("#plain", ClickRegion)
        row = plain.render_lines(Area(0, 1, 60, 1))[0]
        assert any(segment.style and segment.style.underline for segment in row)  # the link style shows
        assert plain._rows.rows  # drawn by ContentRows
        # Only the rows of the lines shown now are kept (the chips' earlier lines are forgotten).
        shown = {(line.plain, tuple(line.spans), line.style) for line in click_text(2).split("\n")}
        assert set(plain._rows.rows) <= shown | {None}
        app.theme = "textual-light"
        await pilot.pause()
        compare_regions(app.screen)


async def test_rules_4_a_style_change_of_an_ancestor_draws_the_rows_again(monkeypatch):
    """What the rows are drawn over is worked out again when a style of the
    region or of any ancestor changes (its style counter), not otherwise:
    a new background behind a translucent region shows in its rows."""

    class Translucent(ClickApp):
        CSS = ClickApp.CSS + "ClickRegion { background: #203040 50%; }"

    app = Translucent()
    async with app.run_test(size=(60, 12)) as pilot:
        await show_chips(app, pilot, 1)
        compare_regions(app.screen)
        plain = app.query_one("#plain", ClickRegion)
        before = cells(plain.render_lines(Area(0, 0, 60, 2)))
        worked_out: list[object] = []
        row_context = _textual_private_rows._row_context
        monkeypatch.setattr(_textual_private_rows, "_row_context",
                            lambda widget: worked_out.append(widget) or row_context(widget))
        plain.render_lines(Area(0, 0, 60, 2))
        assert worked_out == []  # nothing changed: the context kept is used
        app.screen.styles.background = "darkgreen"
        await pilot.pause()
        compare_regions(app.screen)
        assert cells(plain.render_lines(Area(0, 0, 60, 2))) != before  # the rows changed with the screen


class ItalicToggle(LineFilter):
    """A filter that is not idempotent: applied twice, it undoes itself."""

    def apply(self, segments, background):
        return [Segment(text, (style or Style()) + Style(italic=not (style and style.italic)), control)
                for text, style, control in segments]


async def test_rules_4_a_line_filter_is_applied_once_to_every_row():
    """Textual applies each line filter once, to its own rows (the top border)
    as to the content rows drawn by ``ContentRows``."""
    app = ClickApp()
    async with app.run_test(size=(60, 12)) as pilot:
        await show_chips(app, pilot, 1)
        app._filters.append(ItalicToggle())
        compare_regions(app.screen)
        assert app.query_one("#bordered", ClickRegion)._rows.rows  # its content rows drawn by ContentRows


FALLBACKS = {
    "padding": "padding: 0 1;",
    "left border": "border-left: solid red;",
    "outline": "outline: solid red;",
    "opacity": "opacity: 0.6;",
    "text opacity": "text-opacity: 0.5;",
    "tint": "tint: red 30%;",
    "hatch": "hatch: cross red;",
    "alignment": "content-align: center middle;",
}


@pytest.mark.parametrize("rule", sorted(FALLBACKS))
async def test_rules_4_a_region_with_a_step_it_does_not_draw_is_drawn_by_textual(rule):
    """A region styled with a step ``ContentRows`` leaves out is drawn by
    Textual (no rows kept), with the same cells as Textual's drawing."""

    class Styled(ClickApp):
        CSS = ClickApp.CSS + f"#plain {{ {FALLBACKS[rule]} }}"

    app = Styled()
    async with app.run_test(size=(60, 12)) as pilot:
        await show_chips(app, pilot, 0)
        compare_regions(app.screen)
        assert not app.query_one("#plain", ClickRegion)._rows.rows
        assert app.query_one("#bordered", ClickRegion)._rows.rows  # the other region still takes the path


async def test_rules_4_a_region_under_a_translucent_parent_or_the_mouse_is_drawn_by_textual():
    """Opacity comes from the ancestors too; a link under the mouse and a
    selection in progress change what Textual draws: all left to Textual."""

    class Faded(ClickApp):
        CSS = ClickApp.CSS + "Screen { opacity: 0.7; }"

    app = Faded()
    async with app.run_test(size=(60, 12)) as pilot:
        await show_chips(app, pilot, 0)
        compare_regions(app.screen)
        assert not any(region._rows.rows for region in app.query(ClickRegion))
    app = ClickApp()
    async with app.run_test(size=(60, 12)) as pilot:
        plain = app.query_one("#plain", ClickRegion)
        plain.data = click_text(0)
        await pilot.pause()
        app.screen._selecting = True  # a mouse selection under way: no link styles
        compare_regions(app.screen)
        app.screen._selecting = False
        plain.hover_style = Style(link="https://example.org", meta={"@click": "app.bell()"})
        assert plain._rows.render(plain, Area(0, 0, 60, 2), (), render_options(plain), lambda *a: None,
                                  lambda crop: []) is None
