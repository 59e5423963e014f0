"""Each traceback random keys ended a session with, replayed on its own.

Keys come in bursts (one read of an SSH channel, a cat on the keyboard):
the keys of a burst are all queued before the first one's action runs, so
a key can reach a screen that is not mounted yet or was closed already.
"""

from __future__ import annotations

import pytest
from helpers import scripted_bot, sit, situation, until_screen
from textual import events
from textual.command import CommandPalette
from textual.widgets import MarkdownViewer

from momiji_tui.session.lobby import Lobby, Player
from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.lobby import LobbyApp
from momiji_tui.ui.models.choice import Choice
from momiji_tui.ui.screens.choice import ChoiceScreen
from momiji_tui.ui.screens.draft import DraftScreen
from momiji_tui.ui.screens.help import HelpScreen
from momiji_tui.ui.screens.lobby import LobbyScreen
from momiji_tui.ui.screens.menu import MenuScreen
from momiji_tui.ui.screens.scoring import ScoringScreen
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
    its first search ran (textual_fence defect 6)."""
    app = MomijiApp(isolated_dirs, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until_screen(pilot, MenuScreen)
        app.action_command_palette()
        app.pop_screen()
        await drain(pilot)
        assert app.is_running and isinstance(app.screen, MenuScreen)


async def test_page_keys_typed_with_ctrl_p_before_the_list_is_laid_out(isolated_dirs):
    """textual_fence defect 7: ctrl+p, a letter and a page key in one burst."""
    app = MomijiApp(isolated_dirs, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until_screen(pilot, MenuScreen)
        burst(app, "ctrl+p", "w", "pageup", "pagedown")
        await drain(pilot)
        assert app.is_running and isinstance(app.screen, CommandPalette)


# -- NoMatches: No nodes match 'LogPanel' on TableScreen() (and every other screen) ------
def _screen(cls, app, data, lobby):
    """A screen of class ``cls`` to open in ``app`` (the game at the table is ``app.table``)."""
    from fit_helpers import long_game

    from momiji_tui.ui.screens.replay import ReplayScreen
    from momiji_tui.ui.screens.review import ReviewScreen
    from momiji_tui.session.spectators import Watch
    from momiji_tui.ui.screens.waiting import WaitingScreen
    from momiji_tui.ui.screens.watch import WatchScreen

    if cls is ChoiceScreen:
        return ChoiceScreen("Which?", [Choice("a", "A", 1)])
    if cls is ReplayScreen:
        return ReplayScreen(long_game(data, commands=4))
    if cls is ReviewScreen:
        return ReviewScreen(app.table.events, 0, None)
    if cls is WaitingScreen:
        return WaitingScreen(lobby.create_table(app, ["human"], bot_level="easy", landscape_mode="starter",
                                                hints_allowed=False).table_id)
    if cls is LiveScoreScreen:
        return LiveScoreScreen(app.table.view(0))
    if cls is WatchScreen:
        return WatchScreen(Watch(app.table.game_id, app.table, tuple(s.name for s in app.table.seats)))
    return cls()


@pytest.mark.parametrize("cls", LobbyApp.SCREEN_CLASSES, ids=lambda c: c.__name__)
async def test_a_screen_closed_before_it_was_shown_ends_nothing(cls, tmp_path):
    """A game screen opened and closed in one burst (lobby news, a key):
    Textual still mounts a screen it is removing, after its children went
    (textual_fence defect 8); nothing may fail, whatever the screen."""
    lobby = Lobby(tmp_path, seat_wait=None)
    app = LobbyApp(lobby, Player("key-cat", "cat"), bot_delay=0, make_bot=scripted_bot)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until_screen(pilot, LobbyScreen)
            app.table = situation(hand="M0a C1b")
            app.push_screen(_screen(cls, app, tmp_path, lobby))
            app.pop_screen()
            await drain(pilot)
            assert app.is_running and isinstance(app.screen, LobbyScreen)
            app.table = None
    finally:
        lobby.close()


@pytest.mark.parametrize("cls", [TableScreen, DraftScreen, ScoringScreen], ids=lambda c: c.__name__)
async def test_a_game_screen_opened_as_the_app_exits_ends_nothing(cls, tmp_path):
    """A game starting under the keys behind a quit (or a dropped SSH
    client): Textual composes a screen opened as the app exits without its
    children; its ``on_mount`` must not query them."""
    lobby = Lobby(tmp_path, seat_wait=None)
    app = LobbyApp(lobby, Player("key-cat", "cat"), bot_delay=0, make_bot=scripted_bot)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until_screen(pilot, LobbyScreen)
            app.table = situation(hand="M0a C1b")
            app.exit()
            app.push_screen(cls())
            await drain(pilot)
        assert app.return_code == 0
    finally:
        lobby.close()

