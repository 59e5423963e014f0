"""A table widget's repaint goes straight to its screen (issue 13,
thirteenth round; ``ui/widgets/_textual_private`` notes 11 and 12).

Textual repaints a widget by waking the widget's own message pump, which
then posts an ``Update`` to the screen; the regions, the footer, the log and
its scrollbar hand the screen their repaint at once instead. After every
key the terminal must show what a redraw of the whole screen shows: each
frame the app writes is applied to a model of the terminal (the frames'
segments as Rich renders them for ``App._display``; ``QuickChopsUpdate``
writes the same bytes, ``tests/ui/test_dirty_lines.py``).
"""

from __future__ import annotations

import pytest
from helpers import count_frames, on_frames, scripted_bot, sit, situation
from rich.cells import cell_len
from rich.console import Console
from rich.segment import ControlType
from textual import messages
from textual._compositor import LayoutUpdate
from textual.geometry import Region as Area
from textual.widget import Widget

from momiji_tui.engine import events as ev
from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.widgets._textual_private import ScreenRepaint
from momiji_tui.ui.widgets.log_panel import LogPanel
from momiji_tui.ui.widgets.table_regions import Region

HAND = "M0a M1a C0a C1a O0a O1a G0a G1a K0a"
KEYS = ("1", "right", "2", "enter", "u", "1", "enter", "down", "up", "c", "M", "escape", "m", "m", "e")

Cell = tuple[str, object]


class Terminal:
    """The cells a terminal shows after the frames written to it: each
    update's segments as ``App._display`` renders them (cursor moves,
    newlines, text; Rich's ``move_to`` holds 0-based cells). Cells never
    written hold ``UNWRITTEN``."""

    UNWRITTEN: Cell = ("\0", None)

    def __init__(self, size: tuple[int, int]) -> None:
        self.width, self.height = size
        self.cells: list[list[Cell]] = [[self.UNWRITTEN] * self.width for _ in range(self.height)]
        self.console = Console(width=self.width, height=self.height, force_terminal=True,
                               color_system="truecolor", legacy_windows=False)

    def write(self, update: object) -> None:
        """Apply one frame (a compositor update, or the screen's strips) to the cells."""
        x = y = 0
        for segment in self.console.render(update):
            if segment.control:
                for code, *args in segment.control:
                    if code is ControlType.CURSOR_MOVE_TO:
                        x, y = args[0], args[1]
                continue
            if segment.text == "\n":
                x, y = 0, y + 1
                continue
            for char in segment.text:
                if 0 <= y < self.height and 0 <= x < self.width:
                    self.cells[y][x] = (char, segment.style)
                x += cell_len(char)

    def rows(self) -> list[list[Cell]]:
        return [list(row) for row in self.cells]


@pytest.mark.parametrize("size", [(80, 24), (200, 60)])
async def test_rules_4_after_every_key_the_terminal_shows_what_a_full_redraw_shows(isolated_dirs, monkeypatch, size):
    """Every frame the app writes is applied to a model of the terminal;
    after each key of a turn (a play that scrolls the log or turns its page,
    an undo, a collect, a discard…) it shows the cells a redraw of the whole
    screen shows: no repaint was lost, whichever way it reached the screen."""
    terminal = Terminal(size)
    on_frames(monkeypatch, terminal.write)
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
    async with app.run_test(size=size) as pilot:
        screen = await sit(pilot, situation(hand=HAND, display="O3b Z3b M3b", seats=3))
        names = [seat.name for seat in app.table.seats]
        screen.query_one(LogPanel).write_events([ev.CardsDealt(1, (0, 1))] * size[1], 0, names)  # it scrolls
        shown = []
        for key in KEYS:
            await pilot.press(key)
            for _ in range(4):  # bounded: the table changes arrive as messages
                await pilot.pause()
            assert not screen._dirty_widgets and not screen._compositor._dirty_regions, key  # all drawn
            redrawn = Terminal(size)  # the whole screen drawn from scratch, nothing sent
            redrawn.write(LayoutUpdate([[strip] for strip in screen._compositor.render_strips()], Area(0, 0, *size)))
            assert Terminal.UNWRITTEN not in (cell for row in redrawn.cells for cell in row)
            assert terminal.cells == redrawn.cells, key
            shown.append(terminal.rows())
    assert shown[2] != shown[3]  # the keys changed what is shown (a play)


async def test_rules_4_2_a_play_wakes_no_region_and_posts_no_update(isolated_dirs, monkeypatch):
    """A confirmed play repaints the hand, your row, the preview and the log;
    none of them posts an ``Update`` (their repaint is handed to the screen),
    and with Textual's repaint they do (else this proves nothing)."""
    for textual in (False, True):
        app = MomijiApp(isolated_dirs / str(textual), bot_delay=0, make_bot=scripted_bot)
        updates: list[str] = []
        original = messages.Update.__init__

        def counted(self, widget, original=original, updates=updates):
            updates.append(type(widget).__name__)
            original(self, widget)

        with monkeypatch.context() as patch:
            if textual:
                patch.setattr(ScreenRepaint, "refresh", Widget.refresh)
            async with app.run_test(size=(80, 24)) as pilot:
                screen = await sit(pilot, situation(hand="M0a C1a", display="O1b"))
                await pilot.press("1", "enter", "u", "1")  # every region drawn once at its width
                for _ in range(4):  # bounded: the table changes arrive as messages
                    await pilot.pause()
                patch.setattr(messages.Update, "__init__", counted)
                hand = screen.query_one("#hand", Region)
                renders = hand.renders
                await pilot.press("enter")  # plays M0a (RULES §4.2)
                for _ in range(4):  # bounded: the table change arrives as a message
                    await pilot.pause()
                assert hand.renders > renders
        table_widgets = {"HandRegion", "YouRegion", "PreviewLine", "LogPanel", "TableFooter"}
        if textual:
            assert table_widgets & set(updates)
        else:
            assert not table_widgets & set(updates), updates


async def test_rules_4_2_a_play_that_grows_your_row_is_drawn_in_one_frame(isolated_dirs, monkeypatch):
    """Your first pile, drawn as a big card at 200×60, makes your row taller: a layout. The regions' repaints
    reach the screen at once, so the layout must too (else the screen drew
    the repaints, then the layout in a second frame)."""
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await sit(pilot, situation(hand="M0a C1a", display="O1b"))
        you = screen.query_one("#you", Region)
        await pilot.press("1")
        for _ in range(4):  # bounded: the selection is drawn
            await pilot.pause()
        height = you.size.height
        frames = count_frames(monkeypatch)
        await pilot.press("enter")  # plays M0a: your first pile (RULES §4.2)
        for _ in range(4):  # bounded: the table change and its layout
            await pilot.pause()
        assert you.size.height > height  # the row grew: a layout
        assert len(frames) == 1
