"""One filter of saved games: the menu, the palette and the SSH
lobby offer the same unfinished games, chosen by ``session/saves.py`` (checked
by the rules), never each by their own filter of ``list_games``."""

from __future__ import annotations

import json

from momiji_tui.session.lobby import Lobby, Player
from momiji_tui.session.table import BOT, HUMAN, SeatConfig, Table
from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.lobby import LobbyApp


def _new_game(folder, seed: int) -> str:
    table = Table.new([SeatConfig("Ann", HUMAN, None), SeatConfig("Kaede", BOT, "easy")], seed=seed,
                      data_dir=folder)
    assert table.log is not None
    game_id = table.log.path.name.split(".")[0]
    table.close()
    return game_id


def _from_newer_rules(folder, game_id: str) -> None:
    """Rewrite the header as a newer momiji would (a later rules version)."""
    path = folder / "games" / f"{game_id}.jsonl"
    lines = path.read_text().splitlines()
    lines[0] = json.dumps(json.loads(lines[0]) | {"rules_version": "2099.01-1"})
    path.write_text("\n".join(lines) + "\n")


def test_the_lobby_offers_the_same_unfinished_games_as_the_menu(isolated_dirs):
    """A save from newer rules is never offered to continue (the menu never
    did; the lobby listed it as in progress, and opening it failed)."""
    lobby = Lobby(isolated_dirs)
    player = Player("acct-filter", "ann")
    folder = lobby.player_dir(player)
    playable = _new_game(folder, 1)
    newer = _new_game(folder, 2)
    _from_newer_rules(folder, newer)
    lobby_app = LobbyApp(lobby, player, bot_delay=0)
    menu_app = MomijiApp(folder, bot_delay=0)
    assert [g.game_id for g in lobby_app.unfinished_solo()] == [playable]
    assert [g.game_id for g in menu_app.unfinished_solo()] == [playable]


async def test_saved_games_shows_a_seat_named_with_markup_brackets_as_typed(isolated_dirs):
    """A name is text in the saved games table: ``[/]`` in it never ends the app."""
    from momiji_tui.ui.screens.saved import SavedGamesScreen

    table = Table.new([SeatConfig("[/]ann[b", HUMAN, None), SeatConfig("Kaede", BOT, "easy")], seed=3,
                      data_dir=isolated_dirs)
    table.close()
    app = MomijiApp(isolated_dirs, bot_delay=0)
    async with app.run_test(size=(200, 30)) as pilot:  # wide enough for the seats column
        await pilot.pause()
        app.push_screen(SavedGamesScreen())
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, SavedGamesScreen) and app.return_code is None
        shown = str(app.screen.query_one("#saved-message").render())  # the seats, beside the table's columns
        row = [str(cell) for cell in app.screen.query_one("#saved-table").get_row_at(0)]
        assert any("[/]ann[b, Kaede" in cell for cell in row) or "seats [/]ann[b, Kaede" in shown
