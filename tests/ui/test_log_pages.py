"""A tall log turns its page by a quarter when a
new line does not fit, and the lines that follow fill the blank rows in
place (a scroll repaints every row of the log; a line written into a blank
row repaints that row alone). A short log (80×24) scrolls line by line.
RULES §3: the log keeps the whole game, the latest moves in view."""

from __future__ import annotations

from textual.app import App

from momiji_tui.engine import events as ev
from momiji_tui.ui.widgets.log_panel import JUMP_FROM, LogPanel, jump_rows


class Log(App[None]):
    """A log panel alone, ``rows`` rows of lines tall (a border row above)."""

    def __init__(self, rows: int) -> None:
        super().__init__()
        self.rows = rows

    def compose(self):
        log = LogPanel()
        log.styles.height = self.rows + 1
        log.styles.width = 40
        log.styles.border_top = ("solid", "white")
        yield log


def deal(log: LogPanel, *names: str) -> None:
    """One line per name: "<name> was dealt 6 cards."."""
    for name in names:
        log.write_events([ev.CardsDealt(0, tuple(range(6)))], None, [name])


def shown(log: LogPanel) -> list[str]:
    """The log's rows of lines as drawn, border left out."""
    rows = [strip.text.rstrip() for strip in log.render_lines(log.region.size.region)]
    return rows[1:]


async def turned_page(app: Log, pilot) -> LogPanel:
    """``app``'s log (20 rows) after its 21st line turned the page: 5 blank rows below it."""
    log = app.query_one(LogPanel)
    await pilot.pause()
    deal(log, *(f"Seat{i:02}" for i in range(21)))  # the 21st line turns the page
    await pilot.pause()
    assert log.virtual_size.height == 26
    return log


def test_rules_3_a_log_shorter_than_jump_from_rows_never_leaves_blank_rows():
    assert [jump_rows(h) for h in (1, 4, JUMP_FROM - 1)] == [0, 0, 0]
    assert jump_rows(JUMP_FROM) == JUMP_FROM // 4 and jump_rows(59) == 14


async def test_rules_3_a_tall_log_turns_a_quarter_page_and_fills_it_in_place(monkeypatch):
    app = Log(rows=20)
    async with app.run_test(size=(60, 30)) as pilot:
        log = app.query_one(LogPanel)
        await pilot.pause()
        deal(log, *(f"Seat{i:02}" for i in range(20)))  # exactly a page: nothing to turn
        await pilot.pause()
        assert log.max_scroll_y == 0 and shown(log)[-1].startswith("Seat19")
        deal(log, "Next")  # does not fit: the page turns, 5 blank rows below the newest line
        for _ in range(3):  # bounded: the turn is drawn
            await pilot.pause()
        rows = shown(log)
        assert rows[14].startswith("Next") and rows[15:] == [""] * 5, rows
        assert rows[0].startswith("Seat06") and log.is_vertical_scroll_end
        assert log.virtual_size.height == 26 and log.vertical_scrollbar.window_virtual_size == 26
        drawn: list[int] = []
        original = LogPanel.render_line
        monkeypatch.setattr(LogPanel, "render_line", lambda self, y: drawn.append(y) or original(self, y))
        top = log.scroll_y
        deal(log, "Fill1")  # into the first blank row: no scroll, that row alone is drawn
        for _ in range(3):  # bounded: the line is drawn
            await pilot.pause()
        assert log.scroll_y == top and drawn == [15] and shown(log)[15].startswith("Fill1")
        deal(log, "Fill2", "Fill3", "Fill4", "Fill5")  # the page is full again
        await pilot.pause()
        assert log.scroll_y == top and shown(log)[-1].startswith("Fill5")
        deal(log, "Over")  # turns again
        for _ in range(3):  # bounded: the turn is drawn
            await pilot.pause()
        rows = shown(log)
        assert log.scroll_y > top and rows[14].startswith("Over") and rows[15:] == [""] * 5, rows
        assert [line for line in rows if line] == [f"Seat{i:02} was dealt 6 cards." for i in range(12, 20)] + [
            f"{name} was dealt 6 cards." for name in ("Next", "Fill1", "Fill2", "Fill3", "Fill4", "Fill5", "Over")]


