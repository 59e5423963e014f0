"""A region of the table's column whose text gets
shorter keeps its lines until the next layout (a repaint, no whole-screen
layout), unless the table overflows its window; a text taller than the
region's lines lays the screen out, and the regions that kept lines are
measured in that layout. A changed text repaints only its changed lines.
Counted, never timed."""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.widget import Widget

from momiji_tui.ui.widgets.quick_content import KeptLines
from momiji_tui.ui.widgets.quiet_size import TableColumn
from momiji_tui.ui.widgets.table_regions import Region


class Lines(Region[str]):
    """A region that shows its data as it is."""

    def render_slice(self, data: str) -> Text:
        return Text(data)


class Column(App[None]):
    CSS = "Lines { height: auto; } TableColumn { height: auto; }"

    def compose(self) -> ComposeResult:
        with TableColumn():
            yield Lines(id="lines")
            yield Lines(id="below")


async def shown(app: App[None], pilot, text: str) -> tuple[Lines, Lines]:
    """The two regions, ``#lines`` showing ``text`` and ``#below`` one line, laid out."""
    lines, below = app.query_one("#lines", Lines), app.query_one("#below", Lines)
    lines.data, below.data = text, "below"
    await pilot.pause()
    return lines, below


def layouts_asked(monkeypatch) -> list[str]:
    """Every widget that asks for a whole-screen layout."""
    calls: list[str] = []
    original = Widget.refresh

    def refresh(self, *regions, layout: bool = False, **kw):
        if layout:
            calls.append(str(self.id))
        return original(self, *regions, layout=layout, **kw)

    monkeypatch.setattr(Widget, "refresh", refresh)
    return calls


async def test_a_shorter_text_keeps_the_region_s_lines_and_asks_for_no_layout(monkeypatch):
    app = Column()
    async with app.run_test(size=(40, 10)) as pilot:
        lines, below = await shown(app, pilot, "one\ntwo\nthree")
        assert lines.size.height == 3 and below.region.y == 3
        calls = layouts_asked(monkeypatch)
        lines.data = "one"  # two lines fewer: kept, blank at the bottom
        await pilot.pause()
        assert calls == []
        assert lines.size.height == 3 and below.region.y == 3  # nothing below moved
        assert [lines.render_line(y).text.strip() for y in range(3)] == ["one", "", ""]
        lines.data = "one\ntwo"  # within the kept lines: a repaint
        await pilot.pause()
        assert calls == []
        assert [lines.render_line(y).text.strip() for y in range(3)] == ["one", "two", ""]


async def test_a_text_taller_than_the_region_s_lines_lays_the_screen_out(monkeypatch):
    app = Column()
    async with app.run_test(size=(40, 10)) as pilot:
        lines, below = await shown(app, pilot, "one")
        calls = layouts_asked(monkeypatch)
        lines.data = "one\ntwo"
        await pilot.pause()
        assert calls == ["lines"]
        assert lines.size.height == 2 and below.region.y == 2


async def test_the_next_layout_gives_a_region_the_lines_its_text_needs():
    app = Column()
    async with app.run_test(size=(40, 10)) as pilot:
        lines, below = await shown(app, pilot, "one\ntwo\nthree")
        lines.data = "one"
        await pilot.pause()
        assert lines.size.height == 3
        below.data = "below\ntaller"  # another region grows: the screen is laid out
        await pilot.pause()
        assert lines.size.height == 1 and below.region.y == 1


def lines_drawn(monkeypatch, widget: Widget) -> list[str]:
    """The lines of ``widget`` drawn again: the text of each line drawn by
    its content rows (``KeptLines.draw``), ``"row y"`` for a row drawn by
    Textual (its ``render_line``); the others come from the rows kept."""
    drawn: list[str] = []
    draw, render_line = KeptLines.draw, Lines.render_line

    def counted_draw(self, line, *args):
        if self is widget._kept:
            drawn.append(line.plain)
        return draw(self, line, *args)

    def counted_line(self, y):
        if self is widget:
            drawn.append(f"row {y}")
        return render_line(self, y)

    monkeypatch.setattr(KeptLines, "draw", counted_draw)
    monkeypatch.setattr(Lines, "render_line", counted_line)
    return drawn


def repaints_asked(monkeypatch, widget: Widget) -> list[object]:
    """The lines of ``widget`` asked to be repainted: each region's line
    number, ``"all"`` for a whole repaint."""
    asked: list[object] = []
    refresh = Lines.refresh

    def counted(self, *regions, **kwargs):
        if self is widget:
            asked.extend([region.y for region in regions] if regions else ["all"])
        return refresh(self, *regions, **kwargs)

    monkeypatch.setattr(Lines, "refresh", counted)
    return asked


async def test_a_text_that_changes_one_line_repaints_only_that_line(monkeypatch):
    app = Column()
    async with app.run_test(size=(40, 10)) as pilot:
        lines, _ = await shown(app, pilot, "one\ntwo\nthree")
        drawn, asked = lines_drawn(monkeypatch, lines), repaints_asked(monkeypatch, lines)
        lines.data = "one\nTWO\nthree"
        await pilot.pause()
        assert drawn == ["TWO"] and asked == [1]
        assert [lines.render_line(y).text.strip() for y in range(3)] == ["one", "TWO", "three"]


async def test_a_style_change_on_one_line_repaints_that_line(monkeypatch):
    app = Column()
    async with app.run_test(size=(40, 10)) as pilot:
        lines, _ = await shown(app, pilot, "one\ntwo\nthree")
        drawn, asked = lines_drawn(monkeypatch, lines), repaints_asked(monkeypatch, lines)
        styled = Text("one\ntwo\nthree")
        styled.stylize("bold", 8, 13)  # "three"
        lines.show(styled)
        await pilot.pause()
        assert drawn == ["three"] and asked == [2]
        assert next(iter(lines.render_line(2))).style.bold


class Nested(App[None]):
    """A region inside a container of auto height (as the other seats' rows are)."""

    CSS = "Lines { height: auto; } #box { height: auto; } TableColumn { height: auto; }"

    def compose(self) -> ComposeResult:
        with TableColumn():
            with Vertical(id="box"):
                yield Lines(id="lines")
            yield Lines(id="below")


async def test_the_next_layout_gives_a_region_in_a_container_the_lines_its_text_needs():
    app = Nested()
    async with app.run_test(size=(40, 10)) as pilot:
        lines, below = await shown(app, pilot, "one\ntwo\nthree")
        lines.data = "one"
        await pilot.pause()
        assert app.query_one("#box").size.height == 3
        below.data = "below\ntaller"  # another region grows: the screen is laid out
        await pilot.pause()
        assert lines.size.height == 1 and app.query_one("#box").size.height == 1 and below.region.y == 1


async def test_a_shorter_text_lays_out_a_table_that_overflows_its_window(monkeypatch):
    """Four lines in a window of three: the line a shorter text frees brings
    the region below back into view."""
    app = Column()
    async with app.run_test(size=(40, 3)) as pilot:
        lines, below = await shown(app, pilot, "one\ntwo\nthree")
        assert below.region.y == 3  # out of view
        calls = layouts_asked(monkeypatch)
        lines.data = "one\ntwo"
        await pilot.pause()
        assert calls[:1] == ["lines"]  # then the screen's own scrollbars
        assert below.region.y == 2
