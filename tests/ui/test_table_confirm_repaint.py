"""What a confirm at the table repaints, counted
(never timed). A widget whose drawing did not change renders no line."""

from __future__ import annotations

from helpers import plain, scripted_bot, sit, situation
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.style import Style as RichStyle
from rich.text import Text
from textual.app import App
from textual.content import Content
from textual.strip import Strip
from textual.style import Style as TStyle
from textual.visual import RenderOptions
from textual.scrollbar import ScrollBar, ScrollBarRender

from momiji_tui.engine import events as ev
from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.models.table_fit import fitted_height
from momiji_tui.ui.widgets._textual_private import drawn_thumb
from momiji_tui.ui.widgets.log_panel import LogPanel
from momiji_tui.ui.widgets.quick_content import QuickContent
from momiji_tui.ui.widgets.table_regions import DisplayRegion, HandRegion, StatusLine, YouRegion


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


def _cells(strips: list[Strip]) -> list[list[tuple[str, RichStyle | None]]]:
    """Each strip as (text, style without its selection offset) per segment, merged."""
    out = []
    for strip in strips:
        line: list[tuple[str, RichStyle | None]] = []
        for segment in strip:
            style = segment.style
            if style is not None and style._meta is not None:
                meta = {k: v for k, v in style.meta.items() if k != "offset"}
                style = style.clear_meta_and_links() + RichStyle.from_meta(meta) if meta else \
                    style.clear_meta_and_links()
            for char in segment.text:
                line.append((char, style))
        out.append(line)
    return out


def test_a_region_draws_the_cells_textual_draws_without_selection_offsets():
    """``QuickContent`` (the table's regions) draws every cell as Textual's
    own ``Content`` does: characters, colours, attributes and click metas;
    only the per-cell offsets (mouse text selection) are left out."""
    text = Text("Hand ", style="bold")
    for i, card in enumerate(["M2", "G3", "C1", "O4", "Z5", "K2", "Mäple", "紅葉"]):
        text.append(f"{i + 1}", style="dim")
        text.append(f" •{card}• ", style=Style(color="red", bgcolor="blue", meta={"momiji": f"card({i})"}))
    text.append("\nsecond line   with spaces   ", style="italic")
    content = Content.from_rich_text(text)
    options = RenderOptions(TStyle.parse, {})
    base = TStyle.parse("#ffffff on #102030")
    for width in (7, 23, 40, 120):
        for height in (None, 1, 3):
            quick = QuickContent(content).render_strips(width, height, base, options)
            assert _cells(quick) == _cells(content.render_strips(width, height, base, options)), (width, height)
            assert all(not (s.style and s.style._meta and "offset" in s.style.meta) for q in quick for s in q)
    assert QuickContent(content).get_height({}, 23) == content.get_height({}, 23)


async def test_rules_4_2_a_play_renders_no_text_for_the_status_line_and_display_it_leaves_as_they_were(
        isolated_dirs):
    """Their slices held the whole view, so every play handed them a new
    slice, whose text was built and compared only to be found the same."""
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await sit(pilot, situation(hand="M0a C1a", display="O1b"))
        await pilot.press("1", "enter", "u", "1")  # every region drawn once at its width
        for _ in range(3):  # bounded: the table changes arrive as messages
            await pilot.pause()
        status, display = screen.query_one(StatusLine), screen.query_one(DisplayRegion)
        before = (status.renders, display.renders, plain(status), plain(display))
        await pilot.press("enter")  # plays M0a alone (RULES §4.2): deck, torii, discard and display stay
        for _ in range(3):  # bounded: the table change arrives as a message
            await pilot.pause()
        assert "M0" in plain(screen.query_one(YouRegion))
        assert (status.renders, display.renders, plain(status), plain(display)) == before


