"""Broadcasts are Signals: the app publishes every change of the
open game on ``table_changed`` (new events; [] to redraw) and memory mode on
``memory_changed``; every screen that shows the game subscribes, the ones
under another screen too, instead of the app calling a method it looks up
by name on the top screen only."""

from __future__ import annotations

from helpers import scripted_bot, settle, sit, situation, until_human_or_end, until_screen

from momiji_tui.engine import Collect, EndTurn
from momiji_tui.engine import events as ev
from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.widgets.log_panel import LogPanel
from momiji_tui.ui.screens.help import HelpScreen
from momiji_tui.ui.screens.table import TableScreen


async def test_rules_8_memory_mode_publishes_memory_changed_then_a_redraw(isolated_dirs):
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, situation(hand="M1a C0b", display="O1b"))
        seen: list[tuple[str, object]] = []
        app.memory_changed.subscribe(screen, lambda memory: seen.append(("memory", memory)), immediate=True)
        app.table_changed.subscribe(screen, lambda events: seen.append(("table", list(events))), immediate=True)
        app.action_toggle_memory()
        app.action_toggle_memory()
        assert seen == [("memory", True), ("table", []), ("memory", False), ("table", [])]


async def test_rules_4_1_moves_publish_their_events_and_a_bot_starting_to_think_a_redraw(isolated_dirs):
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, situation(hand="M1a C0b", display="O1b"))
        seen: list[list[ev.Event]] = []
        app.table_changed.subscribe(screen, lambda events: seen.append(list(events)), immediate=True)
        assert app.submit(Collect(0, ("O",))) is None
        await settle(pilot)
        assert len(seen) == 1 and any(isinstance(e, ev.ColumnCollected) for e in seen[0])
        assert app.submit(EndTurn(0)) is None
        await until_human_or_end(pilot)
        assert any(isinstance(e, ev.TurnEnded) and e.seat == 0 for e in seen[1])
        assert seen[2] == []  # Bot 1 begins to think: redraw ("Bot 1 is thinking…")
        assert any(isinstance(e, ev.TurnEnded) and e.seat == 1 for batch in seen[3:] for e in batch)


async def test_a_table_screen_under_the_help_hears_the_moves_made_meanwhile(isolated_dirs):
    """Before: only the top screen was told, so the table under the help
    missed the move in its log (and showed the old table after Esc)."""
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
    async with app.run_test(size=(80, 24)) as pilot:
        table_screen = await sit(pilot, situation(hand="M1a C0b", display="O1b"))
        assert isinstance(table_screen, TableScreen)
        log = table_screen.query_one(LogPanel)
        before = len(log.lines)
        await pilot.press("question_mark")
        await until_screen(pilot, HelpScreen)
        assert app.submit(Collect(0, ("O",))) is None  # e.g. from another player at a shared table
        await settle(pilot)
        await pilot.press("escape")
        await until_screen(pilot, TableScreen)
        await settle(pilot)
        assert len(log.lines) > before
        assert "You collected the Oak column" in " ".join(line.text for line in log.lines[before:])
