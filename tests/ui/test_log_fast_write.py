"""A log line that fits is appended without Rich's wrap
(``ui/widgets/_textual_private`` note 10): the log holds the same strips,
widest width and virtual size as ``RichLog.write`` gives it."""

from __future__ import annotations

import pytest
from rich.text import Text
from test_log_history import finished_events
from textual.app import App, ComposeResult
from textual.widgets import RichLog

from momiji_tui.ui.models.log_lines import LogBook
from momiji_tui.ui.widgets._textual_private import append_fitting_line

WIDTHS = (12, 30, 45, 80)
"""Narrower than most lines (they wrap: ``write``), and wider than all."""


class TwoLogs(App[None]):
    def compose(self) -> ComposeResult:
        yield RichLog(id="written", wrap=True, markup=False, min_width=1)
        yield RichLog(id="appended", wrap=True, markup=False, min_width=1)


def game_lines() -> list[Text]:
    """Every line of a bot-played game's log, as the table shows them, and
    lines the fast path must leave to ``write`` (styled, tabbed, justified)."""
    lines = LogBook(0, ["You", "Kaede", "Ginnan"]).feed(finished_events())
    extra = [Text(""), Text("a\tb"), Text("centred", justify="center"), Text("left", justify="left"),
             Text("folded", overflow="fold"), Text("two\nlines"), Text("no end", end=""),
             Text.assemble(("bold ", "bold"), ("red", "red"), " plain", style="italic")]
    return [*lines, *extra]


@pytest.mark.parametrize("width", WIDTHS)
async def test_rules_3_each_log_line_appended_as_write_appends_it(width):
    app = TwoLogs()
    lines = game_lines()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        written, appended = app.query_one("#written", RichLog), app.query_one("#appended", RichLog)
        fast = 0
        for line in lines:
            written.write(line, width=width, shrink=False, expand=False, scroll_end=False)
            if append_fitting_line(appended, line, width):
                fast += 1
            else:
                appended.write(line, width=width, shrink=False, expand=False, scroll_end=False)
            assert [s._segments for s in appended.lines] == [s._segments for s in written.lines], line
            assert [s.cell_length for s in appended.lines] == [s.cell_length for s in written.lines]
            assert appended._widest_line_width == written._widest_line_width
            assert appended.virtual_size == written.virtual_size
    plain_fitting = [line for line in lines if line.cell_len <= width and not {"\n", "\t"} & set(line.plain)
                     and line.justify is None and line.overflow is None and line.end == "\n"]
    assert fast == len(plain_fitting) > 0  # every plain line that fits took the fast path, no other
    assert len(lines) > 100


async def test_rules_3_a_log_that_does_not_know_its_size_is_left_to_write():
    """Before its first layout a log defers every write, in order: a line
    appended then would come before lines written earlier."""
    log = RichLog()
    assert not append_fitting_line(log, Text("short"), 40)
    assert log.lines == []


async def test_rules_3_a_log_that_drops_its_first_lines_is_left_to_write():
    """``write`` trims a log with ``max_lines``; the fast path does not."""
    app = TwoLogs()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        log = app.query_one("#written", RichLog)
        log.max_lines = 3
        assert not append_fitting_line(log, Text("short"), 40)
        log.max_lines = None
        assert append_fitting_line(log, Text("short"), 40)