async def test_rules_4_2_a_play_draws_the_hand_with_its_click_metas_and_no_selection_offsets(isolated_dirs):
    """Textual built a new Rich style per drawn segment to hold its offset
    (mouse text selection) and pickled its meta: ~36 per line of the hand.
    The hand still carries each card's click action."""
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, situation(hand="M0a C1a", display="O1b"))
        await pilot.press("1", "enter")  # plays M0a alone (RULES §4.2)
        for _ in range(3):  # bounded: the table change arrives as a message
            await pilot.pause()
        hand = screen.query_one(HandRegion)
        metas = [s.style.meta for y in range(hand.size.height) for s in hand.render_line(y)
                 if s.style is not None and s.style._meta is not None]
        assert {"momiji": "card(0)"} in metas  # C1a, the card left: its click runs card(0)
        assert not any("offset" in meta for meta in metas)


class ScrollingLog(App[None]):
    """A log panel alone, with more lines than its box (a game's later turns)."""

    CSS = "LogPanel { width: 40; height: 10; padding: 0 1; border-top: solid red; scrollbar-size-vertical: 1; }"

    def compose(self):
        yield LogPanel()


async def test_rules_3_a_new_line_that_scrolls_the_log_renders_only_that_line(monkeypatch):
    """Later in a game every move scrolls the log by its new lines: each line
    already drawn moves up a row and was rendered again (58 lines per confirm
    at 200×60); now the rows keep their drawn lines and only the new one is
    rendered. What is shown is unchanged: the latest lines, in order."""
    app = ScrollingLog()
    async with app.run_test(size=(60, 12)) as pilot:
        log = app.query_one(LogPanel)
        await pilot.pause()
        for i in range(30):
            log.write_events([ev.CardsDealt(0, tuple(range(6)))], None, [f"Seat{i:02}"])
        for _ in range(3):  # bounded: the lines are drawn
            await pilot.pause()
        assert log.is_vertical_scroll_end and log.max_scroll_y > 0
        drawn = lines_drawn(monkeypatch, LogPanel)
        log.write_events([ev.CardsDealt(0, tuple(range(6)))], None, ["Ginnan"])
        for _ in range(3):  # bounded: the new line is drawn
            await pilot.pause()
        assert log.is_vertical_scroll_end
        assert drawn == [8]  # the new line, in the last of the 9 rows under the border
        rows = [strip.text for strip in log.render_lines(log.region.size.region)]
        assert "Ginnan" in rows[-1] and "Seat29" in rows[-2] and "Seat22" in rows[1]
        assert rows[0] == "─" * 40  # the border row is kept as drawn


async def filled_log(app: ScrollingLog, pilot) -> LogPanel:
    """The app's log with 30 lines written and drawn (it scrolls)."""
    log = app.query_one(LogPanel)
    for i in range(30):
        log.write_events([ev.CardsDealt(0, tuple(range(6)))], None, [f"Seat{i:02}"])
    for _ in range(3):  # bounded: the lines are drawn
        await pilot.pause()
    return log


async def test_a_theme_change_draws_the_kept_log_rows_again():
    app = ScrollingLog()
    async with app.run_test(size=(60, 12)) as pilot:
        log = await filled_log(app, pilot)
        before = [strip for strip in log.render_lines(log.region.size.region)]
        app.theme = "textual-light" if app.theme != "textual-light" else "nord"
        for _ in range(3):  # bounded: the new colours are applied
            await pilot.pause()
        after = [strip for strip in log.render_lines(log.region.size.region)]
        assert [s.text for s in after] == [s.text for s in before]
        assert all(list(a) != list(b) for a, b in zip(after, before, strict=True))  # every row in the new colours


