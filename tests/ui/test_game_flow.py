"""Game flow by key presses only (Pilot + state assertions).

The human seat plays a whole game from the new-game screen through the
landscape draft to the end-scoring screen; another test quits mid-game and
resumes to the same state.
"""

from __future__ import annotations

import pytest

from helpers import scripted_bot, settle, until_human_or_end

from momiji_tui.engine import Collect, Play
from momiji_tui.engine.cards import CARD_TYPE
from momiji_tui.engine.rules_data import HAND_LIMIT
from momiji_tui.store import list_games
from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.models.new_game import NewGameOptions
from momiji_tui.ui.screens.draft import DraftScreen
from momiji_tui.ui.screens.menu import MenuScreen
from momiji_tui.ui.screens.new_game import NewGameScreen
from momiji_tui.ui.screens.scoring import ScoringScreen
from momiji_tui.ui.screens.table import HAND_KEYS, TableScreen, hand_order


async def take_turn_by_keys(pilot, app: MomijiApp) -> None:
    """One human turn, keys only: a play when one is legal, else a collect by
    the column's letter (revealing first when the display is empty), then end
    the turn, choosing the discards when the hand is over the limit."""
    seat = app.seat
    v = app.table.view(seat)
    legal = app.table.legal(seat)
    plays = [c for c in legal if isinstance(c, Play) and len(c.cards) == 1]
    collects = [c for c in legal if isinstance(c, Collect)]
    hand = hand_order(v.me.hand)
    if plays and hand.index(plays[0].cards[0]) < len(HAND_KEYS):
        await pilot.press(HAND_KEYS[hand.index(plays[0].cards[0])], "enter")
    elif collects:
        await pilot.press(collects[0].types[0], "enter")
    elif any(type(c).__name__ == "Reveal" for c in legal):
        await pilot.press("r")
        await pilot.pause()
        column = CARD_TYPE[app.table.view(seat).display[0]]
        await pilot.press(column, "enter")
    await pilot.pause()
    await pilot.press("e")
    v = app.table.view(seat)
    excess = len(v.me.hand) - HAND_LIMIT
    if excess > 0 and v.current == seat:
        await pilot.press(*HAND_KEYS[:excess], "enter")


@pytest.mark.slow
async def test_whole_game_by_keys_from_new_game_through_draft_to_scoring(isolated_dirs):
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        # The name field is focused; back past Start to the seed, then the landscapes.
        await pilot.press("shift+tab", "shift+tab")
        await pilot.press(*"4242")
        await pilot.press("shift+tab", "shift+tab")  # past memory mode and bot speed
        await pilot.press("shift+tab", "enter", "down", "enter")  # Landscapes: Draft
        await pilot.press("shift+tab", "enter", "up", "enter")  # Bots: Easy
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.table is not None
        assert app.table.state.landscape_mode == "draft"
        assert [s.level for s in app.table.seats] == [None, "easy"]
        picks = 0
        turns = 0
        for _ in range(600):
            await until_human_or_end(pilot)
            if isinstance(app.screen, ScoringScreen):
                break
            if isinstance(app.screen, DraftScreen):
                await pilot.press("1")
                picks += 1
            else:
                assert isinstance(app.screen, TableScreen)
                await take_turn_by_keys(pilot, app)
                turns += 1
            await pilot.pause()
        assert isinstance(app.screen, ScoringScreen), "the game did not reach the end-scoring screen"
        assert picks == 3
        assert app.table.finished
        assert turns == app.table.state.seats[0].turns
        sheet = app.table.score()
        assert sheet.winners
        # The save on disk holds the whole finished game.
        [saved] = list_games(isolated_dirs)
        assert saved.status == "finished"
        assert len(saved.events) == len(app.table.events)


async def test_quit_mid_game_and_resume_to_the_same_state(isolated_dirs):
    options = NewGameOptions(seats=3, bot_level="easy", seed=11)
    app = MomijiApp(isolated_dirs, new_game=options, bot_delay=0, make_bot=scripted_bot)
    async with app.run_test(size=(80, 24)) as pilot:
        await until_human_or_end(pilot)
        await take_turn_by_keys(pilot, app)
        await until_human_or_end(pilot)
        before = app.table.state.clone()
        n_events = len(app.table.events)
        assert n_events > 10
        await pilot.press("q")  # back to the menu: the game stays saved
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
    [saved] = list_games(isolated_dirs)
    assert saved.status == "in progress"
    again = MomijiApp(isolated_dirs, resume_path=saved.path, bot_delay=0, make_bot=scripted_bot)
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(again.screen, TableScreen)
        assert again.table.state == before
        assert len(again.table.events) == n_events
        # And the game goes on from there.
        await take_turn_by_keys(pilot, again)
        await until_human_or_end(pilot)
        assert len(again.table.events) > n_events


async def test_continue_from_the_menu_resumes_the_latest_game(isolated_dirs):
    app = MomijiApp(isolated_dirs, new_game=NewGameOptions(seats=2, bot_level="easy", seed=3), bot_delay=0,
                    make_bot=scripted_bot)
    async with app.run_test(size=(80, 24)) as pilot:
        await until_human_or_end(pilot)
        state = app.table.state.clone()
        await pilot.press("q")
        await pilot.pause()
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert app.table.state == state
