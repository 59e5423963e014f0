"""The post-game review screen: opened from the score sheet, shows
the turns when the worker is done, Esc goes back (and cancels a review that
still runs, caching nothing). Hard is replaced by a counting stand-in."""

from __future__ import annotations

import threading

import pytest
from helpers import ScriptedBot, plain, scripted_bot, until_screen

from momiji_tui.bots.advice import Advice, Choice
from momiji_tui.engine import EndTurn
from momiji_tui.session.table import BOT, HUMAN, SeatConfig, Table
from momiji_tui.store.review_cache import review_cache_path
from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.screens.review import ReviewScreen
from momiji_tui.ui.screens.scoring import ScoringScreen


def finished_game(data_dir, seed: int = 4) -> str:
    """A finished 2-seat game saved in ``data_dir``; returns its path."""
    seats = [SeatConfig("You", HUMAN), SeatConfig("Kaede", BOT, "easy")]
    table = Table.new(seats, seed=seed, data_dir=data_dir)
    step = 0
    while not table.finished:
        table.submit(ScriptedBot(step).choose(table.view(table.current)))
        step += 1
    table.close()
    return str(table.log.path)


class Advisor:
    """Hard's stand-in: ends the turn at 60%, the seat's own move a little
    worse (by the seat's hand size: the game id, hence the seed, differs from
    run to run); counts calls. With ``hold``, each call waits (bounded)
    until the review is told to stop."""

    def __init__(self, hold: bool = False) -> None:
        self.calls = 0
        self.hold = hold
        self.started = threading.Event()

    def __call__(self, view, *, seed, iterations, include=(), should_stop=None) -> Advice:
        self.calls += 1
        self.started.set()
        if self.hold:
            for _ in range(500):  # at most ~5 s
                if should_stop is not None and should_stop():
                    break
                threading.Event().wait(0.01)
        return Advice((Choice(EndTurn(view.seat), 0.6, iterations),
                       *(Choice(c, 0.6 - view.seats[view.seat].hand_size % 5 / 20, 1) for c in include)))


@pytest.fixture
def advisor(monkeypatch) -> Advisor:
    stand_in = Advisor()
    monkeypatch.setattr(ReviewScreen, "advisor", stand_in)
    monkeypatch.setattr(ReviewScreen, "iterations", 100)  # only a figure: the stand-in does not search
    return stand_in


async def open_review(pilot) -> ReviewScreen:
    await until_screen(pilot, ScoringScreen)
    await pilot.press("v")
    await until_screen(pilot, ReviewScreen)
    screen = pilot.app.screen
    assert isinstance(screen, ReviewScreen)
    return screen


async def test_review_from_the_score_sheet_lists_turns_and_esc_goes_back(isolated_dirs, monkeypatch):
    """Through the app's ``advise`` (over SSH: the bot pool's)."""
    advisor = Advisor()
    monkeypatch.setattr(ReviewScreen, "iterations", 100)
    path = finished_game(isolated_dirs)
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot, resume_path=path, advise=advisor)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_review(pilot)
        await app.workers.wait_for_complete()
        await pilot.pause()
        body = plain(screen.query_one("#review-body"))
        assert screen.outcome is not None and screen.outcome.cached
        assert "Costliest turns" in body and "Turn 1" in body and "Win chance by turn: " in body
        assert advisor.calls == len(screen.outcome.review.decisions) > 5
        await pilot.resize_terminal(20, 6)  # a tiny terminal: the size notice, no crash
        await pilot.pause()
        assert screen.too_small
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not screen.too_small
        await pilot.press("escape")
        await until_screen(pilot, ScoringScreen)
        calls = advisor.calls
        screen = await open_review(pilot)  # a second look: from the cache, no search
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert advisor.calls == calls and screen.outcome is not None and screen.outcome.from_cache


async def test_esc_cancels_a_running_review_and_caches_nothing(isolated_dirs, monkeypatch):
    held = Advisor(hold=True)
    monkeypatch.setattr(ReviewScreen, "advisor", held)
    path = finished_game(isolated_dirs)
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot, resume_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_review(pilot)
        assert held.started.wait(5)
        await pilot.press("escape")
        await until_screen(pilot, ScoringScreen)
        await app.workers.wait_for_complete()
        assert held.calls == 1 and screen.outcome is None
    assert not review_cache_path(path).exists()


def test_snapshot_review(snap_compare, isolated_dirs, advisor):
    path = finished_game(isolated_dirs)
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot, resume_path=path)

    async def run_before(pilot):
        await open_review(pilot)
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
