"""The user's key map: binding id → keys, read from a TOML or JSON file.

Every key binding of the app has an id (``table.collect``, ``help.close``…).
A file maps ids to new keys; Textual's ``App.set_keymap`` applies it::

    # ~/.config/momiji-tui/keymap.toml
    "table.collect" = "g"
    "table.end_turn" = ["E", "f10"]

A ``[keys]`` table holding the same pairs works too, and so does a JSON
object (a ``.json`` file). ``MOMIJI_KEYMAP`` names another file (tests use
it). A missing file is no keymap; a broken one, or unknown ids, are
reported and the rest still applies.
"""

from __future__ import annotations

import json
import os
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from textual.binding import Binding

KEYMAP_ENV = "MOMIJI_KEYMAP"
KEYMAP_NAME = "keymap.toml"


def keymap_path() -> Path:
    """``$MOMIJI_KEYMAP``, else ``keymap.toml`` in the platform config folder."""
    env = os.environ.get(KEYMAP_ENV)
    if env:
        return Path(env).expanduser()
    from platformdirs import user_config_path

    return user_config_path("momiji-tui") / KEYMAP_NAME


@dataclass
class LoadedKeymap:
    """The keymap read (``keys``), and what was wrong with the file."""

    path: Path
    keys: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


@lru_cache(maxsize=1)
def all_bindings() -> dict[str, Binding]:
    """Every binding of the app's screens, by id (the defaults, before a key map)."""
    from .app import MomijiApp
    from .choice import ChoiceScreen
    from .draft import DraftScreen
    from .help import HelpScreen
    from .menu import MenuScreen, NewGameScreen
    from .scoring import ScoringScreen
    from .table_screen import TableScreen

    out: dict[str, Binding] = {}
    for owner in (MomijiApp, TableScreen, DraftScreen, ScoringScreen, MenuScreen, NewGameScreen,
                  HelpScreen, ChoiceScreen):
        for b in owner.BINDINGS:
            if isinstance(b, Binding) and b.id:
                out.setdefault(b.id, b)
    return out


def _keys_value(value: object) -> str | None:
    if isinstance(value, str) and value.strip():
        return ",".join(k.strip() for k in value.split(",") if k.strip())
    if isinstance(value, list) and value and all(isinstance(k, str) and k.strip() for k in value):
        return ",".join(k.strip() for k in value)
    return None


def load_keymap(path: Path | None = None, known: set[str] | None = None) -> LoadedKeymap:
    """Read the key map at ``path`` (default ``keymap_path()``). Never raises:
    problems are listed in the result."""
    path = path or keymap_path()
    result = LoadedKeymap(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return result
    except OSError as exc:
        result.problems.append(f"cannot read {path}: {exc.strerror or exc}")
        return result
    try:
        text = raw.decode("utf-8")
        data = json.loads(text) if path.suffix.lower() == ".json" else tomllib.loads(text)
    except (UnicodeDecodeError, ValueError) as exc:  # TOMLDecodeError and JSONDecodeError are ValueErrors
        result.problems.append(f"{path} is not valid {'JSON' if path.suffix.lower() == '.json' else 'TOML'}: {exc}")
        return result
    if not isinstance(data, dict):
        result.problems.append(f"{path} must hold a table of binding id = keys")
        return result
    if isinstance(data.get("keys"), dict):
        data = data["keys"]
    known = known if known is not None else set(all_bindings())
    for binding_id, value in data.items():
        keys = _keys_value(value)
        if binding_id not in known:
            result.problems.append(f"unknown binding id {binding_id!r}")
        elif keys is None:
            result.problems.append(f"{binding_id!r}: keys must be a string or a list of strings")
        else:
            result.keys[binding_id] = keys
    return result


def key_label(keys: str) -> str:
    """The first key of a binding's keys, as a player reads it (``enter`` → ``⏎``)."""
    first = keys.split(",")[0].strip()
    names = {"escape": "Esc", "enter": "⏎", "space": "space", "question_mark": "?",
             "left": "←", "right": "→", "up": "↑", "down": "↓", "tab": "Tab"}
    if first in names:
        return names[first]
    if first.startswith("ctrl+"):
        return "^" + first[5:]
    return first
