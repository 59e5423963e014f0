"""A key press at the table is a repaint, not a layout.

The footer is one widget drawing one line (the keys that apply now, the key
map's keys, clickable); the message and preview regions reserve their
lines (longer text ends with an ellipsis), so selecting a card — which
makes ⏎ appear and the preview grow — lays nothing out again.
"""

from __future__ import annotations

import pytest
from rich.text import Text
from textual.geometry import Region
from helpers import plain, scripted_bot, sit, situation, until_screen
from textual.widget import Widget

from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.screens.help import HelpScreen


@pytest.fixture
def app(isolated_dirs):
    return MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)


def layouts_during(monkeypatch, calls: list[str]) -> None:
    """Record every widget that asks for a layout (``refresh(layout=True)``)."""
    original = Widget.refresh

    def refresh(self, *regions, layout: bool = False, **kw):
        if layout:
            calls.append(f"{type(self).__name__}#{self.id}")
        return original(self, *regions, layout=layout, **kw)

    monkeypatch.setattr(Widget, "refresh", refresh)


async def test_rules_3_footer_is_one_line_of_the_keys_that_apply_now(app):
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, situation(hand="M1a C1a", display="O1b", acorns=0))
        footer = screen.footer
        assert not footer.children  # one widget, no key widgets to show or hide
        assert "c Collect" in footer.plain and "? Help" in footer.plain
        assert "⏎ Confirm" not in footer.plain and "Exchange" not in footer.plain
        await pilot.press("1", "2")
        await pilot.pause()
        assert "x Exchange" in footer.plain and "Esc Back" in footer.plain


async def test_footer_shows_the_key_maps_keys(app):
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, situation(hand="M1a C1a", display="O1b"))
        app.set_keymap({"table.collect": "g", "table.help": "f2"})
        await pilot.pause()
        assert "g Collect" in screen.footer.plain and "f2 Help" in screen.footer.plain
        assert "c Collect" not in screen.footer.plain


async def test_clicking_a_footer_key_runs_its_action(app):
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, situation(hand="M1a C1a", display="O1b"))
        await pilot.pause()
        x = screen.footer.plain.index("? Help")
        await pilot.click(screen.footer, offset=(x + 2, 0))
        await until_screen(pilot, HelpScreen)
        assert isinstance(app.screen, HelpScreen)


async def test_selecting_a_card_repaints_and_lays_nothing_out(app, monkeypatch):
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, situation(hand="M0a C1a", display="O1b"))
        await pilot.pause()
        before = screen.footer.plain
        calls: list[str] = []
        layouts_during(monkeypatch, calls)
        await pilot.press("1")  # ⏎ Play appears, the preview says what it would do
        await pilot.pause()
        assert screen.footer.plain != before and "⏎ Confirm" in screen.footer.plain
        assert "Play" in plain(screen.query_one("#preview"))
        assert calls == []


async def test_a_long_message_keeps_its_lines_and_ends_with_an_ellipsis(app, monkeypatch):
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, situation(hand="M1a C1a", display="O1b"))
        await pilot.pause()
        message = screen.query_one("#message")
        height = message.size.height
        calls: list[str] = []
        layouts_during(monkeypatch, calls)
        screen.refuse("word " * 60 + "END")
        await pilot.pause()
        assert message.size.height == height and calls == []
        shown = plain(message)
        assert "END" not in shown and shown.rstrip().endswith("…")
        assert "word " * 60 + "END" in screen.message.plain  # the whole text is kept


async def test_footer_keys_kept_per_state_are_forgotten_when_the_key_map_changes(app):
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, situation(hand="M0a C1a", display="O1b"))
        await pilot.press("1", "1")  # selected then unselected: both footers seen (and kept)
        await pilot.pause()
        assert "c Collect" in screen.footer.plain
        app.set_keymap({"table.collect": "g", "table.confirm": "y"})
        await pilot.pause()
        await pilot.press("1")  # a footer seen before, now with the new keys
        await pilot.pause()
        assert "y Confirm" in screen.footer.plain
        await pilot.press("1")
        await pilot.pause()
        assert "g Collect" in screen.footer.plain and "c Collect" not in screen.footer.plain


@pytest.mark.parametrize("way", ["show", "say"])
async def test_a_message_that_only_turns_bold_is_repainted_bold(app, way):
    # Rich's Text == ignores the base style: the region must still count a
    # line that only turned bold as changed ("show"), and the screen's say()
    # must still hand it to the region, whose reactive compares with == too ("say").
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, situation(hand="M1a C1a", display="O1b"))
        message = screen.query_one("#message")
        tell = message.show if way == "show" else screen.say
        tell(Text("Same words"))
        await pilot.pause()
        tell(Text("Same words", style="bold"))
        await pilot.pause()
        row = message.render_lines(Region(0, 0, message.size.width, 1))[0]
        styles = [seg.style for seg in row if seg.text.strip()]
        assert "".join(seg.text for seg in row).startswith("Same words")
        assert styles and all(style is not None and style.bold for style in styles)
