"""The app around the table: sizes, key map, palette, settings, scoring, help.

Pilot tests with state assertions, plus unit tests of the pure helpers
(preview, arrangements, winner sentence, key map loader).
"""

from __future__ import annotations

import io
import json

import pytest
from textual import events
from helpers import (
    ScriptedBot, cards, plain, scripted_bot, sit, situation, until_screen,
)

from momiji_tui.engine import Play
from momiji_tui.engine.scoring import ScoreSheet, SeatScore
from momiji_tui.session.table import BOT, HUMAN, SeatConfig, Table
from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.models.new_game import BOT_SPEEDS, NewGameOptions
from momiji_tui.ui.screens.choice import ChoiceScreen
from momiji_tui.ui.screens.help import HelpScreen, help_markdown
from momiji_tui.ui.keymap import load_keymap
from momiji_tui.ui.models.keymap import KEYMAP_ENV
from momiji_tui.ui.models.log_lines import log_line
from momiji_tui.ui.screens.menu import MenuScreen
from momiji_tui.ui.screens.new_game import NewGameScreen
from momiji_tui.ui.models.preview import arrangements, new_pile_types, play_preview
from momiji_tui.ui.models.score_sheet import winner_sentence
from momiji_tui.ui.screens.scoring import ScoringScreen
from momiji_tui.ui.widgets.size_notice import SizeNotice
from momiji_tui.ui.screens.table import TableScreen


@pytest.fixture
def app(isolated_dirs):
    return MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)


def finished_table(data_dir) -> str:
    seats = [SeatConfig("You", HUMAN), SeatConfig("Kaede", BOT, "easy")]
    table = Table.new(seats, seed=4, data_dir=data_dir)
    step = 0
    while not table.finished:
        table.submit(ScriptedBot(step).choose(table.view(table.current)))
        step += 1
    table.close()
    return str(table.log.path)


# ------------------------------------------------------------------ sizes


async def test_resize_to_tiny_and_back_never_crashes(app):
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await sit(pilot, situation(hand="M0a C1a", row=["M0c"], display="O1b"))
        await pilot.press("1")
        await pilot.resize_terminal(40, 12)
        await pilot.pause()
        assert screen.too_small
        notice = screen.query_one(SizeNotice)
        assert notice.display and "at least 60×20" in str(notice.render())
        await pilot.press("1", "c", "enter", "escape")  # keys are safe while too small
        for size in [(1, 1), (59, 30), (200, 8), (60, 20), (80, 24), (200, 60), (120, 40)]:
            await pilot.resize_terminal(*size)
            await pilot.pause()
        assert not screen.too_small and not screen.query_one(SizeNotice).display
        assert screen.selected == cards("M0a")  # nothing was lost or done
        await pilot.press("enter")
        assert app.table.state.seats[0].row[0].cards == cards("M0c M0a")


async def test_wide_windows_put_the_log_beside_the_table(app):
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await sit(pilot, situation(hand="M0a", display="O1b"))
        assert screen.has_class("-wide")
        log, table = screen.query_one("#log"), screen.query_one("#table")
        assert log.region.x > table.region.x and log.region.height > 40
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        assert not screen.has_class("-wide")
        assert screen.query_one("#log").region.y > screen.query_one("#hand").region.y


async def test_every_screen_survives_small_sizes(isolated_dirs):
    path = finished_table(isolated_dirs)
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot, resume_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        await until_screen(pilot, ScoringScreen)
        for size in [(30, 8), (80, 24)]:
            await pilot.resize_terminal(*size)
            await pilot.pause()
        await pilot.press("question_mark")
        await until_screen(pilot, HelpScreen)
        await pilot.resize_terminal(20, 6)
        await pilot.press("k", "l", "o", "escape")
        await pilot.resize_terminal(80, 24)
        await until_screen(pilot, ScoringScreen)
        await pilot.press("q")
        await until_screen(pilot, MenuScreen)
        await pilot.resize_terminal(10, 4)
        await pilot.pause()
        assert app.screen.too_small


# ---------------------------------------------------------------- key map


async def test_a_user_keymap_file_remaps_keys(isolated_dirs, tmp_path, monkeypatch):
    keymap = tmp_path / "keymap.toml"
    keymap.write_text('"table.collect" = "g"\n"table.confirm" = ["y", "enter"]\n"table.card1" = "z"\n')
    monkeypatch.setenv(KEYMAP_ENV, str(keymap))
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
    assert app.keymap_problems == []
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, situation(hand="M1a C0b", display="O1b"))
        assert app.key_for("table.collect") == "g"
        assert "z" in plain(screen.query_one("#hand"))  # the hand shows the new key
        await pilot.press("c")  # no longer collect
        assert isinstance(app.screen, TableScreen)
        await pilot.press("g")
        await until_screen(pilot, ChoiceScreen)
        await pilot.press("escape")
        await until_screen(pilot, TableScreen)
        await pilot.press("O", "y")
        assert cards("O1b")[0] in app.table.state.seats[0].hand
        await pilot.press("question_mark")
        await until_screen(pilot, HelpScreen)
        assert "| `g` | collect" in help_markdown(app)


