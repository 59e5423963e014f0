"""No line is cut at 80×24 with 4 seats and the longest names allowed: the
menu, new game, saved games, draft, choice panels, score sheet, replay and
lobby screens (the table and help are tested by part A).

A screen is cut when a widget reaches past the right edge or scrolls
sideways (``cut_widgets``), or when a name or score it shows is not on
screen whole (``cut_words``: text may wrap between words)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from fit_helpers import LONG_SEATS, cut_widgets, cut_words, long_game
from helpers import scripted_bot, settle, until_screen

from momiji_tui.session.bound_names import NameSession, bind_key
from momiji_tui.session.lobby import Lobby, Player
from momiji_tui.store.names import FileNames
from momiji_tui.session.saves import describe_saved_games
from momiji_tui.session.table import Table
from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.lobby import LobbyApp
from momiji_tui.ui.screens.choice import ChoiceScreen
from momiji_tui.ui.screens.create_table import CreateTableScreen
from momiji_tui.ui.screens.draft import DraftScreen
from momiji_tui.ui.screens.join import JoinScreen
from momiji_tui.ui.screens.lobby import LobbyScreen
from momiji_tui.ui.screens.menu import MenuScreen
from momiji_tui.ui.screens.my_games import MyGamesScreen
from momiji_tui.ui.screens.names import NamesScreen
from momiji_tui.ui.screens.new_game import NewGameScreen
from momiji_tui.ui.screens.replay import ReplayScreen
from momiji_tui.ui.screens.saved import SavedGamesScreen
from momiji_tui.ui.screens.scoring import ScoringScreen
from momiji_tui.ui.screens.table import TableScreen
from momiji_tui.ui.screens.waiting import WaitingScreen

SIZE = (80, 24)
NOW = datetime(2026, 12, 3, 16, 0, tzinfo=UTC)
#: A lobby name as shown: the longest name, the key's four characters.
LONG_PLAYER = Player("acct-fit", "Wwwwwwwwwwwwwwww", key_hint="Ab3x")


def assert_fits(app, texts=()) -> None:
    assert cut_widgets(app) == [], type(app.screen).__name__
    assert cut_words(app, texts) == [], type(app.screen).__name__


async def test_menu_fits(isolated_dirs):
    long_game(isolated_dirs, commands=4)
    app = MomijiApp(isolated_dirs, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await until_screen(pilot, MenuScreen)
        assert_fits(app, [describe_saved_games(isolated_dirs)[0].game_id, "Continue"])


async def test_new_game_form_with_4_seats_fits(isolated_dirs):
    app = MomijiApp(isolated_dirs, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        await until_screen(pilot, NewGameScreen)
        app.screen.show_bot_fields(4)
        await pilot.pause()
        assert_fits(app, ["Kaede (bot)", "Ginnan (bot)", "Sakura (bot)", "Memory mode", "Start"])


async def test_saved_games_fit(isolated_dirs):
    long_game(isolated_dirs)
    row = describe_saved_games(isolated_dirs)[0]
    app = MomijiApp(isolated_dirs, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        await until_screen(pilot, SavedGamesScreen)
        assert_fits(app, [row.game_id, row.scores, row.status, row.seats])


async def test_draft_with_4_long_names_fits(isolated_dirs):
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
    async with app.run_test(size=SIZE) as pilot:
        app.open_table(Table.new(list(LONG_SEATS), seed=3, landscape_mode="draft", data_dir=isolated_dirs), 0)
        await until_screen(pilot, DraftScreen)
        await settle(pilot)
        assert_fits(app)


@pytest.mark.parametrize("key", ["a", "o"])
async def test_choice_panels_fit(isolated_dirs, key):
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
    async with app.run_test(size=SIZE) as pilot:
        app.resume_game(long_game(isolated_dirs, commands=40))
        await until_screen(pilot, TableScreen)
        table = app.table
        assert table is not None
        table.state.seats[0].acorns = 9  # enough to open either chooser
        await pilot.press(key)
        await until_screen(pilot, ChoiceScreen)
        assert_fits(app)


async def test_score_sheet_fits(isolated_dirs):
    app = MomijiApp(isolated_dirs, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        app.resume_game(long_game(isolated_dirs))
        await until_screen(pilot, ScoringScreen)
        assert app.table is not None
        assert_fits(app, [str(s.total) for s in app.table.score().seats])


async def test_replay_of_a_finished_game_fits(isolated_dirs):
    app = MomijiApp(isolated_dirs, bot_delay=0, replay_path=long_game(isolated_dirs))
    async with app.run_test(size=SIZE) as pilot:
        await until_screen(pilot, ReplayScreen)
        await pilot.press("end")
        await pilot.pause()
        assert_fits(app)


@pytest.mark.parametrize("screen", [LobbyScreen, CreateTableScreen, MyGamesScreen])
async def test_lobby_screens_fit(isolated_dirs, screen):
    lobby = Lobby(isolated_dirs)
    long_game(lobby.player_dir(LONG_PLAYER), commands=4)
    app = LobbyApp(lobby, LONG_PLAYER, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await until_screen(pilot, LobbyScreen)
        if screen is not LobbyScreen:
            app.push_screen(screen())
            await until_screen(pilot, screen)
        assert_fits(app)


@pytest.mark.parametrize("asked", ["Wwwwwwwwwwwwwwww", "Mmmmmmmmmmmmmmmm"])
async def test_names_screen_and_the_taken_name_line_fit(isolated_dirs, asked):
    """Your name and keys, with a code shown, for the owner of the longest
    name and for another key that asked for it (then the lobby's welcome
    starts with the line saying which name it got)."""
    book = FileNames(isolated_dirs / "names")
    owner = "SHA256:" + "A" * 43
    bind_key(book, "Wwwwwwwwwwwwwwww", owner, "key-" + "a" * 32, NOW)
    fingerprint = owner if asked.startswith("W") else "SHA256:" + "B" * 43
    bound = bind_key(book, "Wwwwwwwwwwwwwwww", fingerprint, "key-" + "b" * 32, NOW)
    player = Player(bound.account_id, bound.name, key_hint=fingerprint[:19] + "…", bound=True)
    app = LobbyApp(Lobby(isolated_dirs), player, bot_delay=0, names=NameSession(book, bound, fingerprint))
    async with app.run_test(size=SIZE) as pilot:
        await until_screen(pilot, LobbyScreen)
        assert_fits(app, [bound.name, "Your name and keys"])
        assert ("belongs to another key" in str(app.screen.query_one("#lobby-who").render())) == bound.taken
        await pilot.press("k")
        await until_screen(pilot, NamesScreen)
        await pilot.press("enter")
        await pilot.pause()
        code = str(app.screen.query_one("#names-message").render()).split()[2]
        assert_fits(app, [bound.name, code])


class _Member:
    """Another player in the lobby (no app), with the longest name allowed."""

    def __init__(self, account: str, name: str) -> None:
        self.player = Player(account, name)

    def lobby_event(self, event) -> None:
        pass


async def test_join_and_waiting_screens_fit(isolated_dirs):
    """The two lobby screens the fit test above leaves out: the list of open
    tables (another long-named player's, hints allowed: the longest line)
    and waiting at your own 4-seat table."""
    lobby = Lobby(isolated_dirs)
    other = _Member("acct-other", "Vvvvvvvvvvvvvvvv")
    lobby.enter(other)
    lobby.create_table(other, ["human", "bot", "human"], bot_level="normal", landscape_mode="draft",
                       hints_allowed=True)
    app = LobbyApp(lobby, LONG_PLAYER, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await until_screen(pilot, LobbyScreen)
        app.push_screen(JoinScreen())
        await until_screen(pilot, JoinScreen)
        await settle(pilot)
        assert_fits(app, ["Vvvvvvvvvvvvvvvv"])
        pending = lobby.create_table(app, ["human", "human", "bot"], landscape_mode="draft", hints_allowed=True)
        app.push_screen(WaitingScreen(pending.table_id))
        await until_screen(pilot, WaitingScreen)
        await settle(pilot)
        assert_fits(app, [LONG_PLAYER.name])
