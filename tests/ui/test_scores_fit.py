"""Scores that fit: ``momiji list``, the saved-games
screen and the final score sheet (RULES §7) at 80 columns with 4 seats and
the longest names."""

from __future__ import annotations

import sys

from fit_helpers import LONG_SEATS, long_game, screen_lines, words_shown
from helpers import until_screen
from textual.widgets import DataTable

from momiji_tui import cli
from momiji_tui.session.saves import describe_saved_games
from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.screens.saved import SavedGamesScreen
from momiji_tui.ui.screens.scoring import ScoringScreen


def test_momiji_list_fits_the_terminal_width(isolated_dirs, monkeypatch, capsys):
    long_game(isolated_dirs)
    long_game(isolated_dirs, seed=6, commands=8)
    rows = describe_saved_games(isolated_dirs)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)  # as in a terminal (capsys is not one)
    monkeypatch.setenv("COLUMNS", "80")
    assert cli.main(["list"]) == 0
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) <= 80
    flat = " ".join(out.split())
    for r in rows:
        assert r.game_id in out and r.scores in out and r.turn in out and r.seats in flat
    monkeypatch.setenv("COLUMNS", "220")
    assert cli.main(["list"]) == 0
    wide = capsys.readouterr().out.splitlines()
    for r in rows:  # wide enough: one line per game
        line = next(x for x in wide if x.startswith(r.game_id))
        assert r.scores in line and line.endswith(r.seats)


async def test_saved_games_screen_shows_the_scores_column_at_80x24(isolated_dirs):
    long_game(isolated_dirs)
    row = describe_saved_games(isolated_dirs)[0]
    app = MomijiApp(isolated_dirs, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await until_screen(pilot, SavedGamesScreen)
        table = app.screen.query_one(DataTable)
        assert table.max_scroll_x == 0  # no column beyond the right edge
        assert any(row.scores in line for line in screen_lines(app))
        assert words_shown(app, row.seats)  # the highlighted game's seats, under the table


async def test_rules_7_score_sheet_fits_4_seats_at_80x24(isolated_dirs):
    path = long_game(isolated_dirs)
    app = MomijiApp(isolated_dirs, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        app.resume_game(path)
        await until_screen(pilot, ScoringScreen)
        assert app.table is not None
        totals = [str(s.total) for s in app.table.score().seats]
        lines = screen_lines(app)
        assert all(len(line.rstrip()) <= 80 for line in lines)
        total_line = next(line for line in lines if "│ Total " in line)
        assert [cell.strip() for cell in total_line.split("│")[2:-1]] == totals
        top, bottom = (next(i for i, line in enumerate(lines) if mark in line) for mark in ("┏", "┡"))
        columns = zip(*(line.split("┃")[1:-1] for line in lines[top + 1:bottom]), strict=True)
        headers = [[part.strip() for part in column] for column in columns]
        for seat in LONG_SEATS[1:]:  # seat 0 is shown as "You"; a long name may wrap or fold
            assert any(seat.name in (" ".join(h), "".join(h)) or seat.name + " ★" in (" ".join(h), "".join(h))
                       for h in headers), (seat.name, headers)


async def test_rules_7_a_score_sheet_wider_than_the_terminal_scrolls_with_right(isolated_dirs):
    path = long_game(isolated_dirs)
    app = MomijiApp(isolated_dirs, bot_delay=0)
    async with app.run_test(size=(44, 20)) as pilot:
        app.resume_game(path)
        await until_screen(pilot, ScoringScreen)
        sheet = app.screen.query_one("#scoring")
        assert sheet.max_scroll_x > 0
        await pilot.press("right", "right")
        await pilot.pause()
        assert sheet.scroll_x > 0
        await pilot.press("end")
        await pilot.pause()
        assert sheet.scroll_y == sheet.max_scroll_y > 0
