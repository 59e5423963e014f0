"""The frames a table sends, played into a terminal (pyte), show what the
table is: nothing stale after a region gets shorter in a table that fills
its window (a region that kept its lines after a
shorter text was measured again by a later layout that did not repaint the
regions it moved, and the terminal kept old lines)."""

from __future__ import annotations

import io

import pyte
import pytest
from helpers import scripted_bot, sit, situation
from rich.console import Console
from textual.app import App

from momiji_tui.ui.app import MomijiApp

HAND = "M0a M1a C0a C1a O0a O1a G0a G1a K0a K1a"


def terminal_of(monkeypatch, app: MomijiApp, size: tuple[int, int]) -> pyte.Screen:
    """A terminal that receives every frame ``app`` draws (``App._display``)."""
    screen = pyte.Screen(*size)
    stream = pyte.Stream(screen)
    original = App._display

    def display(self, shown, renderable):
        if renderable is not None and self is app:
            out = io.StringIO()
            Console(file=out, force_terminal=True, color_system="truecolor", width=size[0],
                    height=size[1], legacy_windows=False).print(renderable, end="")
            stream.feed(out.getvalue())
        return original(self, shown, renderable)

    monkeypatch.setattr(App, "_display", display)
    return screen


def stale_lines(app: MomijiApp, terminal: pyte.Screen) -> list[tuple[int, str, str]]:
    """Lines where the terminal differs from the screen drawn afresh."""
    fresh = [strip.text.rstrip() for strip in app.screen._compositor.render_strips()]
    return [(y, shown.rstrip(), fresh[y]) for y, shown in enumerate(terminal.display)
            if shown.rstrip() != fresh[y]]


@pytest.mark.parametrize("height", [22, 23, 24, 30])
async def test_rules_5_1_a_hand_discarded_down_to_the_limit_leaves_nothing_stale_on_the_terminal(
        isolated_dirs, monkeypatch, height):
    """Four seats at 80 columns: collect a column to hold 11 (two hand lines),
    discard 3 (RULES §5.1: one line), then keys that lay the table out."""
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
    async with app.run_test(size=(80, height)) as pilot:
        terminal = terminal_of(monkeypatch, app, (80, height))
        await sit(pilot, situation(hand=HAND, display="O3b Z3b M3b", seats=4,
                                   other_row=("M2b", "C2b", "O2b", "G2b", "K2b", "Z2b"),
                                   row=("M3a", "C3a", "O3a", "G3a", "K3a", "Z0b")))
        app.screen.refresh()  # the terminal starts from a whole frame
        await pilot.pause()
        for key in ("c", "M", "d", "9", "0", "b", "enter", "1", "2", "u", "e", "1", "2", "escape"):
            await pilot.press(key)
            for _ in range(3):  # bounded: the table changes arrive as messages
                await pilot.pause()
            assert stale_lines(app, terminal) == [], key


async def test_rules_5_1_a_hand_that_got_shorter_keeps_its_lines_until_the_turn_ends(isolated_dirs):
    """In a table with room, discarding down to the limit (RULES §5.1) keeps
    the hand's second line (blank: nothing moves, no layout) until the turn
    ends; then the hand takes one line."""
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
    async with app.run_test(size=(80, 30)) as pilot:
        screen = await sit(pilot, situation(hand=HAND, display="O3b Z3b M3b", seats=4))
        hand = screen.query_one("#hand")
        await pilot.press("c", "M")  # 11 cards: two lines
        await pilot.pause()
        assert hand.size.height == 2
        await pilot.press("d", "9", "0", "b", "enter")  # 8 cards: one line of text
        for _ in range(3):  # bounded: the table change arrives as a message
            await pilot.pause()
        assert len(app.table.view(0).me.hand) == 8
        assert hand.size.height == 2 and hand.render_line(1).text.strip() == ""
        await pilot.press("e")
        for _ in range(5):  # bounded: the bots' turns arrive as messages
            await app.workers.wait_for_complete()
            await pilot.pause()
        assert hand.size.height == 1


async def discard_to_the_limit(pilot, app: MomijiApp):
    """Four seats, room to spare: collect to 11 cards, discard 3 (RULES §5.1);
    the hand keeps its second line. Returns the hand region."""
    screen = await sit(pilot, situation(hand=HAND, display="O3b Z3b M3b", seats=4))
    hand = screen.query_one("#hand")
    await pilot.press("c", "M", "d", "9", "0", "b", "enter")
    for _ in range(3):  # bounded: the table change arrives as a message
        await pilot.pause()
    assert len(app.table.view(0).me.hand) == 8 and hand.size.height == 2
    return hand


async def test_rules_5_1_a_resize_of_the_height_alone_gives_a_kept_hand_the_lines_it_needs(isolated_dirs):
    """A window made shorter must not lose the log to a blank line the hand kept."""
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
    async with app.run_test(size=(80, 32)) as pilot:
        hand = await discard_to_the_limit(pilot, app)
        await pilot.resize_terminal(80, 24)
        for _ in range(3):  # bounded: the resize arrives as messages
            await pilot.pause()
        assert hand.size.height == 1


async def test_rules_5_1_a_screen_closed_over_the_table_gives_a_kept_hand_the_lines_it_needs(isolated_dirs):
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
    async with app.run_test(size=(80, 32)) as pilot:
        hand = await discard_to_the_limit(pilot, app)
        await pilot.press("question_mark")
        await pilot.pause()
        await pilot.press("escape")
        for _ in range(3):  # bounded: the screen comes back by messages
            await pilot.pause()
        assert type(app.screen).__name__ == "TableScreen" and hand.size.height == 1
