"""The landscape draft at 80 columns and at its smallest size (RULES §2.1):
a landscape's power that does not fit on one line goes on under itself,
indented like its first line, so the wrapped part never reads as a new
entry of the offer."""

from __future__ import annotations

import io

import pytest
from fit_helpers import screen_lines
from helpers import scripted_bot, until_human_or_end
from rich.console import Console
from rich.text import Text

from momiji_tui.engine.rules_data import LANDSCAPES
from momiji_tui.engine.state import drafter
from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.models.hanging import Hanging
from momiji_tui.ui.models.new_game import NewGameOptions
from momiji_tui.ui.models.render import CLICK_META, click
from momiji_tui.ui.screens.draft import DraftScreen


def wrapped_powers(app) -> int:
    """Checks every power shown in the offer: its lines, in order, joined
    make the power, and each continuation line starts at the column of the
    power's first line. Returns how many powers took more than one line."""
    view = app.table.view(app.seat)
    rnd, _ = drafter(len(view.seats), view.first_seat, view.draft_pick)
    offer = app.screen.query_one("#draft-offer").region  # the offer's own cells (no scrollbar)
    lines = [line[offer.x:offer.right] for line in screen_lines(app)[offer.y:offer.bottom]]
    at, wrapped = 0, 0
    for lid in view.draft_remaining:
        _, name, power = LANDSCAPES[lid]
        at = next(i for i in range(at, len(lines)) if lines[i].rstrip().endswith(f"  {name}")) + 1
        col = lines[at].index(power.split()[0])
        told = lines[at][col:].rstrip()
        while told != power:
            at += 1
            indent = len(lines[at]) - len(lines[at].lstrip())
            assert indent == col, f"{name}: line {at} {lines[at]!r} starts at {indent}, not under {col}"
            told += " " + lines[at].strip()
            wrapped += 1
        assert view.draft_offers[rnd].count(lid) == 1
    return wrapped


@pytest.mark.parametrize("size", [(80, 24), (50, 16)], ids=["80x24", "50x16"])
async def test_rules_2_1_a_wrapped_power_stays_indented_under_its_landscape(isolated_dirs, size):
    options = NewGameOptions(seats=2, bot_level="easy", seed=4, landscape_mode="draft")
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot, new_game=options)
    wrapped = 0
    async with app.run_test(size=size) as pilot:
        await until_human_or_end(pilot)
        while isinstance(app.screen, DraftScreen):  # each of the player's picks (three rounds)
            wrapped += wrapped_powers(app)
            await pilot.press("1")
            await until_human_or_end(pilot)
    assert wrapped > 0  # the offer did wrap: the check above ran on wrapped lines


def test_hanging_entry_wraps_under_its_text_and_its_indent_keeps_the_click():
    pick = click("pick(1)")
    entry = Hanging(Text(" 1   ", style=pick), Text("take 1 card of your choice from the display", style=pick),
                    pad_style=pick)
    console = Console(width=24, file=io.StringIO(), color_system=None)
    lines = console.render_lines(entry, console.options, pad=False)
    assert ["".join(s.text for s in line) for line in lines] == [
        " 1   take 1 card of your", "     choice from the", "     display"]
    assert all(s.style is not None and s.style.meta.get(CLICK_META) == "pick(1)" for line in lines for s in line)


async def test_rules_2_1_at_its_smallest_size_the_draft_scrolls_to_the_panoramas(isolated_dirs):
    """At 50×16 the offer fills the window: the panoramas so far (what each
    seat drafted) are below it, reached with ↓/End or the wheel, and the
    number keys still pick."""
    options = NewGameOptions(seats=4, bot_level="easy", seed=11, landscape_mode="draft")
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot, new_game=options)
    async with app.run_test(size=(50, 16)) as pilot:
        await until_human_or_end(pilot)
        for _ in range(2):
            await pilot.press("1")
            await until_human_or_end(pilot)
        mine = " · ".join(LANDSCAPES[x][1] for x in app.table.view(app.seat).seats[app.seat].panorama)
        assert "Panoramas so far" not in "\n".join(screen_lines(app))  # the third offer fills the window
        await pilot.press("end")
        await pilot.pause()
        shown = "\n".join(screen_lines(app))
        assert "Panoramas so far" in shown and f"You: {mine}" in shown, shown
        await pilot.press("1")
        await until_human_or_end(pilot)
        assert len(app.table.view(app.seat).seats[app.seat].panorama) == 3


async def test_rules_2_1_at_its_smallest_size_a_refused_pick_is_said_on_screen(isolated_dirs):
    """At 50×16 the message line is below the offer and the panoramas: a key
    that picks nothing ("5" with two landscapes offered) scrolls it into view."""
    options = NewGameOptions(seats=4, bot_level="easy", seed=11, landscape_mode="draft")
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot, new_game=options)
    async with app.run_test(size=(50, 16)) as pilot:
        await until_human_or_end(pilot)
        offered = len(app.table.view(app.seat).draft_remaining)
        await pilot.press("5")
        await pilot.pause()
        assert f"Choose 1 to {offered}." in "\n".join(screen_lines(app))
