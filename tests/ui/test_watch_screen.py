"""The watch screen and the players' watchers line, by Pilot (session/spectators.py,
ui/screens/watch.py): a watcher sees the spectator's view (RULES §8), leaves
with Esc or q, never holds up a move; the players see who watches."""

from __future__ import annotations

import re

import pytest
from fit_helpers import screen_lines
from helpers import ScriptedBot, until_screen

from momiji_tui.engine import Collect
from momiji_tui.engine.narrate import cards_text
from momiji_tui.session.lobby import Lobby, Player, SeatNews
from momiji_tui.ui.lobby import LobbyApp
from momiji_tui.ui.models.new_game import NewGameOptions
from momiji_tui.ui.screens.draft import DraftScreen
from momiji_tui.ui.screens.lobby import LobbyScreen
from momiji_tui.ui.screens.table import TableScreen
from momiji_tui.ui.screens.watch import WatchScreen
from momiji_tui.ui.screens.watch_list import WatchListScreen
from momiji_tui.ui.widgets.log_panel import LogPanel
from momiji_tui.ui.widgets.table_regions import HandRegion, Opponents


class FakeMember:
    def __init__(self, account: str, name: str) -> None:
        self.player = Player(account, name)
        self.events: list = []

    def lobby_event(self, event) -> None:
        self.events.append(event)


def two_players(lobby: Lobby):
    alice, bob = FakeMember("key-alice", "alice"), FakeMember("key-bob", "bob")
    lobby.enter(alice)
    lobby.enter(bob)
    lobby.join_table(bob, lobby.create_table(alice, ["human"]).table_id)
    (live,) = lobby.live.values()
    return alice, bob, live.table


def one_move(table) -> None:
    """One whole turn of the seat to move: a collect first (the log then
    tells it), then the scripted bot's commands until the turn ends."""
    seat, turns = table.current, table.state.seats[table.current].turns
    table.submit(next(c for c in table.legal(seat) if isinstance(c, Collect)))
    bot = ScriptedBot(len(table.events))
    while table.current == seat and table.state.seats[seat].turns == turns and not table.finished:
        table.submit(bot.choose(table.view(seat)))


def watching_shown(app) -> list[str]:
    """The "Watching: …" words on the screen's rows as drawn."""
    return [m.strip(" ─") for line in screen_lines(app) for m in re.findall(r"Watching: [^─]*", line)]


def screen_text(screen: WatchScreen) -> str:
    return "\n".join(str(row.content) for row in screen.query_one(Opponents).rows)


@pytest.fixture
def lobby(tmp_path):
    lobby = Lobby(tmp_path / "served", seat_wait=None, deal_seed=lambda: 37)
    yield lobby
    lobby.close()


