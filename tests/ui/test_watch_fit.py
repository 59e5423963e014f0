"""At 80×24 with 4 seats and the longest names, the watchers' line at the
players' table and the watch screen cut no line of the table (as
``test_fit_table.py`` checks for the table alone)."""

from __future__ import annotations

import pytest
from fit_helpers import screen_lines
from helpers import scripted_bot, sit, until_screen
from test_fit_table import OTHERS, SIZE, YOU, cut_lines, last_round, mid_game, start

from momiji_tui.session.spectators import Watch
from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.screens.watch import WatchScreen
from momiji_tui.ui.widgets.table_regions import HandRegion, Opponents

WATCHERS = (f"{YOU}-5", *OTHERS)  # four watchers with the longest labels


class WatchedApp(MomijiApp):
    def watchers(self) -> tuple[str, ...]:
        return WATCHERS


@pytest.mark.parametrize("stage", [start, mid_game, last_round], ids=lambda f: f.__name__)
async def test_the_watchers_line_cuts_no_table_line_at_80x24(isolated_dirs, stage):
    app = WatchedApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
    async with app.run_test(size=SIZE) as pilot:
        screen = await sit(pilot, stage())
        await pilot.pause()
        assert screen.query_one(Opponents).border_title is not None
        assert any(line.strip().startswith("─Watching: ") for line in screen_lines(app))
        assert cut_lines(app) == []


@pytest.mark.parametrize("stage", [start, mid_game, last_round], ids=lambda f: f.__name__)
async def test_the_watch_screen_cuts_no_line_at_80x24(isolated_dirs, stage):
    table = stage()
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.push_screen(WatchScreen(Watch(table.game_id, table, tuple(s.name for s in table.seats))))
        await until_screen(pilot, WatchScreen)
        await pilot.pause()
        assert not app.screen.query(HandRegion)
        assert cut_lines(app) == []


async def test_a_wide_terminal_puts_the_watchers_log_beside_the_table(isolated_dirs):
    table = mid_game()
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
    async with app.run_test(size=(160, 40)) as pilot:
        await pilot.pause()
        app.push_screen(WatchScreen(Watch(table.game_id, table, tuple(s.name for s in table.seats))))
        await until_screen(pilot, WatchScreen)
        await pilot.pause()
        log, body = app.screen.query_one("#log"), app.screen.query_one("#table")
        assert log.region.x >= body.region.right and log.region.height > 20
        assert cut_lines(app) == []
