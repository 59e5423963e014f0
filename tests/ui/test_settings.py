"""Settings remembered in the platform config folder: theme,
bot pace, memory mode (RULES §8), the last new-game options. A damaged file
is reported and kept aside, never overwritten; a read-only folder just does
not remember, with a message."""

from __future__ import annotations

import errno
import json
from pathlib import Path

from helpers import until_screen
from textual.widgets import Input, Select

from momiji_tui.store import settings_file
from momiji_tui.store.settings_file import settings_path
from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.models.new_game import NewGameOptions
from momiji_tui.ui.models.settings import SettingsKeeper
from momiji_tui.ui.screens.new_game import NewGameScreen


def test_tests_never_touch_the_real_config_folder(tmp_path):
    assert settings_path().is_relative_to(tmp_path)


def _refuse(error: int):
    def refuse(*args, **kwargs):
        raise OSError(error, "injected")
    return refuse


async def test_theme_pace_memory_and_last_new_game_are_remembered_after_a_restart(isolated_dirs):
    app = MomijiApp(isolated_dirs, bot_delay=None)
    async with app.run_test(size=(80, 24)) as pilot:
        app.theme = "nord"
        app.set_bot_delay(1.6)
        app.action_toggle_memory()
        app.start_game(NewGameOptions(name="Ada", seats=3, bot_levels=("hard", "easy"),
                                      landscape_mode="draft", seed=4))
        await pilot.pause()
    saved = json.loads(settings_path().read_text())
    assert saved["theme"] == "nord" and saved["bot_pace"] == "slow" and saved["memory"] is True
    again = MomijiApp(isolated_dirs, bot_delay=None)
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert again.theme == "nord" and again.bot_delay == 1.6 and again.memory_mode is True
        await pilot.press("n")
        await until_screen(pilot, NewGameScreen)
        form = again.screen
        assert form.query_one("#name", Input).value == "Ada"
        assert [form.query_one(f"#{i}", Select).value for i in ("seats", "level-1", "level-2", "landscapes")] \
            == [3, "hard", "easy", "draft"]
        assert form.options().seed is None  # the seed is never remembered


def test_a_damaged_settings_file_is_reported_and_kept_aside(tmp_path):
    path = tmp_path / "settings.json"
    path.write_bytes(b"{not json")
    keeper = SettingsKeeper(path)
    assert keeper.problem is not None and "was damaged" in keeper.problem and "defaults are used" in keeper.problem
    (aside,) = tmp_path.glob("settings.json.damaged-*")
    assert aside.read_bytes() == b"{not json" and aside.name in keeper.problem
    assert keeper.remember(theme="nord") is None
    assert json.loads(path.read_text()) == {"theme": "nord"}


def test_a_settings_file_nested_too_deep_is_damaged_not_a_crash(tmp_path):
    """Found by trying to break it: JSON nested 100,000 deep raised
    RecursionError out of the reader and the app did not start."""
    path = tmp_path / "settings.json"
    path.write_bytes(b"[" * 100_000 + b"]" * 100_000)
    keeper = SettingsKeeper(path)
    assert keeper.problem is not None and "was damaged" in keeper.problem
    assert len(list(tmp_path.glob("settings.json.damaged-*"))) == 1


def test_a_damaged_settings_file_that_cannot_be_moved_is_never_overwritten(tmp_path, monkeypatch):
    path = tmp_path / "settings.json"
    path.write_bytes(b"[1, 2")
    monkeypatch.setattr(settings_file._fs, "move_exclusive", _refuse(errno.EROFS))
    keeper = SettingsKeeper(path)
    assert keeper.problem is not None and "left as it is" in keeper.problem
    keeper.remember(theme="nord")
    assert path.read_bytes() == b"[1, 2"


def test_a_read_only_config_folder_does_not_remember_and_says_so_once(tmp_path, monkeypatch):
    monkeypatch.setattr(settings_file._fs, "write_file", _refuse(errno.EROFS))
    keeper = SettingsKeeper(tmp_path / "settings.json")
    message = keeper.remember(theme="nord")
    assert message is not None and message.startswith("Settings are not remembered: read-only file system (")
    assert keeper.remember(bot_pace="fast") is None  # said once
    assert keeper.settings.theme == "nord" and not (tmp_path / "settings.json").exists()


def test_a_hosted_app_remembers_nothing(isolated_dirs):
    app = MomijiApp(isolated_dirs, hosted=True)
    assert app.settings.path is None
    assert app.settings.remember(theme="nord") is None and not settings_path().exists()
    assert isinstance(settings_path(), Path)


async def test_rules_8_memory_mode_toggled_at_a_game_says_so_on_the_message_line(isolated_dirs):
    from momiji_tui.ui.screens.table import TableScreen

    app = MomijiApp(isolated_dirs, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_game(NewGameOptions(name="Ada", seats=2, bot_levels=("easy",), seed=4))
        await until_screen(pilot, TableScreen)
        await pilot.press("m")
        await pilot.pause()
        assert app.memory_mode is True
        assert app.screen.message.plain == "Memory mode on: only top cards shown (RULES §8). m turns it off."
        await pilot.press("m")
        await pilot.pause()
        assert app.memory_mode is False and app.screen.message.plain.startswith("Memory mode off")
