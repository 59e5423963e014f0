"""The log draws a new line's row in the frame Textual's styles give its
content rows (``_textual_private_rows.row_frame``, issue 13, twelfth
round): every row compared cell by cell with Textual's own drawing, at
80×24 (a border on top) and 200×60 (a border on the left), in the dark and
the light theme and under the no-colour filter of a client that sent
``NO_COLOR``."""

from __future__ import annotations

import pytest
from helpers import scripted_bot, sit, situation
from textual.geometry import Region
from textual.widget import Widget

from momiji_tui.engine import events as ev
from momiji_tui.ssh._textual_private import set_session_colors
from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.widgets import kept_style
from momiji_tui.ui.widgets.log_panel import LogPanel


def cells(strips) -> list[list[tuple[str, object]]]:
    return [[(char, segment.style) for segment in strip for char in segment.text] for strip in strips]


def compare(log: LogPanel) -> int:
    """Every row of the log drawn afresh through the frame, against
    Textual's drawing from scratch; the rows that took the frame."""
    width, height = log.region.size
    log._rows.clear()  # nothing kept: every line's row is drawn again
    framed = 0
    for y in range(height):
        for crop in (Region(0, y, width, 1), Region(2, y, width - 5, 1)):
            log._rows.clear()
            before = len(drawn)
            ours = log.render_lines(crop)
            framed += len(drawn) > before
            log._styles_cache.clear()
            assert cells(ours) == cells(Widget.render_lines(log, crop)), (y, crop)
    return framed


drawn: list[object] = []


@pytest.mark.parametrize("size", [(80, 24), (200, 60)])
async def test_a_log_row_drawn_in_its_frame_is_the_row_textual_draws(isolated_dirs, monkeypatch, size):
    framed_row = kept_style.framed_row

    def counted(frame, content):
        drawn.append(frame)
        return framed_row(frame, content)

    monkeypatch.setattr(kept_style, "framed_row", counted)
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
    async with app.run_test(size=size) as pilot:
        screen = await sit(pilot, situation(hand="M0a C1a", display="O1b", seats=3))
        log = screen.query_one(LogPanel)
        log.write_events([ev.CardsDealt(1, (0, 1))] * 80, 0, ["You", "Kaede", "Ginnan"])
        for _ in range(3):  # bounded: the lines are drawn
            await pilot.pause()
        assert log.max_scroll_y > 0
        assert compare(log) >= log.region.height - 2  # every line's row took the frame
        app.theme = "textual-light"
        await pilot.pause()
        compare(log)
        set_session_colors(app, "truecolor", True)  # NO_COLOR: the monochrome filter
        screen.refresh()
        await pilot.pause()
        assert compare(log)
