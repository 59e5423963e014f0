"""Settings merge, never clobber: two momiji apps open at once each keep
the setting they changed; the key map refuses to take ctrl+c, ctrl+q or Esc
from their meaning, in one line, and the default key keeps working."""

from __future__ import annotations

import json
from pathlib import Path

from momiji_tui.ui.keymap import load_keymap
from momiji_tui.ui.lobby import LobbyApp
from momiji_tui.ui.models.settings import SettingsKeeper

OWNERS = LobbyApp.keymap_owners()


def test_two_apps_each_keep_the_setting_they_changed(tmp_path):
    path = tmp_path / "settings.json"
    a, b = SettingsKeeper(path), SettingsKeeper(path)  # both read the file before either writes
    assert a.remember(theme="momiji-high-contrast") is None
    assert b.remember(bot_pace="slow") is None
    assert json.loads(path.read_text()) == {"theme": "momiji-high-contrast", "bot_pace": "slow"}
    assert SettingsKeeper(path).settings.theme == "momiji-high-contrast"


def test_a_setting_put_back_to_its_default_is_removed_and_leaves_the_others(tmp_path):
    path = tmp_path / "settings.json"
    a, b = SettingsKeeper(path), SettingsKeeper(path)
    a.remember(theme="nord")
    b.remember(bot_pace="fast")
    a.remember(theme=None)
    assert json.loads(path.read_text()) == {"bot_pace": "fast"}


def test_the_key_map_refuses_to_take_quit_or_back_in_one_line(tmp_path: Path):
    path = tmp_path / "keymap.toml"
    path.write_text('"menu.new" = "ctrl+q"\n"table.collect" = ["ctrl+c"]\n"table.play" = "escape"\n'
                    '"table.reveal" = "R"\n')
    loaded = load_keymap(path, OWNERS)
    assert loaded.keys == {"table.reveal": "R"}
    assert len(loaded.problems) == 3 and all("\n" not in p for p in loaded.problems)
    new = next(p for p in loaded.problems if "menu.new" in p)
    assert new.startswith("'menu.new': ctrl+q is kept for quitting (ctrl+q); the default key")
    assert any("escape is kept for going back (Esc)" in p for p in loaded.problems)
