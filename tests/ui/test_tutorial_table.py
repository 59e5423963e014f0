"""Learn to play at the table (80×24): every step done by keys, a wrong
move told "try …" with nothing changed, a step skipped, the tutorial left
and resumed at its step; the whole tutorial played by keys to its score
sheet; the menu's entry and NO_COLOR."""

from __future__ import annotations

import pytest
from fit_helpers import screen_lines
from helpers import plain, until_human_or_end, until_screen

from momiji_tui.session import tutorial as script
from momiji_tui.session.tutorial_table import TutorialTable
from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.screens.menu import MenuScreen
from momiji_tui.ui.screens.rules import cited_on
from momiji_tui.ui.screens.scoring import ScoringScreen
from momiji_tui.ui.screens.table import TableScreen

SIZE = (80, 24)
#: The keys that do each step, as its text tells them (hand digits as the hand shows them).
STEP_KEYS = {
    "collect": ["r", "G", "enter", "e"],
    "pile": ["1", "2", "p", "e"],
    "waterfall": ["a", "2", "r", "M", "enter", "e", "9", "enter"],
    "mixed": ["2", "4", "p", "6", "1", "x", "e"],
    "close": ["a", "1", "1", "2", "p", "e"],
    "objective": ["o", "1", "e"],
    "end": ["1", "2", "p", "a", "3", "e"],
}
#: A legal move that is not the step's (RULES allow it; the lesson does not).
WRONG_KEYS = {
    "collect": ["C", "enter"],  # the Cherry column, without the reveal
    "pile": ["3", "p"],  # a Ginkgo pile instead of Maple
    "waterfall": ["r"],  # a paid reveal before the Waterfall
    "mixed": ["4", "p"],  # Ginkgo 0 alone
    "close": ["1", "p"],  # Maple 3 before the Mountain Spring
    "objective": ["o", "2"],  # Fallen Seeds instead of Shrine Path
    "end": ["a", "3"],  # the Sunset Pier before the play
}
STEP_KEYS_IN_ORDER = [step.key for step in script.STEPS]


@pytest.fixture
def app(isolated_dirs):
    return MomijiApp(isolated_dirs, bot_delay=0, learn=True)


def lesson_key(app) -> str | None:
    table = app.table
    assert isinstance(table, TutorialTable)
    step = table.lesson().step
    return step.key if step is not None and table.current == 0 else None


def panel(app) -> str:
    widget = app.screen.query_one("#lesson")
    return f"{widget.border_title}\n{widget.content.plain}"


async def start(pilot) -> None:
    await until_screen(pilot, TableScreen)
    await until_human_or_end(pilot)


async def press(pilot, *keys: str) -> None:
    for key in keys:
        await pilot.press(key)
        if pilot.app.table is not None:  # at the table: until Easy has played
            await until_human_or_end(pilot)
        else:
            await pilot.pause()


async def skip_to(pilot, key: str) -> None:
    """Have steps done for you (N) until ``key`` is the step due."""
    while lesson_key(pilot.app) != key:
        await press(pilot, "N")


def test_the_wrong_and_done_keys_cover_every_step():
    assert list(STEP_KEYS) == STEP_KEYS_IN_ORDER and list(WRONG_KEYS) == STEP_KEYS_IN_ORDER


@pytest.mark.parametrize("key", STEP_KEYS_IN_ORDER)
async def test_each_step_wrong_move_leave_and_resume_then_skip(app, key):
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await skip_to(pilot, key)
        step = script.STEPS[STEP_KEYS_IN_ORDER.index(key)]
        assert step.title in panel(app) and "RULES §" in panel(app)
        table = app.table
        before, done = table.state.clone(), table.done
        await press(pilot, *WRONG_KEYS[key])
        await until_screen(pilot, TableScreen)
        assert "Not in this lesson: try" in plain(app.screen.query_one("#message"))
        assert table.state == before and table.done == done
        await press(pilot, "escape", "q")  # leave: the game is saved as it stands
        await until_screen(pilot, MenuScreen)
        assert app.table is None
        await press(pilot, "c")  # continue: the tutorial, back at its step
        await until_screen(pilot, TableScreen)
        assert isinstance(app.table, TutorialTable) and app.table.done == done and lesson_key(app) == key
        assert step.title in panel(app)
        await press(pilot, "N")  # skip: the step is played for you, the next one is due
        following = STEP_KEYS_IN_ORDER.index(key) + 1
        if following < len(STEP_KEYS_IN_ORDER):
            assert lesson_key(app) == STEP_KEYS_IN_ORDER[following]
        else:
            await until_screen(pilot, ScoringScreen)


