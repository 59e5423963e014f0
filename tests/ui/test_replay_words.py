"""The words of the log and of the replay, each defect reproduced first."""

from __future__ import annotations

import pytest
from helpers import ScriptedBot, plain, scripted_bot, sit, situation

from momiji_tui.engine import events as ev
from momiji_tui.engine.state import TurnState
from momiji_tui.session.table import BOT, HUMAN, SeatConfig, Table
from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.screens.replay import ReplayScreen
from momiji_tui.ui.widgets.log_panel import LogPanel


def finished_game(data_dir) -> tuple[str, list[ev.Event]]:
    """A saved, finished 2-seat game (You and the bot Kaede)."""
    table = Table.new([SeatConfig("You", HUMAN), SeatConfig("Kaede", BOT, "easy")], seed=4, data_dir=data_dir)
    step = 0
    while not table.finished:
        table.submit(ScriptedBot(step).choose(table.view(table.current)))
        step += 1
    table.close()
    return str(table.log.path), list(table.events)


@pytest.fixture
def saved(isolated_dirs):
    return finished_game(isolated_dirs)


def replay_app(data_dir, path) -> MomijiApp:
    return MomijiApp(data_dir, replay_path=path, bot_delay=0)


async def test_rules_8_replay_seen_from_another_seat_never_calls_its_moves_you(isolated_dirs, saved):
    """Defect 3: ``v`` on a finished game relabelled Kaede's moves as "You"."""
    path, events = saved
    kaede = next(i + 1 for i, e in enumerate(events) if isinstance(e, ev.CardsPlayed) and e.seat == 1)
    async with replay_app(isolated_dirs, path).run_test(size=(120, 45)) as pilot:
        await pilot.pause()
        screen = app_screen(pilot)
        await pilot.press("v")  # from You to Kaede
        assert screen.seat == 1
        screen.replay.seek(kaede)
        screen.refresh_replay()
        line = plain(screen.query_one("#replay-event"))
        assert line.startswith("▸ Kaede played"), line


async def test_rules_6_replay_end_shows_the_last_round_played_and_no_dead_r_key(isolated_dirs, saved):
    """Defect 9: the last event showed "Round 15" for a game ended in round
    14; the empty display offered "r reveals 4 cards", a key replay lacks."""
    path, events = saved
    last_turn = max(i for i, e in enumerate(events) if isinstance(e, ev.TurnEnded))
    async with replay_app(isolated_dirs, path).run_test(size=(120, 45)) as pilot:
        await pilot.pause()
        screen = app_screen(pilot)
        assert "r reveals" not in plain(screen.query_one("#replay-table"))  # the first screen
        played = screen.replay.state_at(last_turn).round  # the round of the last turn
        screen.replay.seek(last_turn + 1)
        screen.refresh_replay()
        assert plain(screen.query_one("#replay-table")).startswith(f"Round {played} "), played


def app_screen(pilot) -> ReplayScreen:
    screen = pilot.app.screen
    assert isinstance(screen, ReplayScreen)
    return screen


async def test_rules_1_5_waterfall_reveal_is_logged_as_free(isolated_dirs):
    """Defect 5: a Waterfall (free) reveal was logged as "(paid reveal)"."""
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
    async with app.run_test(size=(120, 40)) as pilot:
        await sit(pilot, situation(hand="M0a", display="O1b", acorns=0, turn=TurnState(landscape="waterfall")))
        await pilot.press("r")
        await pilot.pause()
        lines = [t.plain for t in app.screen.query_one(LogPanel).entries]
        revealed = [line for line in lines if line.startswith("Revealed")]
        assert revealed and "(free reveal, Waterfall)" in revealed[-1] and "paid" not in revealed[-1], lines
