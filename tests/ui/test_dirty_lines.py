"""A repaint draws only the lines that changed (``ui/widgets/_textual_private``
note 8).

Textual's compositor drew a repaint from the box around every dirty region:
each widget in that box rendered all its lines in it. ``DirtyLinesCompositor``
renders only the lines a dirty span reaches, and must send the terminal the
same bytes as Textual's for the same dirty regions.
"""

from __future__ import annotations

import io

import pytest
from helpers import scripted_bot, sit, situation
from rich.console import Console
from textual._compositor import Compositor
from textual.widget import Widget

from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.widgets._textual_private_chops import DirtyLinesCompositor
from momiji_tui.ui.widgets.table_regions import Region

HAND = "M0a M1a C0a C1a O0a O1a G0a G1a K0a"
KEYS = ("1", "right", "2", "enter", "u", "1", "enter", "down", "up", "c", "M", "escape", "m", "m", "e")


def segments_text(update, size: tuple[int, int]) -> str:
    """What the app writes to a truecolor terminal for an update (as
    ``App._display`` writes it: ``render_segments``)."""
    console = Console(file=io.StringIO(), force_terminal=True, color_system="truecolor", width=size[0],
                      height=size[1], legacy_windows=False)
    return update.render_segments(console)


@pytest.mark.parametrize("size", [(80, 24), (200, 60)])
async def test_rules_4_every_repaint_of_a_turn_sends_the_bytes_textual_would(isolated_dirs, monkeypatch, size):
    """Each partial update is drawn twice from the same dirty regions, by the
    table's compositor and by Textual's, and both write the same bytes."""
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
    compared: list[int] = []
    ours = DirtyLinesCompositor.render_partial_update

    def both(self):
        dirty = set(self._dirty_regions)
        mine = ours(self)
        self._dirty_regions.update(dirty)
        theirs = Compositor.render_partial_update(self)
        assert (mine is None) == (theirs is None)
        if mine is not None:
            assert segments_text(mine, size) == segments_text(theirs, size)
            compared.append(len(mine.spans))
        return mine

    async with app.run_test(size=size) as pilot:
        screen = await sit(pilot, situation(hand=HAND, display="O3b Z3b M3b", seats=3))
        assert isinstance(screen._compositor, DirtyLinesCompositor)
        monkeypatch.setattr(DirtyLinesCompositor, "render_partial_update", both)
        for key in KEYS:
            await pilot.press(key)
            for _ in range(3):  # bounded: the table changes arrive as messages
                await pilot.pause()
    assert len(compared) >= len(KEYS) - 3  # most keys repainted something, and each was compared


async def test_rules_4_2_selecting_a_card_renders_only_the_lines_that_changed(isolated_dirs, monkeypatch):
    """At 200×60 the screen and the table's column are 60 lines tall; a card
    selected changes a few lines, and only those are asked of them (Textual's
    compositor asked every line between the status line and the footer); a
    widget whose cells that would be written on those lines all lie under
    widgets in front is not asked at all."""
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
    asked: dict[str, int] = {}
    render_lines = Widget.render_lines

    region_lines = Region.render_lines

    def counted(self, crop):
        if not isinstance(self, Region):  # a region is counted once, by its own render_lines
            asked[type(self).__name__] = asked.get(type(self).__name__, 0) + crop.height
        return render_lines(self, crop)

    def region_counted(self, crop):
        asked[type(self).__name__] = asked.get(type(self).__name__, 0) + crop.height
        return region_lines(self, crop)

    async with app.run_test(size=(200, 60)) as pilot:
        screen = await sit(pilot, situation(hand=HAND, display="O3b Z3b M3b", seats=3))
        for _ in range(20):  # bounded: what the table asked before the key is drawn first (a busy run)
            await pilot.pause()
            if not screen._dirty_widgets and not screen._compositor._dirty_regions:
                break
        monkeypatch.setattr(Widget, "render_lines", counted)
        monkeypatch.setattr(Region, "render_lines", region_counted)
        await pilot.press("1")
        for _ in range(3):  # bounded: the repaint comes on the screen's timer
            await pilot.pause()
    assert asked.get("HandRegion", 0) > 0  # the hand was drawn again
    # Only the regions that changed are asked: the screen, the table's column and the row
    # holding it lie behind them, and their cells beside them (the column's padding) are
    # not in a dirty span, so nothing they draw would be written.
    assert set(asked) == {"HandRegion", "PreviewLine", "TableFooter"}, asked
