"""The user's key map: every binding id of every screen is
accepted; unknown ids and keys Textual cannot parse are reported one line
each at start, and the default key keeps working."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import scripted_bot, sit, situation, until_screen

from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.screens.choice import ChoiceScreen
from momiji_tui.ui.keymap import all_bindings, load_keymap
from momiji_tui.ui.lobby import LobbyApp
from momiji_tui.ui.models.keymap import KEYMAP_ENV
from momiji_tui.ui.screens.table import TableScreen

UI = Path(__file__).resolve().parents[2] / "momiji_tui" / "ui"
# The bindings of every screen of the app over SSH (which registers the menu app's too).
OWNERS = LobbyApp.keymap_owners()


def declared_binding_ids() -> set[str]:
    """Every ``Binding(..., id="...")`` written in the ui sources (read as text,
    independently of the registry under test)."""
    found: set[str] = set()
    for source in UI.rglob("*.py"):
        for call in re.findall(r"Binding\((.*?)\)(?:,|\])", source.read_text(), flags=re.S):
            found.update(re.findall(r'id="([^"]+)"', call))
    return found


def test_every_declared_binding_id_is_in_the_registry():
    ids = declared_binding_ids()
    assert {"replay.back", "saved.open", "lobby.new", "table.collect", "waiting.leave"} <= ids
    assert ids - set(all_bindings(OWNERS)) == set()


@pytest.mark.parametrize("binding_id", ["replay.back", "saved.open", "lobby.new", "mygames.back", "create.start",
                                        "waiting.leave", "scoring.next", "table.end_turn", "app.help"])
def test_ids_of_every_screen_are_accepted(tmp_path, binding_id):
    path = tmp_path / "keymap.toml"
    path.write_text(f'"{binding_id}" = "f5"\n')
    loaded = load_keymap(path, OWNERS)
    assert loaded.problems == [] and loaded.keys == {binding_id: "f5"}


@pytest.mark.parametrize("key", ["g", "G", "f5", "ctrl+g", "shift+left", "alt+shift+x", "question_mark",
                                 "left_square_bracket", "slash", "escape", "enter", "space", "?", "[", "home"])
def test_keys_textual_knows_are_valid(key):
    from momiji_tui.ui.keymap import is_valid_key

    assert is_valid_key(key)


@pytest.mark.parametrize("key", ["ctrl+banana+alt", "nosuchkey", "ctrl+", "+g", "ctrl+ctrl+g", "hyper+", "f99",
                                 "ctrl g", ""])
def test_keys_textual_does_not_know_are_invalid(key):
    """(A bare ``banana`` is a key to Textual: the name of the 🍌 character.)"""
    from momiji_tui.ui.keymap import is_valid_key

    assert not is_valid_key(key)


def test_a_keymap_nested_too_deep_is_reported_not_a_crash(tmp_path):
    """Found by trying to break it: a TOML array nested 5,000 deep raised
    RecursionError out of tomllib and the app did not start."""
    path = tmp_path / "keymap.toml"
    path.write_text("a = " + "[" * 5000 + "]" * 5000 + "\n")
    loaded = load_keymap(path, OWNERS)
    assert loaded.keys == {} and len(loaded.problems) == 1 and "not valid TOML" in loaded.problems[0]


def test_an_unparsable_key_is_reported_in_one_line_and_dropped(tmp_path):
    path = tmp_path / "keymap.toml"
    path.write_text('"table.collect" = "ctrl+banana+alt"\n"table.reveal" = ["R", "f99"]\n"no.such" = "x"\n'
                    '"table.play" = "P"\n')
    loaded = load_keymap(path, OWNERS)
    assert loaded.keys == {"table.play": "P"}
    assert len(loaded.problems) == 3 and all("\n" not in p for p in loaded.problems)
    collect = next(p for p in loaded.problems if "table.collect" in p)
    assert "'ctrl+banana+alt' is not a key" in collect and "c still works" in collect
    assert any("'f99'" in p and "table.reveal" in p for p in loaded.problems)
    assert any("unknown binding id 'no.such'" in p for p in loaded.problems)


async def test_the_default_key_works_when_the_mapped_key_is_unparsable(isolated_dirs, tmp_path, monkeypatch):
    keymap = tmp_path / "keymap.toml"
    keymap.write_text('"table.collect" = "ctrl+banana+alt"\n')
    monkeypatch.setenv(KEYMAP_ENV, str(keymap))
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
    assert len(app.keymap_problems) == 1 and "ctrl+banana+alt" in app.keymap_problems[0]
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, situation(hand="M1a C0b", display="O1b"))
        assert isinstance(screen, TableScreen) and app.key_for("table.collect") == "c"
        await pilot.press("c")  # the default key still collects
        await until_screen(pilot, ChoiceScreen)


def test_a_key_another_binding_of_the_screen_uses_is_reported_and_dropped(tmp_path):
    """Found in a new player's trial: ``"table.landscape" = "e"`` took End turn's
    key without a word, and after a hand-limit discard the turn could not end."""
    path = tmp_path / "keymap.toml"
    path.write_text('"table.landscape" = "e"\n"table.collect" = "g"\n')
    loaded = load_keymap(path, OWNERS)
    assert loaded.keys == {"table.collect": "g"}
    assert len(loaded.problems) == 1
    assert "'table.landscape'" in loaded.problems[0] and "'table.end_turn'" in loaded.problems[0]
    assert "default key a still works" in loaded.problems[0]


def test_swapping_two_keys_of_one_screen_is_no_clash(tmp_path):
    path = tmp_path / "keymap.toml"
    path.write_text('"table.landscape" = "e"\n"table.end_turn" = "a"\n')
    loaded = load_keymap(path, OWNERS)
    assert loaded.problems == [] and loaded.keys == {"table.landscape": "e", "table.end_turn": "a"}


# Keys bound twice on purpose: the screen offers only one of the two actions
# at a time (``check_action``), e.g. the score sheet's ⏎ shows all, then leaves.
SHARED_ON_PURPOSE = {("ScoringScreen", "enter")}


def _screens() -> list[type]:
    return sorted({*MomijiApp.SCREEN_CLASSES, *LobbyApp.SCREEN_CLASSES}, key=lambda c: c.__name__)


@pytest.mark.parametrize("screen", _screens(), ids=lambda c: c.__name__)
def test_no_key_is_bound_to_two_actions_on_one_screen(screen):
    """A key two features both claimed (the hint and the live score both took
    ``t``; the rematch and the review both took ``r``) leaves one of them
    unreachable: every key of a screen, its base classes' bindings
    included, does one thing."""
    actions: dict[str, set[str]] = {}
    for cls in screen.__mro__:
        for b in vars(cls).get("BINDINGS", []):
            key, action = (b.key, b.action) if not isinstance(b, tuple) else (b[0], b[1])
            for k in key.split(","):
                actions.setdefault(k.strip(), set()).add(action)
    clashes = {k: a for k, a in actions.items() if len(a) > 1 and (screen.__name__, k) not in SHARED_ON_PURPOSE}
    assert clashes == {}


def test_a_symbol_key_is_shown_as_its_character():
    """Found by a new player: help listed the live score's key as
    ``equals_sign`` instead of ``=``."""
    from momiji_tui.ui.models.keymap import key_label

    assert key_label("equals_sign") == "="
    assert key_label("left_square_bracket,[") == "["
    assert MomijiApp.key_for is not None and key_label(all_bindings(OWNERS)["table.score"].key) == "="
