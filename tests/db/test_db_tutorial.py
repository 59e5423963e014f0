"""Learn to play on the database (an SSH server with ``--database``): the
tutorial is saved there like any solo game and, resumed, returns to its step."""

from __future__ import annotations

from momiji_tui.session.database_games import DatabaseGames
from momiji_tui.session.table import Table
from momiji_tui.session.tutorial_table import SEATS, TutorialTable


def test_a_tutorial_on_the_database_resumes_at_its_step(pg_url):
    games = DatabaseGames.open(pg_url)
    try:
        table = games.new_table(TutorialTable, list(SEATS), seed=None, landscape_mode="starter",
                                owners=["key-alice"])
        while table.lesson().number < 3:
            table.skip() if table.bot_to_move() is None else table.submit(table.bot_command(1))
        done = table.done
        table.close()
        [listed] = games.unfinished_solo("key-alice")
        resumed = TutorialTable.adopt(games.resume(Table, table.game_id))
        assert listed.game_id == table.game_id
        assert isinstance(resumed, TutorialTable) and resumed.done == done
        assert resumed.lesson().step.key == "waterfall"
        resumed.close()
    finally:
        games.close()
