"""Each traceback random keys ended a session with, replayed on its own.

Keys come in bursts (one read of an SSH channel, a cat on the keyboard):
the keys of a burst are all queued before the first one's action runs, so
a key can reach a screen that is not mounted yet or was closed already.
"""

from __future__ import annotations

from helpers import scripted_bot, sit, situation, until_screen
from textual import events
from textual.command import CommandPalette
from textual.widgets import MarkdownViewer

from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.models.choice import Choice
from momiji_tui.ui.screens.choice import ChoiceScreen
from momiji_tui.ui.screens.help import HelpScreen
from momiji_tui.ui.screens.menu import MenuScreen
from momiji_tui.ui.screens.table import TableScreen
from momiji_tui.ui.screens.table_score import LiveScoreScreen


def burst(app, *keys: str) -> None:
    """Post ``keys`` back to back, as the SSH driver posts one read's keys."""
    for key in keys:
        app.post_message(events.Key(key, key if len(key) == 1 else None))


async def drain(pilot, rounds: int = 6) -> None:
    for _ in range(rounds):
        await pilot.pause()


# -- NoMatches: No nodes match 'MarkdownViewer' on HelpScreen() -----------------------
async def test_a_help_letter_before_the_help_is_mounted_jumps_once_it_is(isolated_dirs):
    """A section letter reaching the help before its viewer is mounted (the
    help key and the letter in one burst) waits for it, then jumps."""
    app = MomijiApp(isolated_dirs, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until_screen(pilot, MenuScreen)
        screen = HelpScreen()
        app.push_screen(screen)
        screen.action_jump("Keys")  # before compose: no viewer yet
        await until_screen(pilot, HelpScreen)
        await drain(pilot)
        assert app.is_running and app.screen is screen
        viewer = screen.query_one(MarkdownViewer)
        assert viewer.document.scroll_y > 0 or viewer.scroll_y > 0  # at the Keys section, not the top


async def test_a_help_letter_after_the_help_closed_does_nothing(isolated_dirs):
    app = MomijiApp(isolated_dirs, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until_screen(pilot, MenuScreen)
        screen = HelpScreen()
        await app.push_screen(screen)
        await drain(pilot)
        await app.pop_screen()
        await drain(pilot)
        screen.action_jump("Keys")  # its viewer is gone
        await drain(pilot)
        assert app.is_running and isinstance(app.screen, MenuScreen)


# -- ScreenStackError: Can't pop screen ---------------------------------------------------
async def test_keys_queued_at_the_live_score_close_it_once(isolated_dirs):
    """Any key closes the live score; the keys behind it in the same burst
    reach a closed screen and must not close the table and the menu too."""
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
    async with app.run_test(size=(80, 24)) as pilot:
        await sit(pilot, situation(hand="M0a C1b"))
        await pilot.press("equals_sign")
        await until_screen(pilot, LiveScoreScreen)
        burst(app, "x", "y", "z", "w")
        await drain(pilot)
        assert app.is_running and isinstance(app.screen, TableScreen)


async def test_choice_keys_queued_at_a_chooser_pick_once(isolated_dirs):
    picked: list[object] = []
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
    async with app.run_test(size=(80, 24)) as pilot:
        await sit(pilot, situation(hand="M0a C1b"))
        app.push_screen(ChoiceScreen("Which?", [Choice("a", "A", 1), Choice("b", "B", 2)]), picked.append)
        await until_screen(pilot, ChoiceScreen)
        burst(app, "a", "b", "a")
        await drain(pilot)
        assert app.is_running and isinstance(app.screen, TableScreen)
        assert picked == [1]


# -- NoMatches: No nodes match 'CommandList' (the palette's search worker) -------------
async def test_a_palette_closed_before_its_search_ran_ends_nothing(isolated_dirs):
    """ctrl+p and a screen change in one burst: the palette is removed before
    its first search ran (textual_fixes note 1)."""
    app = MomijiApp(isolated_dirs, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until_screen(pilot, MenuScreen)
        app.action_command_palette()
        app.pop_screen()
        await drain(pilot)
        assert app.is_running and isinstance(app.screen, MenuScreen)


async def test_page_keys_typed_with_ctrl_p_before_the_list_is_laid_out(isolated_dirs):
    """textual_fixes note 2: ctrl+p, a letter and a page key in one burst."""
    app = MomijiApp(isolated_dirs, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until_screen(pilot, MenuScreen)
        burst(app, "ctrl+p", "w", "pageup", "pagedown")
        await drain(pilot)
        assert app.is_running and isinstance(app.screen, CommandPalette)
