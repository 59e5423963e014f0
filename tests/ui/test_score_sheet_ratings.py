"""The score sheet of a shared game says what it did to the players'
ratings (ui/screens/scoring.py, through the lobby's ratings), by Pilot."""

from __future__ import annotations

from helpers import until_screen
from rated_play import Member, play_to_the_end
from textual.widgets import Static

from momiji_tui.session.lobby import Lobby, Player
from momiji_tui.ui.lobby import LobbyApp
from momiji_tui.ui.screens.scoring import ScoringScreen


async def test_the_score_sheet_of_a_rated_shared_game_shows_each_players_rating_and_change(tmp_path):
    lobby = Lobby(tmp_path, seat_wait=None, ratings=True, deal_seed=lambda: 3)
    app = LobbyApp(lobby, Player("key-alice", "alice"), bot_delay=0)
    bob = Member("key-bob", "bob")
    try:
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.pause()
            lobby.enter(bob)
            pending = lobby.create_table(app, ["human"])
            lobby.join_table(bob, pending.table_id)
            table = bob.seated()[-1].table
            play_to_the_end(table)
            await until_screen(pilot, ScoringScreen, limit=200)
            changes = lobby.rating_changes[table.game_id]
            shown = str(app.screen.query_one("#scoring-result", Static).render())
            mine, bobs = changes["key-alice"], changes["key-bob"]
            assert f"Ratings: You rating {mine.after.ordinal:.1f} ({mine.delta:+.1f})" in shown
            assert f"{table.seats[1].name} rating {bobs.after.ordinal:.1f} ({bobs.delta:+.1f})" in shown
    finally:
        lobby.close()
