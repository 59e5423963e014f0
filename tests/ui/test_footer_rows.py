"""The table's footer keeps its row as Textual drew it, per set of keys
(issue 13, twelfth round; ``ui/widgets/table_footer``).

After every key of a turn the footer's row is compared cell by cell
(characters and Rich styles) with the row Textual draws for it from
scratch: whole and cut to a column span; in the dark and the light theme,
and with the no-colour filter of a client that sent ``NO_COLOR``. A set of keys seen before is drawn from the row kept,
not through Textual's styles again.
"""

from __future__ import annotations

import pytest
from helpers import scripted_bot, sit, situation
from textual._styles_cache import StylesCache
from textual.geometry import Region
from textual.widget import Widget

from momiji_tui.ssh._textual_private import set_session_colors
from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.widgets.table_footer import TableFooter

KEYS = ("1", "enter", "u", "1", "1", "right", "enter", "escape")


def cells(strips) -> list[list[tuple[str, object]]]:
    """Each strip as (character, Rich style) per cell."""
    return [[(char, segment.style) for segment in strip for char in segment.text] for strip in strips]


def textual_rows(footer: TableFooter, crop: Region):
    """``crop`` of the footer as Textual draws it, no row kept from before."""
    footer._styles_cache.clear()
    return Widget.render_lines(footer, crop)


def compare(footer: TableFooter) -> None:
    width = footer.region.width
    for crop in (Region(0, 0, width, 1), Region(3, 0, width - 10, 1)):
        assert cells(footer.render_lines(crop)) == cells(textual_rows(footer, crop)), crop


@pytest.fixture
def app(isolated_dirs):
    return MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)


async def test_the_footer_row_is_the_row_textual_draws_after_every_key(app):
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, situation(hand="M0a C1a", display="O1b"))
        footer = screen.footer
        seen = set()
        for key in KEYS:
            await pilot.press(key)
            await pilot.pause()
            compare(footer)
            seen.add(footer.keys)
        assert len(seen) >= 3  # the keys that apply changed (else this compares one row)
        app.theme = "textual-light"
        await pilot.pause()
        compare(footer)
        set_session_colors(app, "truecolor", True)  # NO_COLOR: the monochrome filter
        screen.refresh()
        await pilot.pause()
        compare(footer)


async def test_a_footer_row_seen_before_is_not_drawn_through_textuals_styles_again(app, monkeypatch):
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, situation(hand="M0a C1a", display="O1b"))
        await pilot.press("1", "1")  # selected then unselected: both rows drawn
        await pilot.pause()
        drawn: list[Widget] = []
        original = StylesCache.render_widget

        def counted(self, widget, crop):
            drawn.append(widget)
            return original(self, widget, crop)

        monkeypatch.setattr(StylesCache, "render_widget", counted)
        await pilot.press("1")
        await pilot.pause()
        assert "⏎ Confirm" in screen.footer.render_line(0).text  # the row changed on screen
        await pilot.press("1")
        await pilot.pause()
        assert screen.footer not in drawn
        await pilot.resize_terminal(100, 24)  # a new width: drawn by Textual again
        await pilot.pause()
        await pilot.pause()
        assert screen.footer in drawn
