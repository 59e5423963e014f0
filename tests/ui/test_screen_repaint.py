"""The table repaints only what changed, and what the terminal shows is
right: after every key the terminal must show what a redraw of the whole
screen shows. Each frame the app writes is applied to a model of the
terminal (the frames' segments as Rich renders them for ``App._display``).
"""

from __future__ import annotations

import pytest
from helpers import on_frames, scripted_bot, sit, situation
from rich.cells import cell_len
from rich.console import Console
from rich.segment import ControlType
from textual._compositor import LayoutUpdate
from textual.geometry import Region as Area

from momiji_tui.engine import events as ev
from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.widgets.log_panel import LogPanel

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
