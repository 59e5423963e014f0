"""The fuzz layer: seeded random keys on every screen of the app and of the
lobby, through Pilot. After each screen's keys the app still runs, no
traceback or error was logged, and every saved game's log folds under the
rules (the open one to the state on the table).

CI presses ``PRESSES`` keys per screen (``MOMIJI_FUZZ_PRESSES`` raises it
for a longer local run, ``MOMIJI_FUZZ_SEED`` picks other sequences).
"""

from __future__ import annotations

import asyncio
import os
import random
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
from fit_helpers import long_game
from fuzz_keys import FuzzApp, FuzzLobbyApp, check_games, no_error_logged, press_random_keys, settle_bots
from helpers import scripted_bot, until_human_or_end, until_screen

from momiji_tui.session.bound_names import NameSession, bind_key
from momiji_tui.session.lobby import Lobby, Player
from momiji_tui.store.names import FileNames
from momiji_tui.store.daily import FileDailyStore
from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.models.new_game import NewGameOptions
from momiji_tui.ui.screens.choice import ChoiceScreen
from momiji_tui.ui.screens.create_table import CreateTableScreen
from momiji_tui.ui.screens.draft import DraftScreen
from momiji_tui.ui.screens.daily_board import DailyBoardScreen
from momiji_tui.ui.screens.help import HelpScreen
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
from momiji_tui.ui.screens.table_score import LiveScoreScreen
from momiji_tui.ui.screens.waiting import WaitingScreen
from momiji_tui.ui.screens.watch import WatchScreen
from momiji_tui.ui.screens.watch_list import WatchListScreen

PRESSES = int(os.environ.get("MOMIJI_FUZZ_PRESSES", "150"))
"""Random keys pressed per screen."""
SEED = int(os.environ.get("MOMIJI_FUZZ_SEED", "38"))
BYTES = int(os.environ.get("MOMIJI_FUZZ_BYTES", "1500"))
"""Random bytes sent through the SSH driver into a lobby session."""

Setup = Callable[..., Awaitable[None]]


async def _menu(pilot, data: Path) -> None:
    long_game(data, commands=6)  # Continue and Saved games have a game to open
    await until_screen(pilot, MenuScreen)


async def _new_game(pilot, data: Path) -> None:
    pilot.app.push_screen(NewGameScreen())
    await until_screen(pilot, NewGameScreen)


async def _table(pilot, data: Path) -> None:
    pilot.app.start_game(NewGameOptions(seats=3, seed=7, bot_delay=0))
    await until_screen(pilot, TableScreen)
    await until_human_or_end(pilot)


async def _draft(pilot, data: Path) -> None:
    pilot.app.start_game(NewGameOptions(seats=2, seed=8, landscape_mode="draft", bot_delay=0))
    await until_screen(pilot, DraftScreen)


async def _chooser(pilot, data: Path) -> None:
    await _table(pilot, data)
    pilot.app.screen.action_landscape()
    await until_screen(pilot, ChoiceScreen)


async def _live_score(pilot, data: Path) -> None:
    await _table(pilot, data)
    await pilot.press("equals_sign")
    await until_screen(pilot, LiveScoreScreen)


async def _scoring(pilot, data: Path) -> None:
    pilot.app.resume_game(long_game(data, seed=5))
    await until_screen(pilot, ScoringScreen)


async def _saved(pilot, data: Path) -> None:
    long_game(data, commands=6)
    long_game(data, seed=6)
    pilot.app.push_screen(SavedGamesScreen())
    await until_screen(pilot, SavedGamesScreen)


async def _replay(pilot, data: Path) -> None:
    pilot.app.push_screen(ReplayScreen(long_game(data, seed=5)))
    await until_screen(pilot, ReplayScreen)


async def _help(pilot, data: Path) -> None:
    await _table(pilot, data)
    pilot.app.action_help()
    await until_screen(pilot, HelpScreen)


async def _rules(pilot, data: Path) -> None:
    from momiji_tui.ui.screens.rules import RulesScreen

    await _table(pilot, data)
    pilot.app.action_help("rules")
    await until_screen(pilot, RulesScreen)


async def _palette(pilot, data: Path) -> None:
    from textual.command import CommandPalette

    await _table(pilot, data)
    pilot.app.action_command_palette()
    await until_screen(pilot, CommandPalette)


