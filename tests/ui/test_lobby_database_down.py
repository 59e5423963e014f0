"""The SSH lobby when the database cannot list a player's games (serve
--database): the player is told the database failed, never that
they have no unfinished game. Injected at the call: no PostgreSQL here."""

from __future__ import annotations

from helpers import settle, until_screen

from momiji_tui.session.lobby import Lobby, Player
from momiji_tui.store.errors import WriteFailed
from momiji_tui.ui.lobby import LobbyApp
from momiji_tui.ui.screens.lobby import LobbyScreen


class _DatabaseDown:
    """``DatabaseGames`` whose database dropped the connection."""

    def unfinished_solo(self, owner: str):
        raise WriteFailed("list the games", "the database",
                          OSError(None, "the database failed: the connection is lost"))


async def test_continue_with_the_database_down_says_so_not_that_there_is_no_game(isolated_dirs):
    lobby = Lobby(isolated_dirs)
    lobby.games = _DatabaseDown()  # type: ignore[assignment]
    app = LobbyApp(lobby, Player("key-ann", "ann"), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until_screen(pilot, LobbyScreen)
        await pilot.press("c")
        await settle(pilot)
        said = str(app.screen.query_one("#lobby-message").render())
    assert "There is no unfinished game" not in said
    assert "Your games cannot be listed now: Could not list the games: the database failed: the connection is " \
           "lost" in said
