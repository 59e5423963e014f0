"""What a confirm at the table repaints, counted (never timed). A widget whose drawing did not
change renders no line."""

from __future__ import annotations

from helpers import plain, scripted_bot, sit, situation
from rich.style import Style as RichStyle
from textual.app import App
from textual.strip import Strip

from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.widgets.log_panel import LogPanel
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