async def test_a_broken_keymap_is_reported_and_ignored(isolated_dirs, tmp_path, monkeypatch):
    keymap = tmp_path / "keymap.json"
    keymap.write_text(json.dumps({"table.collect": "g", "no.such.binding": "x", "table.play": 3}))
    monkeypatch.setenv(KEYMAP_ENV, str(keymap))
    app = MomijiApp(isolated_dirs, bot_delay=0)
    assert any("no.such.binding" in p for p in app.keymap_problems)
    assert any("table.play" in p for p in app.keymap_problems)
    assert app.key_for("table.collect") == "g"
    (tmp_path / "bad.toml").write_text("this is = = not toml")
    assert load_keymap(tmp_path / "bad.toml", MomijiApp.keymap_owners()).problems
    assert load_keymap(tmp_path / "missing.toml", MomijiApp.keymap_owners()).keys == {}


# --------------------------------------------------------- palette, settings


async def test_the_palette_offers_the_games_commands(app):
    async with app.run_test(size=(80, 24)) as pilot:
        await until_screen(pilot, MenuScreen)
        commands = {c.title: c for c in app.get_system_commands(app.screen)}
        for title in ("New game", "Continue last game", "Saved games", "Help", "Toggle memory mode",
                      "Bot speed: slow", "Theme: high contrast", "Landscape: Waterfall"):
            assert title in commands
        assert not any("screenshot" in t.lower() for t in commands)
        commands["Bot speed: slow"].callback()
        assert app.bot_delay == BOT_SPEEDS["slow"]
        commands["Toggle memory mode"].callback()
        assert app.memory_mode
        commands["Theme: high contrast"].callback()
        assert app.theme == "momiji-high-contrast"
        await pilot.press("ctrl+p")
        await pilot.press(*"memory", "enter")
        await pilot.pause()
        assert not app.memory_mode


async def test_new_game_form_sets_bot_speed_and_memory_mode(app):
    async with app.run_test(size=(80, 24)) as pilot:
        await until_screen(pilot, MenuScreen)
        await pilot.press("n")
        form = app.screen
        assert isinstance(form, NewGameScreen)
        form.query_one("#speed").value = "slow"
        form.query_one("#memory").value = True
        form.query_one("#seed").value = "5"
        options = form.options()
        assert options.bot_delay == BOT_SPEEDS["slow"] and options.memory is True and options.seed == 5
        app.make_bot = scripted_bot
        await pilot.press("ctrl+s")
        await until_screen(pilot, TableScreen)
        assert app.bot_delay == BOT_SPEEDS["slow"] and app.memory_mode


async def open_form(pilot) -> NewGameScreen:
    await until_screen(pilot, MenuScreen)
    await pilot.press("n")
    await until_screen(pilot, NewGameScreen)
    return pilot.app.screen


def form_message(form: NewGameScreen) -> str:
    return str(form.query_one("#new-message").render())


async def test_the_new_game_form_opens_on_the_name_and_says_its_limit(app):
    async with app.run_test(size=(80, 24)) as pilot:
        form = await open_form(pilot)
        assert app.focused is not None and app.focused.id == "name"
        assert "at most 16 characters" in form_message(form)
        await pilot.press("tab", "tab", "tab", "tab", "tab")  # seats, Kaede's level, landscapes, speed, memory
        await pilot.press("tab")
        assert app.focused.id == "seed" and "digits only" in form_message(form)


async def test_enter_in_a_field_moves_on_and_never_starts_a_game(app):
    async with app.run_test(size=(80, 24)) as pilot:
        form = await open_form(pilot)
        await pilot.press("enter")  # in the name field
        await pilot.pause()
        assert app.screen is form and app.table is None and app.focused.id == "seats"
        form.query_one("#seed").focus()
        await pilot.press("4", "enter")
        await pilot.pause()
        assert app.screen is form and app.table is None and app.focused.id == "start"


async def test_the_name_field_says_why_a_long_paste_was_not_taken(app):
    async with app.run_test(size=(80, 24)) as pilot:
        form = await open_form(pilot)
        name = form.query_one("#name")
        name.value = ""
        await pilot.press(*"Ada")
        name.post_message(events.Paste("x" * 300))
        await pilot.pause()
        assert name.value == "Ada"
        said = form_message(form)
        assert "at most 16 characters" in said and "303" in said and "not taken" in said, said
        await pilot.press(*"bcdefghijklmn")  # 16 in all: taken
        await pilot.press("z")  # the 17th
        assert name.value == "Adabcdefghijklmn" and "17" in form_message(form)