async def test_rules_3_a_short_log_scrolls_line_by_line():
    app = Log(rows=4)
    async with app.run_test(size=(60, 10)) as pilot:
        log = app.query_one(LogPanel)
        await pilot.pause()
        deal(log, *(f"Seat{i:02}" for i in range(9)))
        for _ in range(3):  # bounded: the lines are drawn
            await pilot.pause()
        assert shown(log) == [f"Seat{i:02} was dealt 6 cards." for i in range(5, 9)]
        assert log.virtual_size.height == 9 and log.is_vertical_scroll_end


async def test_rules_3_a_cleared_log_forgets_its_turned_page():
    app = Log(rows=20)
    async with app.run_test(size=(60, 30)) as pilot:
        log = app.query_one(LogPanel)
        await pilot.pause()
        deal(log, *(f"Seat{i:02}" for i in range(25)))
        await pilot.pause()
        assert log.virtual_size.height == 26  # the page turned at the 21st line: 5 blank rows below it
        log.clear()
        deal(log, "Again")
        await pilot.pause()
        assert log.virtual_size.height == 1 and shown(log)[0].startswith("Again")


async def test_rules_3_a_layout_that_leaves_the_log_s_size_keeps_its_turned_page():
    """Every layout hands each widget its outer size; the log compared it
    with its size inside the border, so any layout of the screen (a region
    of the table grew) counted as a resize: it dropped its turned page and
    scrolled without a repaint."""
    app = Log(rows=20)
    async with app.run_test(size=(60, 30)) as pilot:
        log = await turned_page(app, pilot)
        app.screen.refresh(layout=True)
        for _ in range(3):  # bounded: the layout and its frame
            await pilot.pause()
        assert log.virtual_size.height == 26 and log.is_vertical_scroll_end
        assert shown(log)[14].startswith("Seat20") and shown(log)[15:] == [""] * 5


async def test_rules_3_a_log_made_shorter_after_its_page_turned_shows_its_latest_lines():
    """A page turned at 20 rows left 5 blank rows below the newest line; the
    log then shrank to 4 rows (the window, or the table above it, changed
    height, not width): it showed blank rows only. Review finding."""
    app = Log(rows=20)
    async with app.run_test(size=(60, 30)) as pilot:
        log = await turned_page(app, pilot)
        log.styles.height = 5  # 4 rows of lines under the border
        for _ in range(3):  # bounded: the layout and its frame
            await pilot.pause()
        assert shown(log) == [f"Seat{i:02} was dealt 6 cards." for i in range(17, 21)]
        assert log.virtual_size.height == 21 and log.is_vertical_scroll_end
        log.styles.height = 21  # tall again: the next line that does not fit turns a page
        for _ in range(3):  # bounded: the layout and its frame
            await pilot.pause()
        assert shown(log)[-1].startswith("Seat20") and log.virtual_size.height == 21


async def test_rules_3_a_log_filled_at_once_ends_flush_at_its_latest_line():
    """A game resumed (or the log redrawn) writes the whole log at once: it
    shows its last lines with no blank rows; the next line turns the page."""
    app = Log(rows=20)
    async with app.run_test(size=(60, 30)) as pilot:
        log = app.query_one(LogPanel)
        await pilot.pause()
        log.write_events([ev.CardsDealt(0, tuple(range(6)))] * 30, None, ["Kaede"])
        for _ in range(3):  # bounded: the lines are drawn
            await pilot.pause()
        assert log.virtual_size.height == 30 and all(shown(log)) and log.is_vertical_scroll_end
        deal(log, "Next")
        for _ in range(3):  # bounded: the turn is drawn
            await pilot.pause()
        assert shown(log)[14].startswith("Next") and shown(log)[15:] == [""] * 5
