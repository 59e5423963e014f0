"""The create-table form's hints option, by Pilot."""

from __future__ import annotations

import pytest
from helpers import until_screen
from textual.widgets import Select

from momiji_tui.session.lobby import Lobby, Player
from momiji_tui.ui.lobby import LobbyApp
from momiji_tui.ui.screens.create_table import CreateTableScreen


@pytest.mark.parametrize("allowed", [False, True])
async def test_create_table_with_hints_allowed_or_off(tmp_path, allowed):
    lobby = Lobby(tmp_path, seat_wait=None)
    app = LobbyApp(lobby, Player("key-alice", "alice"), bot_delay=0)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.push_screen(CreateTableScreen())
            await until_screen(pilot, CreateTableScreen)
            hints = app.screen.query_one("#create-hints", Select)
            assert hints.value is False and hints.region.bottom <= 24  # off by default, on screen at 80×24
            if allowed:
                hints.value = True
            await pilot.press("ctrl+s")
            await pilot.pause()
            (pending,) = lobby.pending.values()
            assert pending.hints_allowed is allowed
    finally:
        lobby.close()
