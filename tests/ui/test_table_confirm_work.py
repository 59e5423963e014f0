"""The work a confirm at the table does, counted
(never timed).

A confirm lays the screen out at most once (the log growing by a line asks
for no layout: it updates its own scrollbar; a container resized by that
layout asks for no second one) and asks the engine for each key's reason at
most once per view.
"""

from __future__ import annotations

import importlib

import pytest
from helpers import count_frames, scripted_bot, sit, situation
from textual.app import App
from textual.geometry import Size
from textual.screen import Screen
from textual.widget import Widget

from momiji_tui.engine import events as ev
from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.widgets.log_panel import LogPanel


@pytest.fixture
def app(isolated_dirs):
    return MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)


def count_layouts(monkeypatch) -> list[bool]:
    """Record each whole-screen layout (``Screen._refresh_layout``; True: a scroll-only one)."""
    layouts: list[bool] = []
    original = Screen._refresh_layout

    def counted(self, size=None, scroll=False):
        layouts.append(scroll)
        return original(self, size, scroll)

    monkeypatch.setattr(Screen, "_refresh_layout", counted)
    return layouts


def layouts_asked(monkeypatch) -> list[str]:
    """Record every widget that asks for a layout (``refresh(layout=True)``)."""
    calls: list[str] = []
    original = Widget.refresh

    def refresh(self, *regions, layout: bool = False, **kw):
        if layout:
            calls.append(f"{type(self).__name__}#{self.id}")
        return original(self, *regions, layout=layout, **kw)

    monkeypatch.setattr(Widget, "refresh", refresh)
    return calls


class OneLog(App[None]):
    """A log panel alone, already scrolling."""

    CSS = "LogPanel { width: 40; height: 4; padding: 0 1; scrollbar-size-vertical: 1; }"

    def compose(self):
        yield LogPanel()


async def test_rules_3_a_new_log_line_asks_for_no_layout_and_the_log_stays_at_its_end(monkeypatch):
    app = OneLog()
    async with app.run_test(size=(60, 10)) as pilot:
        log = app.query_one(LogPanel)
        await pilot.pause()
        log.write_events([ev.CardsDealt(0, tuple(range(6)))] * 8, None, ["Kaede"])
        await pilot.pause()
        await pilot.pause()
        assert log.show_vertical_scrollbar and log.is_vertical_scroll_end
        calls = layouts_asked(monkeypatch)
        log.write_events([ev.CardsDealt(0, tuple(range(6)))], None, ["Ginnan"])
        assert calls == []  # the scrollbar is already shown: no layout
        await pilot.pause()
        assert log.is_vertical_scroll_end and log.max_scroll_y == len(log.lines) - 4
        assert log.vertical_scrollbar.window_virtual_size == len(log.lines)
        assert "Ginnan" in log.render_line(3).text  # the new line is in view
        log.scroll_home(animate=False)
        await pilot.pause()
        assert "Kaede" in log.render_line(0).text  # every line kept, the first one too


def region_sizes(screen) -> list[tuple[str | None, int, int]]:
    """Each region of the table's column and the log: id, width, height."""
    widgets = [*screen.query_one("#table").children, screen.query_one(LogPanel)]
    return [(w.id, w.size.width, w.size.height) for w in widgets]


class TallLog(App[None]):
    """A log panel alone, taller than its lines."""

    CSS = "LogPanel { width: 40; height: 10; padding: 0 1; scrollbar-size-vertical: 1; }"

    def compose(self):
        yield LogPanel()


async def test_rules_3_a_new_line_in_a_log_that_does_not_scroll_redraws_only_that_line(monkeypatch):
    app = TallLog()
    async with app.run_test(size=(60, 12)) as pilot:
        log = app.query_one(LogPanel)
        await pilot.pause()
        log.write_events([ev.CardsDealt(0, tuple(range(6)))] * 3, None, ["Kaede"])
        await pilot.pause()
        await pilot.pause()
        drawn: list[int] = []
        original = LogPanel.render_line

        def render_line(self, y):
            drawn.append(y)
            return original(self, y)

        monkeypatch.setattr(LogPanel, "render_line", render_line)
        log.write_events([ev.CardsDealt(0, tuple(range(6)))], None, ["Ginnan"])
        await pilot.pause()
        await pilot.pause()
        assert drawn == [3]  # the new line only: the three above it did not move
        assert "Ginnan" in log.render_line(3).text and "Kaede" in log.render_line(0).text