async def test_the_whole_tutorial_by_keys_at_80x24_to_its_score_sheet(app):
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        for key, keys in STEP_KEYS.items():
            assert lesson_key(app) == key, f"expected step {key}, the table is at {lesson_key(app)}"
            beat = app.table.lesson().beat_text
            assert beat and beat in " ".join(panel(app).split("\n"))
            await press(pilot, *keys)
        await until_screen(pilot, ScoringScreen)
        assert app.table.done == len(script.MOVES) and app.table.finished
        shown = "\n".join(screen_lines(app))
        assert "You win with 36 points." in shown
        assert "a real game against Easy" in shown and "line by line (RULES §7)" in shown
        await press(pilot, "r")  # the offer taken: a real game against Easy, a new deal
        await until_screen(pilot, TableScreen)
        assert not isinstance(app.table, TutorialTable)
        assert [s.level for s in app.table.seats] == [None, "easy"]


async def test_learn_to_play_from_the_menu_and_its_highlights_under_no_color(isolated_dirs, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    app = MomijiApp(isolated_dirs, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await until_screen(pilot, MenuScreen)
        await press(pilot, "l")
        await start(pilot)
        assert isinstance(app.table, TutorialTable) and lesson_key(app) == "collect"
        lines = screen_lines(app)
        assert any("Lesson 1/7 · Collect a column" in line for line in lines)
        # The step talks about the display: it is marked at its left edge, in any colours or none.
        assert next(line for line in lines if "Display" in line).lstrip().startswith("▌")
        assert app.screen.query_one("#display").has_class("-lesson-focus")
        assert not app.screen.query_one("#hand").has_class("-lesson-focus")
        assert cited_on(app.screen) == "3"  # F2 opens the rules at the step's first section (RULES §3)
        await press(pilot, "C", "enter")  # off the lesson: the message cites nothing, the step still does
        assert cited_on(app.screen) == "3"


async def test_learn_to_play_in_the_ssh_lobby_and_back_at_its_step(tmp_path):
    from momiji_tui.session.lobby import Lobby, Player
    from momiji_tui.ui.lobby import LobbyApp
    from momiji_tui.ui.screens.lobby import LobbyScreen

    lobby = Lobby(tmp_path, seat_wait=None)
    app = LobbyApp(lobby, Player("key-alice", "alice"), bot_delay=0)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await until_screen(pilot, LobbyScreen)
            await press(pilot, "l")
            await start(pilot)
            assert isinstance(app.table, TutorialTable) and app.hosted
            await press(pilot, *STEP_KEYS["collect"])
            assert lesson_key(app) == "pile"
            await press(pilot, "q")
            await until_screen(pilot, LobbyScreen)
            option = app.screen.query_one("#lobby-list").get_option_at_index(0)
            assert str(option.prompt) == "c  Continue Learn to play, lesson 2/7"
            await press(pilot, "c")  # the lobby's continue: the tutorial, at its step
            await until_screen(pilot, TableScreen)
            assert isinstance(app.table, TutorialTable) and lesson_key(app) == "pile"
    finally:
        lobby.close()


async def test_a_stray_m_in_a_lesson_says_memory_mode_and_the_lesson_goes_on(app):
    """RULES §8: `m` toggles memory mode (a setting, remembered); in lesson 3
    a player typing `m` for the Maple column is told so, with the lesson's "try"."""
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await skip_to(pilot, "waterfall")
        await press(pilot, "a", "2", "r")
        table, done = app.table, app.table.done
        await press(pilot, "m")
        message = app.screen.message.plain
        assert app.memory_mode is True
        assert "Memory mode on: only top cards shown (RULES §8). m turns it off." in message
        assert "Lesson: try M, then ⏎: collect the Maple column." in message
        assert table.done == done and "Not in this lesson" not in message
        await press(pilot, "m")
        assert app.memory_mode is False
        assert "Memory mode off" in app.screen.message.plain
        await press(pilot, "M", "enter")  # the lesson goes on
        assert table.done == done + 1


async def test_n_is_named_for_what_it_does_in_footer_panel_help_and_readme(app):
    """N plays the step for you (including ending your turn): "do it for me"
    everywhere it is named, never "skip"."""
    from pathlib import Path

    from momiji_tui.ui.models.help_text import keys_md

    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        footer = {k.description for k in app.screen.footer.keys}
        assert "Do it for me" in footer and "Skip step" not in footer
        assert "N do it for me" in panel(app) and "skip" not in panel(app)
        await press(pilot, "N")
        assert lesson_key(app) == "pile" and app.table.current == 0  # the step, with its end of turn
    row = next(line for line in keys_md().splitlines() if "Learn to play" in line)
    assert "do it for me" in row and "skip" not in row
    readme = (Path(__file__).parents[2] / "README.md").read_text()
    learn = next(line for line in readme.splitlines() if "`momiji learn`" in line)
    assert "does it for me" in learn and "skip" not in learn


async def test_the_first_lessons_say_how_to_read_the_table_within_the_panel_at_80x24(app):
    """Lesson 1 explains the marks it shows before any objective is
    activated (✓ would meet, ▲ leads, • acorn corner, ★ leader); lesson 2
    the pile's notation: whole on the screen at 80×24."""
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        for key in ("collect", "pile"):
            await skip_to(pilot, key)
            reading = app.table.lesson().step.reading
            assert reading.startswith("Table:")
            shown = " ".join(line.strip() for line in screen_lines(app))
            assert reading in shown, f"lesson {key}: its reading line is cut"
        first = script.STEPS[0].reading
        assert all(mark in first for mark in ("✓ you would meet it if it were activated", "▲", "•", "★"))


async def test_a_lesson_game_is_labelled_and_l_offers_to_continue_it(isolated_dirs):
    """Saved games, `momiji list` (the same rows) and the menu's Continue name
    a tutorial game by its lesson; `l` with one in progress offers to
    continue it, or to start again in its place (never a second one)."""
    from momiji_tui.session.saves import describe_saved_games, unfinished_games
    from momiji_tui.ui.screens.choice import ChoiceScreen

    app = MomijiApp(isolated_dirs, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await until_screen(pilot, MenuScreen)
        await press(pilot, "l")
        await start(pilot)
        first = app.table.game_id
        await press(pilot, *STEP_KEYS["collect"], "q")
        await until_screen(pilot, MenuScreen)
        (row,) = describe_saved_games(isolated_dirs)
        assert row.turn == "Learn to play, lesson 2/7"
        option = app.screen.query_one("#menu-list").get_option_at_index(0)
        assert str(option.prompt) == "c  Continue Learn to play, lesson 2/7"
        await press(pilot, "l")
        await until_screen(pilot, ChoiceScreen)
        await press(pilot, "c")  # continue it
        await start(pilot)
        assert app.table.game_id == first and lesson_key(app) == "pile"
        await press(pilot, "q")
        await until_screen(pilot, MenuScreen)
        await press(pilot, "l")
        await until_screen(pilot, ChoiceScreen)
        await press(pilot, "n")  # start again: the one in progress goes
        await start(pilot)
        assert app.table.game_id != first and lesson_key(app) == "collect"
        assert [g.game_id for g in unfinished_games(isolated_dirs)] == [app.table.game_id]


async def test_the_info_key_s_every_text_is_whole_at_80x24_in_a_lesson(app):
    """Each `i` text (the card, every objective, every landscape) fits the
    message line's two lines at 80×24 with the lesson panel shown: none is
    cut with "…"."""
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        seen: list[str] = []
        while True:
            await press(pilot, "i")
            said = app.screen.message.plain
            if said in seen:
                break
            seen.append(said)
            shown = " ".join(" ".join(screen_lines(app)).split())
            assert " ".join(said.split()) in shown, f"cut at 80×24: {said}"
        assert any(s.startswith("Objective 4") and "Met: owner 10, others 3 (§7)." in s for s in seen)


def test_rules_6_the_last_round_banner_fits_the_table_at_80_columns():
    """The tutorial's end is the torii used up (RULES §6): its banner, with
    Easy's turn last, is one line of the table's 78 columns."""
    from momiji_tui import engine
    from momiji_tui.ui.models.turn_news import last_round_banner

    state = engine.fold(script.opening_events())
    for move in script.MOVES:
        state = engine.run(state, move.accepts[0])[0]
        banner = last_round_banner(engine.view(state, script.YOU))
        if banner is not None:
            break
    assert banner == "Last round: no torii left. The game ends after Easy's turn (RULES §6)."
    assert len(banner) <= 78


async def test_every_lesson_title_is_whole_at_80x24(app):
    """The panel's title names the step and N; the leave key only where it fits."""
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        for key in STEP_KEYS_IN_ORDER:
            await skip_to(pilot, key)
            title = app.screen.query_one("#lesson").border_title
            assert "N do it for me" in title and title in "\n".join(screen_lines(app)), title
