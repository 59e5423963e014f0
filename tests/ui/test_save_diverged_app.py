"""At the table (ARCHITECTURE "Saves"): a save replaced by a copy renamed
over it while the game is open. The move is not made, the player reads what
happened and the two ways on, the palette offers the recovered copy, and
after it the game goes on (saved again)."""

from __future__ import annotations

import os
import shutil

from helpers import settle, until_screen

from momiji_tui.bots import make_bot
from momiji_tui.session.table import BOT, HUMAN, SeatConfig, Table
from momiji_tui.store import load
from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.commands import game_commands, keep_in_recovered_copy
from momiji_tui.ui.models.new_game import RECOVER_COMMAND
from momiji_tui.ui.screens.table import TableScreen


def _human_to_move(data_dir):
    table = Table.new([SeatConfig("Ann", HUMAN), SeatConfig("Bo", BOT, "easy")], seed=5, data_dir=data_dir)
    step = 0
    while step < 4 or table.current != 0:
        table.submit(make_bot("easy", seed=step).choose(table.view(table.current)))
        step += 1
    table.close()
    return table.log.path


async def test_a_replaced_save_stops_the_move_and_offers_a_recovered_copy(isolated_dirs):
    path = _human_to_move(isolated_dirs)
    app = MomijiApp(isolated_dirs, resume_path=path, bot_delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await until_screen(pilot, TableScreen)
        table = app.table
        before = len(table.events)
        copy = path.with_name("copy.tmp")
        shutil.copy2(path, copy)
        os.replace(copy, path)  # rsync, Syncthing, a backup restore
        move = table.legal(0)[0]
        said = app.submit(move)
        assert said is not None and said.startswith("Not saved: the save file was replaced by another copy")
        assert "quit and resume" in said and RECOVER_COMMAND in said
        assert len(table.events) == before
        assert RECOVER_COMMAND in [c.title for c in game_commands(app, app)]
        keep_in_recovered_copy(app, app)
        await settle(pilot)
        assert table.current == 0 and app.submit(table.legal(0)[0]) is None  # saved into the recovered copy
        assert RECOVER_COMMAND not in [c.title for c in game_commands(app, app)]
    assert len(load(path).events) >= before + 1
    assert any(p.name.startswith(path.name + ".other-copy-") for p in path.parent.iterdir())
