"""The move log keeps the whole game, whole words, and stays at the latest
moves; each defect found reproduced first."""

from __future__ import annotations

import pytest
from textual.app import App
from helpers import ScriptedBot, scripted_bot, until_human_or_end, until_screen

from momiji_tui import engine
from momiji_tui.engine import events as ev
from momiji_tui.session.table import BOT, HUMAN, SeatConfig, Table
from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.models.log_lines import LogBook
from momiji_tui.ui.models.new_game import NewGameOptions
from momiji_tui.ui.screens.table import TableScreen
from momiji_tui.ui.widgets.log_panel import LogPanel


def log_text(log: LogPanel) -> list[str]:
    """The log's lines as drawn (what the player reads)."""
    return [strip.text.rstrip() for strip in log.lines]


@pytest.mark.parametrize("size", [(200, 60), (80, 24)])
async def test_log_keeps_every_word_at_its_right_edge(isolated_dirs, size):
    """Defect 1: "Oak," vanished at 200×60; at 80×24 a letter hid under the scrollbar."""
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot,
                    new_game=NewGameOptions(seats=3, seed=7))
    async with app.run_test(size=size) as pilot:
        await until_screen(pilot, TableScreen)
        await until_human_or_end(pilot)
        log = app.screen.query_one(LogPanel)
        lines = log_text(log)
        words = " ".join(lines).split()
        first = app.table.events[0]
        assert "Oak," in words or "Oak." in words, lines[:4]
        for name in first.seat_names:
            assert any(name.strip(",.") in w for w in words)
        room = log.scrollable_content_region.width
        assert all(len(line) <= room for line in lines), (room, max(map(len, lines)))
        assert max(strip.cell_length for strip in log.lines) <= room  # nothing under the scrollbar


async def test_log_stays_at_the_latest_moves_after_a_resize(isolated_dirs):
    """Defect 2: after a resize the log jumped back to its top."""
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot,
                    new_game=NewGameOptions(seats=4, seed=7))
    async with app.run_test(size=(80, 24)) as pilot:
        await until_screen(pilot, TableScreen)
        await until_human_or_end(pilot)
        log = app.screen.query_one(LogPanel)
        assert log.max_scroll_y > 0 and log.is_vertical_scroll_end, (log.scroll_y, log.max_scroll_y)
        for size in [(120, 40), (200, 60), (80, 24)]:
            await pilot.resize_terminal(*size)
            await pilot.pause()
            assert log.max_scroll_y == 0 or log.is_vertical_scroll_end, (size, log.scroll_y, log.max_scroll_y)


def finished_events(seats: int = 3, seed: int = 4) -> list[ev.Event]:
    """A whole bot-played game's events (no save file)."""
    configs = [SeatConfig("You", HUMAN), *[SeatConfig(n, BOT, "easy") for n in ("Kaede", "Ginnan")][:seats - 1]]
    table = Table.new(configs, seed=seed, data_dir=None)
    step = 0
    while not table.finished:
        table.submit(ScriptedBot(step).choose(table.view(table.current)))
        step += 1
    return list(table.events)


def test_rules_3_log_groups_the_whole_game_by_turn_under_round_and_seat_headings():
    events = finished_events()
    names = ["You", "Kaede", "Ginnan"]
    lines = [t.plain for t in LogBook(0, names).feed(events)]
    headings = [line for line in lines if line.startswith("── Round")]
    turns = [e for e in events if isinstance(e, ev.TurnEnded)]
    assert len(headings) == len(turns)  # one per turn played, none after the last
    state = engine.fold(events[:1])
    expected = []
    for e in events[1:]:
        engine.apply_in_place(state, e)
        if isinstance(e, ev.PlayStarted | ev.TurnEnded):
            who = "You" if state.current == 0 else names[state.current]
            expected.append(f"── Round {state.round} · {who} ──")
    assert headings == expected[:len(headings)] and len(expected) >= len(headings)
    assert lines[-1] == "The game is over." and lines[0].startswith("New game for")



class OneLog(App[None]):
    """A log panel alone, as narrow as a log at 80×24 can get."""

    CSS = "LogPanel { width: 40; height: 4; padding: 0 1; scrollbar-size-vertical: 1; }"

    def compose(self):
        yield LogPanel()


async def test_log_line_never_runs_under_the_scrollbar():
    """Defect 1 at 80×24: lines were drawn at least 78 cells wide (RichLog's
    min_width), so in a 77-cell log the last letter hid under the scrollbar."""
    app = OneLog()
    async with app.run_test(size=(60, 10)) as pilot:
        log = app.query_one(LogPanel)
        await pilot.pause()
        full = log.scrollable_content_region.width  # no scrollbar yet
        name = "N" * (full + 1 - len(" was dealt 6 cards."))  # each line one cell wider than the log
        log.write_events([ev.CardsDealt(0, tuple(range(6)))] * 8, None, [name])
        await pilot.pause()
        assert log.show_vertical_scrollbar
        room = log.scrollable_content_region.width
        visible = "".join(strip.text[:room] for strip in log.lines)
        assert visible.count(".") == 8 and visible.count("N") == 8 * len(name), visible  # every letter seen