async def test_a_style_change_of_an_ancestor_draws_the_kept_log_rows_again():
    """The rows are kept by what they are drawn over, the log's and its
    ancestors' style counters among it: the screen's text style turned
    bold shows on every row."""
    app = ScrollingLog()
    async with app.run_test(size=(60, 12)) as pilot:
        log = await filled_log(app, pilot)
        rows = log.render_lines(log.region.size.region)
        assert any("Seat" in seg.text for strip in rows for seg in strip)
        assert not any(seg.style and seg.style.bold for strip in rows for seg in strip if "Seat" in seg.text)
        app.screen.styles.text_style = "bold"
        for _ in range(3):  # bounded: the new style is applied
            await pilot.pause()
        rows = log.render_lines(log.region.size.region)
        assert any("Seat" in seg.text for strip in rows for seg in strip)
        assert all(seg.style and seg.style.bold for strip in rows for seg in strip if "Seat" in seg.text)


def test_a_region_measures_a_text_that_fits_as_textual_does():
    """``fitted_height`` (a region's height without wrapping its text again)
    agrees with Textual's own measure wherever it answers."""
    texts = ["", "a", "a\n", "a\nb", "\n\n", "紅葉 ok", "abcd", "abcde", "ab  \ncd", "x" * 9 + "\n" + "y" * 3,
             "▲3 you ✓  2 Moss [you]", "a b c d e f g h"]
    for plain_text in texts:
        for width in (1, 4, 5, 9, 40):
            fitted = fitted_height(Text(plain_text), width)
            if fitted is not None:
                assert fitted == Content(plain_text).get_height({}, width), (plain_text, width)
    assert fitted_height(Text("abcde"), 4) is None and fitted_height(Text("ab\ncd"), 4) == 2


async def test_rules_3_a_scrollbar_whose_thumb_moves_draws_rows_it_drew_before_without_rendering_again(monkeypatch):
    """A scrolling log's scrollbar moves its thumb with nearly every move; it
    was rendered whole through Rich each time (59 rows at 200×60). Its rows
    are of a few kinds (track, thumb, the thumb's two ends): once drawn, a
    row is drawn again from what it was, the same cells Textual draws."""
    app = ScrollingLog()
    async with app.run_test(size=(60, 12)) as pilot:
        log = app.query_one(LogPanel)
        bar = log.vertical_scrollbar
        for i in range(40):  # bounded: every position of the thumb, each drawn once
            log.write_events([ev.CardsDealt(0, tuple(range(6)))], None, [f"Seat{i:02}"])
            await pilot.pause()
        rendered: list[int] = []
        original = ScrollBarRender.__rich_console__

        def counted(self, console, options):
            rendered.append(1)
            return original(self, console, options)

        monkeypatch.setattr(ScrollBarRender, "__rich_console__", counted)
        position = bar.position
        for i in range(3):
            log.write_events([ev.CardsDealt(0, tuple(range(6)))], None, [f"Late{i}"])
            await pilot.pause()
        shown = bar.render_lines(bar.region.size.region)
        assert bar.position != position and rendered == []
        assert [list(s) for s in shown] == [list(s) for s in ScrollBar.render_lines(bar, bar.region.size.region)]


def test_a_region_whose_lines_fit_draws_the_cells_textual_draws():
    """Lines that fit are cut at their ends, not wrapped: the same cells."""
    text = Text("Hand ", style="bold")
    text.append("•M2•", style=Style(color="red", meta={"momiji": "card(0)"}))
    text.append("   \n\nlast ", style="italic")
    text.append("紅葉", style="underline")
    content = Content.from_rich_text(text)
    options = RenderOptions(TStyle.parse, {})
    base = TStyle.parse("#ffffff on #102030")
    for width in (12, 13, 40):
        quick = QuickContent(content).render_strips(width, None, base, options)
        assert _cells(quick) == _cells(content.render_strips(width, None, base, options)), width


def test_a_region_rendered_reads_as_its_text():
    """``str(region.render())`` is the text shown, as with Textual's Content."""
    content = Content.from_rich_text(Text("✗ Not saved: disk full."))
    assert str(QuickContent(content)) == str(content) == QuickContent(content).plain
