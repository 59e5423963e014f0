"""The score sheet of a shared game says what it did to the players'
ratings (ui/screens/scoring.py, through the lobby's ratings), by Pilot."""

from __future__ import annotations

from helpers import until_screen
from textual.widgets import Static

from momiji_tui.engine import EndTurn, legal_commands
from momiji_tui.session.lobby import Lobby, Player, Seated
from momiji_tui.ui.lobby import LobbyApp
from momiji_tui.ui.screens.scoring import ScoringScreen


class FakeMember:
    def __init__(self, account: str, name: str) -> None:
        self.player = Player(account, name)
        self.events: list = []

    def lobby_event(self, event) -> None:
        self.events.append(event)


async def test_the_score_sheet_of_a_rated_shared_game_shows_each_players_rating_and_change(tmp_path):
    lobby = Lobby(tmp_path, seat_wait=None, ratings=True, deal_seed=lambda: 3)
    app = LobbyApp(lobby, Player("key-alice", "alice"), bot_delay=0)
    bob = FakeMember("key-bob", "bob")
    try:
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.pause()
            lobby.enter(bob)
            pending = lobby.create_table(app, ["human"])
            lobby.join_table(bob, pending.table_id)
            table = [e for e in bob.events if isinstance(e, Seated)][-1].table
            while not table.finished:
                legal = legal_commands(table.state, table.current)
                ends = [c for c in legal if isinstance(c, EndTurn)]
                table.submit(ends[0] if ends else legal[0])
            await until_screen(pilot, ScoringScreen, limit=200)
            changes = lobby.rating_changes[table.game_id]
            shown = str(app.screen.query_one("#scoring-result", Static).render())
            mine, bobs = changes["key-alice"], changes["key-bob"]
            assert f"Ratings: You rating {mine.after.ordinal:.1f} ({mine.delta:+.1f})" in shown
            assert f"{table.seats[1].name} rating {bobs.after.ordinal:.1f} ({bobs.delta:+.1f})" in shown
    finally:
        lobby.close()
