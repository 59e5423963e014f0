"""A 2026.11-1 save resumed and played on at the table: what the player
reads about landscape costs is its own rules' (RULES §1.5, §4.5, "Rules
versions": the Tea House 1 acorn, as every landscape), not today's (2)."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import settle, until_screen
from textual.widgets import MarkdownViewer

from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.screens.help import HelpScreen
from momiji_tui.ui.screens.table import TableScreen

OLD_SAVE = Path(__file__).parents[1] / "bots" / "fixtures" / "rules-2026.11-1.jsonl"
PLAY_STARTED = 14  # lines: header, then the draft and the deal, through PlayStarted


def old_game_in_progress(data_dir: Path) -> Path:
    """The fixture cut at the start of play, seat 0 played by a human."""
    lines = OLD_SAVE.read_text().splitlines()[:PLAY_STARTED]
    header = json.loads(lines[0])
    header["seats"][0] = {"name": "Aki", "kind": "human", "level": None}
    games = data_dir / "games"
    games.mkdir(parents=True, exist_ok=True)
    path = games / f"{header['game_id']}.jsonl"
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    return path


async def test_rules_4_5_help_at_an_old_rules_table_names_that_games_costs(isolated_dirs):
    app = MomijiApp(isolated_dirs, bot_delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        app.resume_game(old_game_in_progress(isolated_dirs))
        await until_screen(pilot, TableScreen)
        await pilot.press("f1")
        await until_screen(pilot, HelpScreen)
        await settle(pilot)
        text = " ".join(app.screen.query_one(MarkdownViewer).document.source.split())
    assert "Each power: once per game, 1 acorn, a free action" in text
    assert "Tea House 2 acorns" not in text