APP_SCREENS: dict[str, Setup] = {
    "menu": _menu, "new game": _new_game, "draft": _draft, "table": _table, "chooser": _chooser,
    "live score": _live_score, "scoring": _scoring, "saved games": _saved, "replay": _replay,
    "help": _help, "rules": _rules, "palette": _palette,
}


@pytest.mark.parametrize("name", list(APP_SCREENS))
async def test_random_keys_on_each_screen_of_the_app(name, isolated_dirs, caplog):
    app = FuzzApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
    async with app.run_test(size=(80, 24)) as pilot:
        await APP_SCREENS[name](pilot, isolated_dirs)
        await press_random_keys(pilot, SEED * 100 + list(APP_SCREENS).index(name), PRESSES)
        await settle_bots(pilot)
        check_games(isolated_dirs, app)
        app.fuzzing = False
    no_error_logged(caplog)


async def _lobby(pilot, lobby: Lobby) -> None:
    await until_screen(pilot, LobbyScreen)


async def _my_games(pilot, lobby: Lobby) -> None:
    long_game(pilot.app.data_dir, commands=6)
    pilot.app.push_screen(MyGamesScreen())
    await until_screen(pilot, MyGamesScreen)


async def _create(pilot, lobby: Lobby) -> None:
    pilot.app.push_screen(CreateTableScreen())
    await until_screen(pilot, CreateTableScreen)


async def _join(pilot, lobby: Lobby) -> None:
    pilot.app.push_screen(JoinScreen())
    await until_screen(pilot, JoinScreen)


async def _waiting(pilot, lobby: Lobby) -> None:
    pending = lobby.create_table(pilot.app, ["human"], bot_level="easy", landscape_mode="starter",
                                 hints_allowed=False)
    pilot.app.push_screen(WaitingScreen(pending.table_id))
    await until_screen(pilot, WaitingScreen)


class _Player:
    """A player of another session (only queues what the lobby tells it)."""

    def __init__(self, account: str) -> None:
        self.player = Player(account, account.removeprefix("key-"))

    def lobby_event(self, event: object) -> None:
        pass


def _shared_game(lobby: Lobby) -> str:
    alice, bob = _Player("key-alice"), _Player("key-bob")
    lobby.enter(alice)
    lobby.enter(bob)
    lobby.join_table(bob, lobby.create_table(alice, ["human"]).table_id)
    return next(iter(lobby.live))


async def _watch_list(pilot, lobby: Lobby) -> None:
    _shared_game(lobby)
    pilot.app.push_screen(WatchListScreen())
    await until_screen(pilot, WatchListScreen)


async def _watch(pilot, lobby: Lobby) -> None:
    assert pilot.app.watch_game(_shared_game(lobby)) is None
    await until_screen(pilot, WatchScreen)


async def _names(pilot, lobby: Lobby) -> None:
    book = FileNames(lobby.data_dir / "names")
    fingerprint = "SHA256:" + "C" * 43
    pilot.app.names = NameSession(book, bind_key(book, "cat", fingerprint, "key-cat", datetime.now(UTC)), fingerprint)
    pilot.app.push_screen(NamesScreen())
    await until_screen(pilot, NamesScreen)


async def _daily_board(pilot, lobby: Lobby) -> None:
    lobby.daily = FileDailyStore(lobby.data_dir)
    pilot.app.push_screen(DailyBoardScreen())
    await until_screen(pilot, DailyBoardScreen)


LOBBY_SCREENS: dict[str, Setup] = {
    "lobby": _lobby, "my games": _my_games, "create table": _create, "join": _join, "waiting": _waiting,
    "names": _names, "daily board": _daily_board, "watch list": _watch_list, "watch": _watch,
}


@pytest.mark.parametrize("name", list(LOBBY_SCREENS))
async def test_random_keys_on_each_screen_of_the_lobby(name, tmp_path, caplog):
    lobby = Lobby(tmp_path / "served", seat_wait=None)
    app = FuzzLobbyApp(lobby, Player("key-cat", "cat"), bot_delay=0, make_bot=scripted_bot)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await LOBBY_SCREENS[name](pilot, lobby)
            await press_random_keys(pilot, SEED * 100 + 50 + list(LOBBY_SCREENS).index(name), PRESSES)
            await settle_bots(pilot)
            check_games(tmp_path, app)
            app.fuzzing = False
    finally:
        lobby.close()
    no_error_logged(caplog)