async def test_the_seed_field_refuses_what_is_not_a_number_visibly(app):
    async with app.run_test(size=(80, 24)) as pilot:
        form = await open_form(pilot)
        form.query_one("#seed").focus()
        await pilot.press("a")
        assert "digits only" in form_message(form) and "“a” was not taken" in form_message(form)
        await pilot.press(*"bc-1")
        said = form_message(form)
        assert form.query_one("#seed").value == "1" and "“-” was not taken" in said, said


@pytest.mark.parametrize("leave", ["back", "quit"])
async def test_leaving_the_new_game_form_while_it_opens_does_not_crash(app, leave):
    # Esc (or quitting) handled before the form mounted: its on_mount used to
    # query "#start" on a screen already dismissed (NoMatches).
    async with app.run_test(size=(80, 24)) as pilot:
        await until_screen(pilot, MenuScreen)
        app.screen.action_new()
        form = app.screen
        assert isinstance(form, NewGameScreen)
        if leave == "back":
            form.action_back()
        else:
            app.exit()
        await pilot.pause()
        if leave == "back":
            await until_screen(pilot, MenuScreen)
    assert app.return_code in (0, None)


async def test_bot_turns_are_paced(isolated_dirs):
    app = MomijiApp(isolated_dirs, bot_delay=3600, make_bot=scripted_bot,
                    new_game=NewGameOptions(seats=2, bot_level="easy", seed=3))
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(20):
            await app.workers.wait_for_complete()
            await pilot.pause()
        table = app.table
        if table.current != 0:
            # The bot's move is chosen but waits on screen: nothing is played yet.
            assert app.thinking == table.current
            n = len(table.events)
            await pilot.pause()
            assert len(table.events) == n


# ---------------------------------------------------------------- scoring


def plain_table(screen) -> str:
    """The score sheet as text."""
    from rich.console import Console

    console = Console(width=120, record=True, file=io.StringIO())
    console.print(screen.query_one("#scoring-table").content)
    return console.export_text()


class ManualTicker:
    """An injected clock for the scoring reveal: it ticks only when told."""

    def __init__(self) -> None:
        self.seconds: float | None = None
        self.callback = None
        self.stopped = False

    def __call__(self, screen, seconds, callback):
        self.seconds, self.callback = seconds, callback
        return self

    def stop(self) -> None:
        self.stopped = True

    def tick(self) -> None:
        assert not self.stopped
        self.callback()


async def test_rules_7_scoring_reveals_row_by_row_and_can_be_skipped(isolated_dirs, monkeypatch):
    """The reveal is paced by an injected ticker, never by wall time: however
    slow the run, no row appears until the ticker ticks."""
    ticker = ManualTicker()
    monkeypatch.setattr(ScoringScreen, "reveal_ticker", staticmethod(ticker))
    path = finished_table(isolated_dirs)
    app = MomijiApp(isolated_dirs, bot_delay=100, make_bot=scripted_bot, resume_path=path)
    async with app.run_test(size=(100, 40)) as pilot:
        await until_screen(pilot, ScoringScreen)
        screen = app.screen
        assert ticker.seconds == 1.2  # the bot pace, capped at 1.2 s a row
        first = screen.shown
        for _ in range(5):
            await pilot.pause()
        assert screen.shown == first and screen.revealing and "Total" not in plain_table(screen)
        ticker.tick()
        await pilot.pause()
        assert screen.shown == first + 1
        await pilot.press("space")
        assert screen.shown == first + 2
        await pilot.press("enter")  # show everything
        assert "Total" in plain_table(screen)
        assert not screen.revealing and ticker.stopped
        sentence = plain(screen.query_one("#scoring-result"))
        assert "win" in sentence and "points" in sentence
        await pilot.press("enter")  # now: back to the menu
        await until_screen(pilot, MenuScreen)


def enter_means(screen) -> str | None:
    """What ⏎ does now, as the footer is told (the enabled binding's action)."""
    found = screen.active_bindings.get("enter")
    return found.binding.action if found is not None and found.enabled else None


async def test_rules_7_enter_to_show_all_as_the_pace_ends_the_sheet_stays_on_it(isolated_dirs, monkeypatch):
    """The pace shows the last row (the result) just as ⏎ is pressed to show
    all: the ⏎ finishes nothing more and leaves nothing; the footer's ⏎ is
    always what ⏎ does; one tick later ⏎ is the menu."""
    ticker = ManualTicker()
    monkeypatch.setattr(ScoringScreen, "reveal_ticker", staticmethod(ticker))
    path = finished_table(isolated_dirs)
    app = MomijiApp(isolated_dirs, bot_delay=100, make_bot=scripted_bot, resume_path=path)
    async with app.run_test(size=(100, 40)) as pilot:
        await until_screen(pilot, ScoringScreen)
        screen = app.screen
        while screen.revealing:
            assert enter_means(screen) == "skip" and "Revealing" in plain(screen.query_one("#scoring-result"))
            ticker.tick()
            await pilot.pause()
        assert "win" in plain(screen.query_one("#scoring-result"))
        assert enter_means(screen) is None
        await pilot.press("enter")  # meant as "show all": the sheet stays
        assert app.screen is screen and not ticker.stopped
        ticker.tick()
        await pilot.pause()
        assert ticker.stopped and enter_means(screen) == "menu"
        await pilot.press("enter")
        await until_screen(pilot, MenuScreen)