@pytest.mark.parametrize("size", [(80, 24), (200, 60)])
async def test_rules_4_2_a_confirmed_play_lays_the_screen_out_once_and_only_if_a_region_changed_height(
        app, monkeypatch, size):
    async with app.run_test(size=size) as pilot:
        screen = await sit(pilot, situation(hand="M0a C1a", display="O1b"))
        log = screen.query_one(LogPanel)
        names = [seat.name for seat in app.table.seats]
        log.write_events([ev.CardsDealt(1, (0, 1))] * size[1], 0, names)  # a log long enough to scroll
        await pilot.press("1", "enter", "u", "1")  # every region drawn once at its width
        for _ in range(3):  # bounded: the table changes arrive as messages
            await pilot.pause()
        assert log.max_scroll_y > 0
        lines, before = len(log.lines), region_sizes(screen)
        layouts = count_layouts(monkeypatch)
        await pilot.press("enter")  # plays M0a (RULES §4.2): your row, the log, the hand change
        for _ in range(3):  # bounded: the table change arrives as a message
            await pilot.pause()
        assert len(log.lines) > lines and log.is_vertical_scroll_end  # the new lines in view
        resized = before != region_sizes(screen)
        assert layouts == ([False] if resized else []), (layouts, before, region_sizes(screen))


async def test_a_container_resized_by_a_layout_asks_for_no_second_layout(app, monkeypatch):
    """A play that grows the table resizes the table's column: the layout
    that placed it asks for no second whole-screen layout."""
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, situation(hand="M0a C1a", display="O1b"))
        await pilot.pause()
        column = screen.query_one("#table")
        calls = layouts_asked(monkeypatch)
        column.virtual_size = Size(column.virtual_size.width, column.virtual_size.height + 1)
        assert calls == []


@pytest.mark.parametrize("size", [(80, 24), (200, 60)])
async def test_rules_4_2_a_confirmed_play_is_drawn_in_one_frame(app, monkeypatch, size):
    """The log's scrollbar, moved by the play, was drawn with the log and then
    again in a frame of its own."""
    async with app.run_test(size=size) as pilot:
        screen = await sit(pilot, situation(hand="M0a C1a", display="O1b"))
        log = screen.query_one(LogPanel)
        names = [seat.name for seat in app.table.seats]
        log.write_events([ev.CardsDealt(1, (0, 1))] * size[1], 0, names)  # a log long enough to scroll
        await pilot.press("1", "enter", "u", "1")
        for _ in range(3):  # bounded: the table changes arrive as messages
            await pilot.pause()
        for _ in range(size[1]):  # bounded: a tall log's last page full, so the play turns it
            if len(log.lines) >= log.virtual_size.height:
                break
            log.write_events([ev.CardsDealt(1, (0, 1))], 0, names)
        assert len(log.lines) == log.virtual_size.height
        await pilot.pause()
        frames = count_frames(monkeypatch)
        position = log.vertical_scrollbar.position
        await pilot.press("enter")  # plays M0a (RULES §4.2): the log scrolls, its scrollbar moves
        for _ in range(4):  # bounded: the table change arrives as a message
            await pilot.pause()
        assert log.vertical_scrollbar.position != position and log.is_vertical_scroll_end
        assert len(frames) == 1


async def test_rules_4_2_a_confirmed_play_builds_one_state_to_explain_every_key_of_the_new_view(app, monkeypatch):
    """The footer shows only the keys that apply: each key that does not is
    asked why (``engine.explain``), and each ask built a state from the view."""
    explain_module = importlib.import_module("momiji_tui.engine.explain")  # the module, not the function
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, situation(hand="M0a C1a", display="O1b"))
        await pilot.press("1")
        await pilot.pause()
        built: list[int | None] = []
        original = explain_module.determinize

        def determinize(view, rng):
            built.append(view.seat)
            return original(view, rng)

        monkeypatch.setattr(explain_module, "determinize", determinize)
        await pilot.press("enter")  # plays M0a (RULES §4.2)
        for _ in range(3):  # bounded: the table change arrives as a message
            await pilot.pause()
        assert "Collect" not in screen.footer.plain  # a main action is done: collect is refused (RULES §3)
        assert screen.why_not("collect") and screen.why_not("reveal")
        assert built == [0]  # one state for the new view, whatever was asked


async def test_rules_3_a_layout_that_shrinks_the_log_keeps_its_end_in_view(app, monkeypatch):
    """At 80×24 the log is under the table: a play that makes the table a line
    taller (the objectives' race wraps) shrinks it; the latest moves stay in view."""
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, situation(hand="M0a C1a", display="O1b"))
        log = screen.query_one(LogPanel)
        names = [seat.name for seat in app.table.seats]
        log.write_events([ev.CardsDealt(1, (0, 1))] * 30, 0, names)  # a log long enough to scroll
        for _ in range(3):
            await pilot.pause()
        assert log.is_vertical_scroll_end and log.max_scroll_y > 0
        height, end = log.size.height, log.max_scroll_y
        display = screen.query_one("#display")
        display.styles.height = display.size.height + 2  # the table grows by two lines (a layout)
        for _ in range(4):  # bounded: the layout and its frame
            await pilot.pause()
        assert log.size.height == height - 2 and log.max_scroll_y == end + 2
        assert log.scroll_y == log.max_scroll_y  # the latest moves in view
        assert log.vertical_scrollbar.position == log.scroll_y
