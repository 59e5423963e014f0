"""The saved-games screen and the replay screen, driven by keys (Pilot)."""

from __future__ import annotations

import re

from saves_helpers import saved_game

from momiji_tui.session.replay import Replay
from momiji_tui.session.saves import open_saved
from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.screens.menu import MenuScreen
from momiji_tui.ui.screens.replay import ReplayScreen
from momiji_tui.ui.widgets.turn_slider import TurnSlider
from momiji_tui.ui.screens.saved import SavedGamesScreen
from textual.widgets import DataTable, Label, Static

FUTURE = "29991231-235959-abcdef"  # sorts first: the newest game


def message(app) -> str:
    return str(app.screen.query_one("#saved-message", Label).render())


def screen_text(app) -> str:
    """What the terminal shows now, as plain text."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def open_saved_games(pilot) -> None:
    await pilot.pause()
    assert isinstance(pilot.app.screen, MenuScreen)
    await pilot.press("s")
    await pilot.pause()
    assert isinstance(pilot.app.screen, SavedGamesScreen)
    assert pilot.app.screen.query_one(DataTable).has_focus


async def test_saved_games_screen_explains_a_damaged_game_instead_of_crashing(isolated_dirs):
    good = saved_game(isolated_dirs, seed=1, commands=6)
    bad = isolated_dirs / "games" / f"{FUTURE}.jsonl"
    # Damaged, its last move played after the good game's (its play order): listed first.
    bad.write_bytes(b'{"format":"momiji-log","format_version":1}\n{not json\n{"type":"X","play_order":999}\n')
    app = MomijiApp(isolated_dirs, bot_delay=0)
    async with app.run_test(size=(110, 30)) as pilot:
        await open_saved_games(pilot)
        table = app.screen.query_one(DataTable)
        assert table.row_count == 2
        first = [str(cell) for cell in table.get_row_at(0)]  # cells are Text: names are never markup
        assert first[0] == FUTURE and first[3] == "damaged"
        assert "Line 2 is not valid JSON." in message(app)  # shown as soon as it is highlighted
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, SavedGamesScreen) and app.table is None
        assert f"Cannot open {FUTURE}: Line 2 is not valid JSON." in message(app)
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, SavedGamesScreen)
        assert f"Cannot replay {FUTURE}" in message(app)
        # The other game is listed and opens.
        await pilot.press("down")
        second = [str(cell) for cell in table.get_row_at(1)]
        assert second[0] == good.stem and second[3] == "in progress"
    assert not bad.exists() and any(".damaged-" in p.name for p in bad.parent.iterdir())


async def test_a_game_damaged_after_it_was_listed_is_explained_too(isolated_dirs):
    path = saved_game(isolated_dirs, seed=2, commands=6)
    app = MomijiApp(isolated_dirs, bot_delay=0)
    async with app.run_test(size=(110, 30)) as pilot:
        await open_saved_games(pilot)
        path.write_bytes(path.read_bytes() + b'{"type":"AcornsPaid","seat":0,"amount":99,"reason":"x"}\n')
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, SavedGamesScreen) and app.table is None
        assert "rules reject this save: event pays more acorns than the seat holds" in message(app)


async def test_replay_screen_steps_by_event_and_turn_and_ends_on_the_score_sheet(isolated_dirs):
    path = saved_game(isolated_dirs, seed=3)
    expected = Replay.from_dicts(open_saved(path).events)
    app = MomijiApp(isolated_dirs, replay_path=path, bot_delay=0)
    async with app.run_test(size=(120, 45)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        r = screen.replay
        title = lambda: str(screen.query_one("#replay-title", Static).render())  # noqa: E731
        slider = screen.query_one(TurnSlider)
        assert r.position == 1 and "event 1/" in title()
        assert "New game for Ada, Bo" in str(screen.query_one("#replay-event", Static).render())
        await pilot.press("right", "right")
        assert r.position == 3 and f"event 3/{len(expected)}" in title()
        await pilot.press("left")
        assert r.position == 2
        await pilot.press("right_square_bracket")
        assert r.position == expected.turn_starts[1] and slider.value == 1
        await pilot.press("shift+right")
        assert r.position == expected.turn_starts[2] and slider.value == 2
        await pilot.press("shift+left")
        assert r.position == expected.turn_starts[1]
        await pilot.press("left_square_bracket")
        assert r.position == 1 and slider.value == 0
        assert not screen.query_one("#replay-sheet").display
        await pilot.press("end")
        assert r.at_end and r.state == expected.state_at(len(expected))
        assert slider.value == slider.maximum == expected.turn_count - 1
        sheet = screen.query_one("#replay-sheet", Static)
        assert sheet.display
        await pilot.pause()
        shown = screen_text(app)
        assert "Final scores — " in shown and "Total" in shown and "▸ The game is over." in shown
        await pilot.press("home")
        assert r.position == 1
        seat = screen.seat
        await pilot.press("v")
        assert screen.seat == (seat + 1) % 2
        # A click on the slider jumps to the turn under the mouse.
        await pilot.click(TurnSlider, offset=(slider.size.width - 1, 0))
        assert r.at_end
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)


async def test_replay_from_the_saved_games_screen_with_r_hides_other_hands_of_an_unfinished_game(isolated_dirs):
    path = saved_game(isolated_dirs, seed=4, commands=9)
    before = path.read_bytes()
    app = MomijiApp(isolated_dirs, bot_delay=0)
    async with app.run_test(size=(120, 45)) as pilot:
        await open_saved_games(pilot)
        await pilot.press("r")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert not screen.replay.open_hands and screen.seat == 0
        await pilot.press("end")
        await pilot.pause()
        shown = screen_text(app)
        assert "seen by Ada" in shown and "Ada (you)" in shown
        hands = re.findall(r"^\s+hand (.*)$", shown, flags=re.M)
        assert len(hands) == 2 and re.fullmatch(r"\d+ cards.*", hands[1].strip())  # Bo's: a count
        assert not re.fullmatch(r"\d+ cards.*", hands[0].strip())  # Ada's own cards
        assert "Final scores" not in shown
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, SavedGamesScreen)
    assert path.read_bytes() == before  # a replay never writes


async def test_replay_keys_still_step_when_the_table_is_taller_than_a_small_terminal(isolated_dirs):
    path = saved_game(isolated_dirs, seed=6)
    app = MomijiApp(isolated_dirs, replay_path=path, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        await pilot.press("end")
        await pilot.pause()
        body = screen.query_one("#replay-body")
        assert body.max_scroll_y > 0  # the score sheet does not fit: the body scrolls…
        await pilot.press("down", "down")
        assert body.scroll_y > 0
        await pilot.press("home", "right", "right", "left")  # …but the keys still step the replay
        assert screen.replay.position == 2
        await pilot.press("end", "left")
        assert screen.replay.position == len(screen.replay) - 1
        assert "← Event" in screen_text(app)
