"""A refusal (✗) at the table is about the key just pressed: it never
advises what the turn no longer allows, and the next key that is taken
clears it (a new player saw "✗ Nothing to confirm yet: select cards to play
or a column to collect." after collecting with c, O, then pressing ⏎, and
it stayed while the cursor moved)."""

from __future__ import annotations

from helpers import plain, scripted_bot, settle, until_human_or_end

from momiji_tui.engine import events as ev
from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.models.new_game import NewGameOptions
from momiji_tui.ui.screens.table import TableScreen
from momiji_tui.ui.widgets.table_regions import MessageLine


async def test_rules_3_after_the_main_action_enter_refuses_in_words_that_fit_and_the_next_key_clears_it(
        isolated_dirs):
    options = NewGameOptions(seats=2, bot_level="easy", seed=5)  # the display holds an Oak column
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot, new_game=options)
    async with app.run_test(size=(80, 24)) as pilot:
        await until_human_or_end(pilot)
        await pilot.press("c", "O", "enter")  # collect, the Oak column in the chooser, then ⏎
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, TableScreen)
        assert isinstance(app.table.events[-1], ev.ColumnCollected) and app.table.events[-1].leaf_type == "O"
        message = plain(screen.query_one(MessageLine))
        assert message.startswith("✗ Nothing to confirm") and "main action is done" in message, message
        assert "select cards to play or a column to collect" not in message  # RULES §3: one main action
        await pilot.press("right")  # a key that is taken: the refusal is old news
        await settle(pilot, 1)
        assert plain(screen.query_one(MessageLine)) == "" and not screen.message_is_error
