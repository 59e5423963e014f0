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


drawn: list[object] = []  # a frame per row drawn in it (``framed_row``, counted by the test)


def compare(log: LogPanel) -> set[int]:
    """Every row of the log drawn afresh, whole and cut, against Textual's
    drawing from scratch; the rows drawn in the frame (whole and cut)."""
    width, height = log.region.size
    framed: set[int] = set()
    for y in range(height):
        took = []
        for crop in (Region(0, y, width, 1), Region(2, y, width - 5, 1)):
            log._rows.clear()  # nothing kept: the row is drawn again
            before = len(drawn)
            ours = log.render_lines(crop)
            took.append(len(drawn) > before)
            log._styles_cache.clear()
            assert cells(ours) == cells(Widget.render_lines(log, crop)), (y, crop)
        if all(took):
            framed.add(y)
    return framed


def line_rows(log: LogPanel) -> set[int]:
    """The rows of the log that show a line (inside its borders)."""
    top = log.styles.gutter.top
    return set(range(top, log.region.height - log.styles.gutter.bottom))


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
        assert log.max_scroll_y > 0 and line_rows(log)
        assert compare(log) == line_rows(log)  # every line's row took the frame, whole and cut
        app.theme = "textual-light"
        await pilot.pause()
        assert compare(log) == line_rows(log)
        set_session_colors(app, "truecolor", True)  # NO_COLOR: the monochrome filter
        screen.refresh()
        await pilot.pause()
        assert compare(log) == line_rows(log)
