"""The move log at a terminal too narrow to show it, and many resizes: no line
written meanwhile is lost, nothing crashes."""

from __future__ import annotations

from pathlib import Path

from textual.app import App, ComposeResult

from momiji_tui.session.table import Table
from momiji_tui.ui.widgets.log_panel import LogPanel

SAVE = Path(__file__).parents[1] / "bots" / "fixtures" / "rules-2026.11-2.jsonl"


class LogApp(App[None]):
    def compose(self) -> ComposeResult:
        yield LogPanel()


def shown(log: LogPanel) -> str:
    return " ".join(" ".join(strip.text.split()) for strip in log.lines)


async def test_lines_written_while_the_log_has_no_width_show_when_it_is_back_at_its_old_width():
    table = Table.replay(SAVE)
    events, names = table.events, [s.name for s in table.seats]
    table.close()
    app = LogApp()
    async with app.run_test(size=(80, 24)) as pilot:
        log = app.query_one(LogPanel)
        log.write_events(events[:40], None, names)
        await pilot.pause()
        before = len(log.entries)
        await pilot.resize_terminal(2, 3)  # no room: width 0 once the scrollbar's is taken
        await pilot.pause()
        log.write_events(events[40:], None, names)  # a bot moved meanwhile
        for size in [(1, 1), (2, 3)]:  # many resizes, none with room
            await pilot.resize_terminal(*size)
            await pilot.pause()
        await pilot.resize_terminal(80, 24)  # the width the first lines were wrapped at
        await pilot.pause()
        assert len(log.entries) > before
        assert " ".join(log.entries[-1].plain.split()) in shown(log)  # "The game is over."
        assert log.is_vertical_scroll_end
