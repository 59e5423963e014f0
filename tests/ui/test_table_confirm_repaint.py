"""Issue 13, fifth round: what a confirm at the table repaints, counted
(never timed). A widget whose drawing did not change renders no line."""

from __future__ import annotations

from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from textual.app import App
from textual.scrollbar import ScrollBar

from momiji_tui.engine import events as ev
from momiji_tui.ui.widgets._textual_private import drawn_thumb
from momiji_tui.ui.widgets.log_panel import LogPanel


class TallLog(App[None]):
    """A log panel alone, taller than its lines (its scrollbar always shown)."""

    CSS = "LogPanel { width: 40; height: 10; padding: 0 1; scrollbar-size-vertical: 1; }"

    def compose(self):
        yield LogPanel()


def lines_drawn(monkeypatch, widget_type: type) -> list[int]:
    """Record each line ``widget_type`` renders (its ``render_line``)."""
    drawn: list[int] = []
    original = widget_type.render_line

    def render_line(self, y):
        drawn.append(y)
        return original(self, y)

    monkeypatch.setattr(widget_type, "render_line", render_line)
    return drawn


async def test_rules_3_a_new_line_in_a_log_that_does_not_scroll_leaves_its_scrollbar_undrawn(monkeypatch):
    """A log shorter than its box draws its scrollbar whole, without a thumb,
    however many lines it holds: a new line used to repaint every cell of it
    (59 lines per confirm at 200×60)."""
    app = TallLog()
    async with app.run_test(size=(60, 12)) as pilot:
        log = app.query_one(LogPanel)
        await pilot.pause()
        log.write_events([ev.CardsDealt(0, tuple(range(6)))] * 3, None, ["Kaede"])
        await pilot.pause()
        await pilot.pause()
        assert log.show_vertical_scrollbar and log.vertical_scrollbar.size.height == 10
        drawn = lines_drawn(monkeypatch, type(log.vertical_scrollbar))
        log.write_events([ev.CardsDealt(0, tuple(range(6)))], None, ["Ginnan"])
        await pilot.pause()
        await pilot.pause()
        assert log.vertical_scrollbar.window_virtual_size == 4
        assert drawn == []


def test_a_scrollbar_with_the_same_drawn_thumb_draws_the_same_cells():
    """``drawn_thumb`` (what ``QuietScrollBar`` compares before repainting)
    names the drawing exactly: two scrollbars with the same thumb draw the
    same cells, so a repaint it drops would have drawn nothing new."""
    console = Console(width=1, height=12, color_system="truecolor")
    drawings: dict[tuple[int, tuple[int, int] | None], list[list[Segment]]] = {}
    for length in (4, 10, 12):
        for virtual in (0, 3, 4, 9, 10, 11, 15, 40):
            for window in (4, 10, 12):
                for position in (0, 0.125, 1, 2.5, 5, max(virtual - window, 0)):
                    bar = ScrollBar()
                    bar.set_reactive(ScrollBar.window_virtual_size, virtual)
                    bar.set_reactive(ScrollBar.window_size, window)
                    bar.set_reactive(ScrollBar.position, position)
                    lines = console.render_lines(bar._render_bar(Style(color="red", bgcolor="blue")),
                                                 console.options.update(width=1, height=length))
                    thumb = drawn_thumb(length, virtual, window, position)
                    assert drawings.setdefault((length, thumb), lines) == lines, (length, virtual, window, position)
    assert (10, None) in drawings and len(drawings) > 10
