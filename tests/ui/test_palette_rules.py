"""The palette's landscape entries say what a landscape costs in the game
at the table: its own rules version (RULES §1.5, §4.5; docs/RULES.md "Rules
versions": an older rules version is played under its own rules)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from momiji_tui.session.table import Table
from momiji_tui.ui.commands import game_commands

OLD_SAVE = Path(__file__).parents[1] / "bots" / "fixtures" / "rules-2026.11-1.jsonl"


def _landscape_notes(table: Table | None) -> dict[str, str]:
    said: list[str] = []
    app = SimpleNamespace(notify=lambda text, **kw: said.append(text))
    game = SimpleNamespace(table=table, action_toggle_memory=None, set_bot_delay=None)
    notes = {}
    for command in game_commands(app, game):  # type: ignore[arg-type]
        if command.title.startswith("Landscape: "):
            command.callback()
            notes[command.title.removeprefix("Landscape: ")] = said[-1]
    return notes


def test_rules_4_5_the_palette_names_the_cost_of_the_old_rules_game_at_the_table():
    table = Table.replay(OLD_SAVE)
    try:
        notes = _landscape_notes(table)
    finally:
        table.close()
    assert "once per game, 1 acorn)" in notes["Tea House"]  # 2026.11-1: before it cost 2
    assert "once per game, 1 acorn)" in notes["Red Bridge"]


def test_rules_4_5_without_a_table_the_palette_names_the_current_costs():
    notes = _landscape_notes(None)
    assert "once per game, 2 acorns)" in notes["Tea House"]  # RULES §1.5 since 2026.11-2
    assert "once per game, 1 acorn)" in notes["Red Bridge"]