async def test_watch_from_the_lobby_see_moves_and_leave_with_escape(lobby):
    alice, bob, table = two_players(lobby)
    app = LobbyApp(lobby, Player("key-cat", "cat"), bot_delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await until_screen(pilot, LobbyScreen)
        await pilot.press("w")
        await until_screen(pilot, WatchListScreen)
        await pilot.press("enter")
        await until_screen(pilot, WatchScreen)
        screen = app.screen
        assert isinstance(screen, WatchScreen) and not screen.query(HandRegion)
        assert [SeatNews(table, "cat is watching.")] == [e for e in alice.events if isinstance(e, SeatNews)]
        hands = [cards_text(s.hand) for s in table.state.seats]
        assert "alice" in screen_text(screen) and "bob" in screen_text(screen)
        drawn = screen.views
        one_move(table)
        await pilot.pause()
        assert screen.views > drawn  # the move reached the watcher
        log = "\n".join(line.plain for line in screen.query_one(LogPanel).entries)
        assert "collected" in log and not any(hand in log for hand in hands if hand)
        await pilot.press("escape")
        await until_screen(pilot, WatchListScreen)
        assert lobby.watchers_of(table.game_id) == ()
        assert SeatNews(table, "cat stopped watching.") in bob.events
        assert len(table._listeners) == 1  # the watch screen stopped listening


async def test_q_leaves_too_and_the_watch_ends_when_everyone_leaves(lobby):
    alice, bob, table = two_players(lobby)
    app = LobbyApp(lobby, Player("key-cat", "cat"), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until_screen(pilot, LobbyScreen)
        assert app.watch_game(table.game_id) is None
        await until_screen(pilot, WatchScreen)
        await pilot.press("q")
        await until_screen(pilot, LobbyScreen)
        assert lobby.watchers_of(table.game_id) == ()
        assert app.watch_game(table.game_id) is None
        await until_screen(pilot, WatchScreen)
        lobby.exit(alice)
        lobby.exit(bob)
        await until_screen(pilot, LobbyScreen)
        assert app.watching is None


async def test_a_watcher_never_holds_up_a_move(lobby):
    """Moves are made while the watcher's app handles nothing (no await):
    each is accepted at once; the watcher catches up from its own queue."""
    _alice, _bob, table = two_players(lobby)
    app = LobbyApp(lobby, Player("key-cat", "cat"), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until_screen(pilot, LobbyScreen)
        app.watch_game(table.game_id)
        await until_screen(pilot, WatchScreen)
        before = len(table.events)
        for _ in range(6):
            one_move(table)
        assert len(table.events) >= before + 12  # every move accepted, none waited
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, WatchScreen)
        assert screen.query_one(Opponents).rows[0].data.seat == table.view(None).seats[0]


async def test_the_players_table_says_who_watches(lobby):
    bob = FakeMember("key-bob", "bob")
    lobby.enter(bob)
    app = LobbyApp(lobby, Player("key-alice", "alice"), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until_screen(pilot, LobbyScreen)
        lobby.join_table(bob, lobby.create_table(app, ["human"]).table_id)
        await until_screen(pilot, TableScreen)
        rows = app.screen.query_one(Opponents)
        assert rows.border_title is None and not watching_shown(app)  # nobody watches
        carol = FakeMember("key-carol", "carol")
        lobby.enter(carol)
        lobby.watch(carol, app.table.game_id)
        await pilot.pause()
        assert watching_shown(app) == ["Watching: carol"]  # on the line above the other seats' rows
        lobby.exit(carol)  # a watcher who vanishes
        await pilot.pause()
        assert rows.border_title is None and not watching_shown(app)


async def test_a_solo_game_is_offered_for_watching_only_when_allowed(lobby):
    app = LobbyApp(lobby, Player("key-alice", "alice"), bot_delay=0)
    carol = FakeMember("key-carol", "carol")
    lobby.enter(carol)
    async with app.run_test(size=(80, 24)) as pilot:
        await until_screen(pilot, LobbyScreen)
        app.start_game(NewGameOptions(name="alice", seats=2, seed=5, bot_delay=0))
        await until_screen(pilot, TableScreen)
        assert lobby.watchable() == []  # off by default
        app.close_table()
        app.pop_screen()
        app.start_game(NewGameOptions(name="alice", seats=2, seed=5, bot_delay=0, watchable=True))
        await until_screen(pilot, TableScreen)
        [info] = lobby.watchable()
        lobby.watch(carol, info.game_id)
        await pilot.pause()
        assert watching_shown(app) == ["Watching: carol"]


async def test_the_new_game_form_over_ssh_has_the_watchers_option_off(lobby):
    from textual.widgets import Select

    from momiji_tui.ui.screens.new_game import NewGameScreen

    app = LobbyApp(lobby, Player("key-alice", "alice"), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until_screen(pilot, LobbyScreen)
        await pilot.press("n")
        await until_screen(pilot, NewGameScreen)
        field = app.screen.query_one("#watchable", Select)
        assert field.value is False and app.screen.options().watchable is False
        field.value = True
        assert app.screen.options().watchable is True


async def test_a_watch_screen_closed_another_way_ends_the_watch(lobby):
    """The palette can open a game over the watch screen: the watch ends
    with the screen, and the players no longer see the name."""
    alice, _bob, table = two_players(lobby)
    app = LobbyApp(lobby, Player("key-cat", "cat"), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until_screen(pilot, LobbyScreen)
        app.watch_game(table.game_id)
        await until_screen(pilot, WatchScreen)
        assert lobby.watchers_of(table.game_id) == ("cat",)
        app.start_game(NewGameOptions(name="cat", seats=2, seed=5, bot_delay=0))
        await until_screen(pilot, TableScreen)
        assert lobby.watchers_of(table.game_id) == () and app.watching is None
        assert SeatNews(table, "cat stopped watching.") in alice.events


async def test_a_tiny_terminal_shows_the_size_notice_and_q_still_leaves(lobby):
    _alice, _bob, table = two_players(lobby)
    app = LobbyApp(lobby, Player("key-cat", "cat"), bot_delay=0)
    async with app.run_test(size=(50, 16)) as pilot:
        await pilot.pause()
        app.watch_game(table.game_id)
        await until_screen(pilot, WatchScreen)
        assert app.screen.too_small
        await pilot.press("q")
        await until_screen(pilot, LobbyScreen)
        assert lobby.watchers_of(table.game_id) == ()


async def test_watching_a_game_in_play_is_not_idling(lobby):
    """The idle timeout spares a watcher as it spares a player waiting for
    others (``waiting_with_others``), until the game is over."""
    _alice, _bob, table = two_players(lobby)
    app = LobbyApp(lobby, Player("key-cat", "cat"), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until_screen(pilot, LobbyScreen)
        assert not app.waiting_with_others()
        app.watch_game(table.game_id)
        await until_screen(pilot, WatchScreen)
        assert app.waiting_with_others()
        await pilot.press("escape")
        await pilot.pause()
        assert not app.waiting_with_others()


async def test_the_new_game_form_has_no_watchers_field_when_watching_is_off(tmp_path):
    from momiji_tui.ui.screens.new_game import NewGameScreen

    lobby = Lobby(tmp_path / "served", seat_wait=None, spectators=False)
    app = LobbyApp(lobby, Player("key-alice", "alice"), bot_delay=0)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until_screen(pilot, LobbyScreen)
            await pilot.press("n")
            await until_screen(pilot, NewGameScreen)
            assert not app.screen.query("#watchable") and app.screen.options().watchable is False
    finally:
        lobby.close()


async def test_a_seat_named_with_markup_brackets_is_shown_as_typed_in_the_watch_list(lobby):
    """The name a player types on the new-game form is text: ``[/]`` in it
    never ends another player's session, and ``[draft]`` is shown."""
    mallory = LobbyApp(lobby, Player("key-mallory", "mallory"), bot_delay=0)
    app = LobbyApp(lobby, Player("key-cat", "cat"), bot_delay=0)
    async with mallory.run_test(size=(100, 30)) as m_pilot, app.run_test(size=(100, 30)) as pilot:
        await until_screen(m_pilot, LobbyScreen)
        mallory.start_game(NewGameOptions(name="[/]mal[b", seats=2, seed=5, bot_delay=0, watchable=True,
                                          landscape_mode="draft"))
        await until_screen(m_pilot, DraftScreen)
        await until_screen(pilot, LobbyScreen)
        await pilot.press("w")
        await until_screen(pilot, WatchListScreen)
        await pilot.pause()
        menu = app.screen.query_one("#watchlist-list")
        assert app.return_code is None
        prompt = menu.get_option_at_index(0).prompt
        assert "[/]mal[b" in str(prompt) and "[draft]" in getattr(prompt, "plain", str(prompt))


async def test_my_games_shows_a_solo_seat_named_with_markup_brackets_as_typed(lobby):
    """A name typed with brackets never ends the session that lists its games (r)."""
    from momiji_tui.ui.screens.my_games import MyGamesScreen

    app = LobbyApp(lobby, Player("key-bob", "bob"), bot_delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await until_screen(pilot, LobbyScreen)
        app.start_game(NewGameOptions(name="[/]bob[b", seats=2, seed=5, bot_delay=0))
        await until_screen(pilot, TableScreen)
        app.close_table()
        app.pop_screen()
        await until_screen(pilot, LobbyScreen)
        await pilot.press("r")
        await until_screen(pilot, MyGamesScreen)
        await pilot.pause()
        prompt = app.screen.query_one("#mygames-list").get_option_at_index(0).prompt
        assert app.return_code is None and "[/]bob[b" in str(prompt)


async def test_the_join_list_shows_each_tables_landscapes(lobby):
    """``[starter]`` in a table's line is text, not a markup tag swallowed."""
    from momiji_tui.ui.screens.join import JoinScreen

    alice = FakeMember("key-alice", "alice")
    lobby.enter(alice)
    lobby.create_table(alice, ["human"])
    app = LobbyApp(lobby, Player("key-cat", "cat"), bot_delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await until_screen(pilot, LobbyScreen)
        await pilot.press("j")
        await until_screen(pilot, JoinScreen)
        await pilot.pause()
        assert any("alice · (open seat)  [starter]" in line for line in screen_lines(app))  # as drawn