def test_every_screen_class_is_fuzzed():
    """A new screen is added here: each registered screen class is the
    start of one fuzz test, or reached from one (the review from the
    scoring sheet)."""
    from momiji_tui.ui.screens.review import ReviewScreen
    from momiji_tui.ui.screens.rules import RulesScreen

    started = {MenuScreen, NewGameScreen, DraftScreen, TableScreen, ChoiceScreen, LiveScoreScreen,
               ScoringScreen, SavedGamesScreen, ReplayScreen, HelpScreen, RulesScreen, LobbyScreen,
               MyGamesScreen, CreateTableScreen, JoinScreen, WaitingScreen, NamesScreen,
               DailyBoardScreen, WatchListScreen, WatchScreen}

    assert set(FuzzLobbyApp.SCREEN_CLASSES) - started == {ReviewScreen}
    assert MomijiApp.SCREEN_CLASSES == FuzzApp.SCREEN_CLASSES


# -- random bytes through the SSH driver's parser ----------------------------------------
class _Channel:
    """An SSH channel that keeps nothing it is sent (the ``ssh/driver.py`` Channel)."""

    def write(self, data: bytes) -> None:
        pass

    def is_closing(self) -> bool:
        return False

    def get_write_buffer_size(self) -> int:
        return 0


def _random_bytes(seed: int, count: int) -> bytes:
    return random.Random(seed).randbytes(count)


def test_random_bytes_through_the_channel_parser_become_events_only():
    """Any bytes a client sends are parsed into events, never an exception
    (the parser alone: 64 KB from each of 4 seeds, in reads of 1–64 bytes)."""
    from textual.message import Message

    from momiji_tui.ssh.driver import InputParser

    posted: list[object] = []
    for seed in range(4):
        parser = InputParser()
        data, rng = _random_bytes(SEED + seed, 1 << 16), random.Random(seed)
        start = 0
        while start < len(data):
            step = rng.randint(1, 64)
            posted.extend(parser.feed(data[start:start + step]))
            start += step
        posted.extend(parser.tick())
    assert posted and all(isinstance(m, Message) for m in posted)


async def test_random_bytes_through_the_ssh_driver_into_a_lobby_session(tmp_path, caplog):
    """An SSH session's app on the real ``ChannelDriver``: ``BYTES`` random
    bytes (any byte, quits counted, not done) arrive in reads of 1–32
    bytes; the app still runs, nothing failed, every save folds."""
    from momiji_tui.ssh import ChannelTerminal

    lobby = Lobby(tmp_path / "served", seat_wait=None)
    app = FuzzLobbyApp(lobby, Player("guest-cat", "cat"), bot_delay=0, make_bot=scripted_bot)
    terminal = ChannelTerminal(_Channel(), (80, 24))
    app.driver_class = terminal.driver_class()
    running = asyncio.ensure_future(app.run_async(size=(80, 24)))  # as the SSH session runs it
    try:
        await _until(lambda: any(isinstance(s, LobbyScreen) and s.is_mounted for s in app.screen_stack))
        data, rng = _random_bytes(SEED, BYTES), random.Random(SEED)
        start = 0
        while start < len(data):
            step = rng.randint(1, 32)
            terminal.feed(data[start:start + step])
            start += step
            await asyncio.sleep(0.002)  # the next read: the app handles what it has meanwhile
            assert app.is_running and app.return_code in (None, 0), f"stopped after byte {start} of seed {SEED}"
        await asyncio.sleep(0.2)  # past the escape delay: a held Esc is delivered
        for _ in range(500):  # the bots' turns played (bounded)
            table = app.table
            if table is None or table.finished or (table.bot_to_move() is None and app.thinking is None):
                break
            await asyncio.sleep(0.02)
        assert app.is_running and app.return_code in (None, 0)
        check_games(tmp_path, app)
        app.fuzzing = False
        terminal.feed(b"\x1b\x1b\x1b")  # out of any palette or form…
        await asyncio.sleep(0.3)
        terminal.feed(b"\x11")  # …and ctrl+q still ends the session: it kept answering keys
        await asyncio.wait_for(asyncio.shield(running), 30)
    finally:
        app.fuzzing = False
        app.exit()
        await asyncio.wait_for(running, 30)
        lobby.close()
    assert app.return_code in (None, 0)
    no_error_logged(caplog)


async def _until(predicate, rounds: int = 500) -> None:
    for _ in range(rounds):
        if predicate():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the app never showed the lobby")
