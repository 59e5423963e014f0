"""A region of the table repaints only its lines whose text or style
changed, lays the screen out only when its number of lines changed, and
draws a line it has shown before from its line cache. Counted, never timed."""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult
from textual.content import Content
from textual.widget import Widget

from momiji_tui.ui.widgets.table_regions import Region, TableColumn


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


async def test_a_text_of_as_many_lines_asks_for_no_layout(monkeypatch):
    app = Column()
    async with app.run_test(size=(40, 10)) as pilot:
        lines, below = await shown(app, pilot, "one\ntwo\nthree")
        calls = layouts_asked(monkeypatch)
        lines.data = "one\nTWO\nthree"
        await pilot.pause()
        assert calls == [] and below.region.y == 3
        assert [lines.render_line(y).text.strip() for y in range(3)] == ["one", "TWO", "three"]


async def test_a_shorter_text_keeps_the_region_s_lines_and_asks_for_no_layout(monkeypatch):
    app = Column()
    async with app.run_test(size=(40, 10)) as pilot:
        lines, below = await shown(app, pilot, "one\ntwo\nthree")
        calls = layouts_asked(monkeypatch)
        lines.data = "one"  # two lines fewer: kept, blank at the bottom
        await pilot.pause()
        assert calls == [] and lines.size.height == 3 and below.region.y == 3  # nothing below moved
        assert [lines.render_line(y).text.strip() for y in range(3)] == ["one", "", ""]
        lines.data = "one\ntwo"  # within the kept lines: a repaint
        await pilot.pause()
        assert calls == []
        assert [lines.render_line(y).text.strip() for y in range(3)] == ["one", "two", ""]


async def test_a_region_released_takes_the_lines_its_text_needs():
    app = Column()
    async with app.run_test(size=(40, 10)) as pilot:
        lines, below = await shown(app, pilot, "one\ntwo\nthree")
        lines.data = "one"
        await pilot.pause()
        assert lines.size.height == 3
        lines.release()  # as the table screen does at a new turn
        await pilot.pause()
        assert lines.size.height == 1 and below.region.y == 1


async def test_a_text_taller_than_the_region_s_lines_lays_the_screen_out(monkeypatch):
    app = Column()
    async with app.run_test(size=(40, 10)) as pilot:
        lines, below = await shown(app, pilot, "one")
        calls = layouts_asked(monkeypatch)
        lines.data = "one\ntwo"
        await pilot.pause()
        assert calls == ["lines"]
        assert lines.size.height == 2 and below.region.y == 2


def lines_drawn(monkeypatch, widget: Widget) -> list[str]:
    """The lines of ``widget`` drawn into a strip (not found in its line
    cache), as their text."""
    drawn: list[str] = []
    original = Content.from_rich_text

    def counted(text, console=None):
        drawn.append(text.plain)
        return original(text, console)

    monkeypatch.setattr(Content, "from_rich_text", counted)
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


async def test_a_line_shown_before_is_drawn_from_the_line_cache(monkeypatch):
    app = Column()
    async with app.run_test(size=(40, 10)) as pilot:
        lines, _ = await shown(app, pilot, "one\ntwo\nthree")
        lines.data = "one\nTWO\nthree"
        await pilot.pause()
        drawn = lines_drawn(monkeypatch, lines)
        lines.data = "one\ntwo\nthree"  # back to a text drawn before
        await pilot.pause()
        assert drawn == []
        assert [lines.render_line(y).text.strip() for y in range(3)] == ["one", "two", "three"]


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