async def test_scoring_is_whole_at_once_without_pacing(isolated_dirs):
    path = finished_table(isolated_dirs)
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot, resume_path=path)
    async with app.run_test(size=(100, 40)) as pilot:
        await until_screen(pilot, ScoringScreen)
        assert not app.screen.revealing


def test_winner_sentences_name_the_tiebreak():
    def sheet(totals, acorns, winners, tiebreak):
        seats = tuple(SeatScore(i, (), a, (), t) for i, (t, a) in enumerate(zip(totals, acorns, strict=True)))
        return ScoreSheet(seats, winners, tiebreak)

    names = ["You", "Kaede", "Ginnan"]
    assert winner_sentence(sheet([30, 20, 10], [1, 1, 1], (0,), False), names, 0) == "You win with 30 points."
    tie = winner_sentence(sheet([30, 30, 10], [2, 5, 1], (1,), True), names, 0)
    assert tie.startswith("Kaede wins on the tiebreak: tied with You on 30 points") and "(5)" in tie
    shared = winner_sentence(sheet([30, 30, 10], [2, 2, 1], (0, 1), True), names, 0)
    assert shared.startswith("You and Kaede share the victory with 30 points")
    # The replay watches from no seat (me=None), but a seat saved as "You"
    # still takes "win", as on the score sheet.
    assert winner_sentence(sheet([62, 20, 10], [1, 1, 1], (0,), False), names, None) == "You win with 62 points."
    tie = winner_sentence(sheet([30, 30, 10], [5, 2, 1], (0,), True), names, None)
    assert tie.startswith("You win on the tiebreak: tied with Kaede") and "you hold more acorns (5)" in tie


# --------------------------------------------------------------- help, log


async def test_help_jumps_to_sections(app):
    async with app.run_test(size=(80, 24)) as pilot:
        await until_screen(pilot, MenuScreen)
        await pilot.press("question_mark")
        await until_screen(pilot, HelpScreen)
        viewer = app.screen.query_one("#help")
        await pilot.press("o")
        await pilot.pause()
        assert viewer.document.scroll_offset.y > 0 or viewer.scroll_offset.y > 0
        await pilot.press("escape")
        await until_screen(pilot, MenuScreen)


def test_help_covers_rules_powers_objectives_and_keys():
    text = help_markdown()
    for needle in ("§4.2", "Mountain Spring", "Moon Gate", "Fallen Seeds", "Keys at the table",
                   "table.collect", "Memory mode", "keymap"):
        assert needle in text


def test_memory_mode_log_line_hides_the_cards():
    from momiji_tui.engine import events as ev

    event = ev.CardsPlayed(1, tuple(cards("M2a C0b")), ("", "left"), "mixed")
    names = ["You", "Kaede"]
    full = log_line(event, 0, names).plain
    hidden = log_line(event, 0, names, memory=True).plain
    assert "M2" in full
    assert hidden == "Kaede played 2 cards: onto the Maple pile, a new Cherry pile (left end)."


# ---------------------------------------------------------------- preview


def test_arrangements_list_each_distinct_row_once():
    table = situation(hand="C0e O0e", row=["M0c"])
    me = table.view(0).me
    new = new_pile_types(me, cards("C0e O0e"))
    assert new == ["C", "O"]
    assert arrangements(me, new) == [("right", "right"), ("right", "left"), ("left", "right"), ("left", "left")]
    empty = situation(hand="C0e O0e").view(0).me
    assert len(arrangements(empty, ["C", "O"])) == 2  # with no row, one end is as good as the other


def test_play_preview_tells_the_row_pairs_and_points():
    table = situation(hand="C0b O3a", row=["O0a O1a O2a", "M0c"])
    events = table.check(Play(0, tuple(cards("C0b O3a")), ("right",)))
    preview = play_preview(table.view(0).me, events)
    assert [p.leaf_type for p in preview.row] == ["O", "M", "C"]
    assert preview.row[0].closed and preview.row[0].points == 12 and preview.row[2].new
    assert preview.pairs == (1,) and preview.acorns == 2
    assert preview.closes == (("O", True),)
    assert preview.points == 12
