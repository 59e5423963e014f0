"""Rematch from the score sheet (same seats and levels, a new deal) and
delete from the saved-games screen (asks first; the store's delete, with
its lock)."""

from __future__ import annotations

from fit_helpers import LONG_SEATS, long_game
from helpers import scripted_bot, until_screen
from textual.widgets import DataTable, Label

from momiji_tui.session.saves import describe_saved_games
from momiji_tui.session.table import Table
from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.screens.saved import SavedGamesScreen
from momiji_tui.ui.screens.scoring import ScoringScreen
from momiji_tui.ui.screens.table import TableScreen


async def test_rematch_from_the_score_sheet_deals_again_with_the_same_seats(isolated_dirs):
    path = long_game(isolated_dirs)
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
    async with app.run_test(size=(80, 24)) as pilot:
        app.resume_game(path)
        await until_screen(pilot, ScoringScreen)
        old = app.table
        assert old is not None
        await pilot.press("r")
        await until_screen(pilot, TableScreen)
        new = app.table
        assert new is not None and new.game_id != old.game_id and not new.finished
        assert new.seats == LONG_SEATS
        assert new.state.seed != old.state.seed  # a new deal


async def test_delete_from_saved_games_asks_first_then_deletes(isolated_dirs):
    keep, gone = long_game(isolated_dirs, commands=4), long_game(isolated_dirs, seed=6, commands=4)
    app = MomijiApp(isolated_dirs, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await until_screen(pilot, SavedGamesScreen)
        screen = app.screen
        table = screen.query_one(DataTable)
        table.move_cursor(row=[r.path for r in screen.rows].index(gone))
        await pilot.press("d")
        message = str(screen.query_one("#saved-message", Label).render())
        assert message.startswith(f"Delete saved game {gone.stem} (in progress, ") and "y deletes" in message
        await pilot.press("n")  # anything but y keeps it
        assert gone.exists() and "Nothing was deleted." in str(screen.query_one("#saved-message", Label).render())
        await pilot.press("d", "y")
        await pilot.pause()
        assert not gone.exists() and keep.exists()
        assert [r.path for r in screen.rows] == [keep] == [r.path for r in describe_saved_games(isolated_dirs)]
        assert table.row_count == 1
        assert f"Deleted {gone.stem}." in str(screen.query_one("#saved-message", Label).render())


async def test_delete_of_a_game_open_for_play_is_refused_with_where(isolated_dirs):
    path = long_game(isolated_dirs, commands=4)
    other = Table.resume(path, holder="another terminal")  # holds the game's lock
    try:
        app = MomijiApp(isolated_dirs, bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("s")
            await until_screen(pilot, SavedGamesScreen)
            await pilot.press("d")  # refused at once: no question first
            text = str(app.screen.query_one("#saved-message", Label).render())
            assert "already open for play" in text and "another terminal" in text
            assert "cannot be undone" not in text and app.screen.confirming is None
            await pilot.press("y")
            await pilot.pause()
            assert path.exists()
    finally:
        other.close()
