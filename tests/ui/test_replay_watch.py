"""``momiji replay --watch``: a saved game watched as a spectator
(ui/screens/replay.py): only what every seat saw (RULES §8), finished or
not; every hand only at the game's end, as the players saw it then."""

from __future__ import annotations

import re

from fit_helpers import long_game
from helpers import until_screen

from momiji_tui.engine import events as ev
from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.screens.replay import ReplayScreen


async def test_rules_8_a_finished_game_watched_shows_no_hand_before_its_end(isolated_dirs):
    path = long_game(isolated_dirs, seed=5)
    app = MomijiApp(isolated_dirs, replay_path=path, replay_watch=True, bot_delay=0)
    async with app.run_test(size=(100, 40)) as pilot:
        await until_screen(pilot, ReplayScreen)
        screen = app.screen
        assert isinstance(screen, ReplayScreen) and screen.seat is None
        replay = screen.replay
        assert replay is not None and replay.finished and not replay.open_hands
        for _ in range(30):
            await pilot.press("right")
        assert replay.position > 1
        assert all(s.hand is None for s in replay.view(screen.seat).seats)
        assert "watching: what every seat saw" in str(screen.query_one("#replay-title").render())
        dealt = [i for i, e in enumerate(replay.events, 1) if isinstance(e, ev.CardsDealt | ev.CardsDrawn)]
        at = replay.position
        for i in dealt:  # each deal and draw is told as a count, never card by card
            replay.seek(i)
            assert re.search(r"(was dealt|drew) \d+ cards?\.$", screen.event_line()), screen.event_line()
        replay.seek(at)
        await pilot.press("v")  # no other point of view
        assert screen.seat is None
        await pilot.press("end")
        assert all(s.hand is not None for s in replay.view(screen.seat).seats)  # the end: every hand shown


async def test_a_finished_game_replayed_without_watch_still_opens_every_hand(isolated_dirs):
    path = long_game(isolated_dirs, seed=5)
    app = MomijiApp(isolated_dirs, replay_path=path, bot_delay=0)
    async with app.run_test(size=(100, 40)) as pilot:
        await until_screen(pilot, ReplayScreen)
        replay = app.screen.replay
        assert replay is not None and replay.open_hands
        assert all(s.hand is not None for s in replay.view(app.screen.seat).seats)


def test_the_replay_command_takes_watch():
    from momiji_tui.cli import build_parser

    args = build_parser().parse_args(["replay", "20261203-000000-abcdef", "--watch"])
    assert args.watch is True
    assert build_parser().parse_args(["replay", "20261203-000000-abcdef"]).watch is False
