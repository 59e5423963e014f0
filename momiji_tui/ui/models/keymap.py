"""The user's key map file: binding id → keys, read from TOML or JSON.

Every key binding of the app has an id (``table.collect``, ``help.close``…).
A file maps ids to new keys; Textual's ``App.set_keymap`` applies it::

    # ~/.config/momiji-tui/keymap.toml
    "table.collect" = "g"
    "table.end_turn" = ["E", "f10"]

A ``[keys]`` table holding the same pairs works too, and so does a JSON
object (a ``.json`` file). ``MOMIJI_KEYMAP`` names another file (tests use
it). A missing file is no keymap; a broken one is reported. An unknown id, a
key that is not a key, or a key another binding of the same screen already
uses (``"table.landscape" = "e"`` beside End turn) is reported in one line
and that entry is ignored, so the default key keeps working; the rest still
applies.

Pure data: the bindings come in as plain ``{id: default keys}`` groups (one
per screen) and the key vocabulary as a function; ``ui/keymap.py`` gives
them from the screens an app registers and from Textual.
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from platformdirs import user_config_path

KEYMAP_ENV = "MOMIJI_KEYMAP"
KEYMAP_NAME = "keymap.toml"

#: One screen's (or widget's, or app's) bindings: id → default keys
#: (``"escape,q"``); the keys live together, so two bindings on one key clash.
BindingGroup = Mapping[str, str]


def keymap_path() -> Path:
    """``$MOMIJI_KEYMAP``, else ``keymap.toml`` in the platform config folder."""
    env = os.environ.get(KEYMAP_ENV)
    if env:
        return Path(env).expanduser()
    return user_config_path("momiji-tui") / KEYMAP_NAME


@dataclass
class LoadedKeymap:
    """The keymap read (``keys``), and what was wrong with the file."""

    path: Path
    keys: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def key_label(keys: str) -> str:
    """The first key of a binding's keys, as a player reads it (``enter`` → ``⏎``)."""
    first = keys.split(",")[0].strip()
    names = {"escape": "Esc", "enter": "⏎", "space": "space", "question_mark": "?",
             "left": "←", "right": "→", "up": "↑", "down": "↓", "tab": "Tab",
             "equals_sign": "=", "plus": "+", "minus": "-", "full_stop": ".", "comma": ",", "slash": "/",
             "left_square_bracket": "[", "right_square_bracket": "]"}
    if first in names:
        return names[first]
    if first.startswith("ctrl+"):
        return "^" + first[5:]
    return first


def default_keys(groups: Sequence[BindingGroup]) -> dict[str, str]:
    """Every binding id → its default keys (the first group naming an id wins)."""
    out: dict[str, str] = {}
    for group in groups:
        for binding_id, keys in group.items():
            out.setdefault(binding_id, keys)
    return out


def clashes(mapped: Mapping[str, str], groups: Sequence[BindingGroup]) -> dict[str, str]:
    """``{binding id: id of the other binding of the same group already on
    that key}`` for each mapped binding whose new keys another binding of its
    group uses (by default or by the map)."""
    out: dict[str, str] = {}
    for group in groups:
        keys = {bid: set((mapped.get(bid) or default).split(",")) for bid, default in group.items()}
        for bid in group:
            if bid not in mapped:
                continue
            for other, other_keys in keys.items():
                if other != bid and keys[bid] & other_keys:
                    out.setdefault(bid, other)
    return out


def _keys_value(value: object) -> str | None:
    if isinstance(value, str) and value.strip():
        return ",".join(k.strip() for k in value.split(",") if k.strip())
    if isinstance(value, list) and value and all(isinstance(k, str) and k.strip() for k in value):
        return ",".join(k.strip() for k in value)
    return None


def _read(path: Path, result: LoadedKeymap) -> dict[str, object] | None:
    """The file's table of id → keys, or None (and a problem) when it has none."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        result.problems.append(f"cannot read {path}: {exc.strerror or exc}")
        return None
    json_file = path.suffix.lower() == ".json"
    try:
        text = raw.decode("utf-8")
        data = json.loads(text) if json_file else tomllib.loads(text)
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:  # TOML/JSONDecodeError are ValueErrors
        why = "nested too deep" if isinstance(exc, RecursionError) else exc
        result.problems.append(f"{path} is not valid {'JSON' if json_file else 'TOML'}: {why}")
        return None
    if not isinstance(data, dict):
        result.problems.append(f"{path} must hold a table of binding id = keys")
        return None
    keys = data.get("keys")
    return keys if isinstance(keys, dict) else data


#: Keys a key map may not take from their meaning (a binding whose default
#: already has one may keep it): a player can always quit and go back.
RESERVED_KEYS = {"ctrl+c": "quitting (ctrl+c)", "ctrl+q": "quitting (ctrl+q)", "escape": "going back (Esc)"}


def read_keymap(path: Path, groups: Sequence[BindingGroup], is_valid_key: Callable[[str], bool]) -> LoadedKeymap:
    """Read the key map at ``path`` against the bindings ``groups`` (the
    accepted ids and their default keys, one group per screen); ``is_valid_key``
    says whether a key can be parsed. Never raises: problems are listed in the
    result, one line each, and an entry with a problem is left out, so its
    default key keeps working."""
    result = LoadedKeymap(path)
    data = _read(path, result)
    if data is None:
        return result
    defaults = default_keys(groups)
    for binding_id, value in data.items():
        keys = _keys_value(value)
        if binding_id not in defaults:
            result.problems.append(f"unknown binding id {binding_id!r}")
        elif keys is None:
            result.problems.append(f"{binding_id!r}: keys must be a string or a list of strings")
        elif bad := [k for k in keys.split(",") if not is_valid_key(k)]:
            still = f"the default key {key_label(defaults[binding_id])} still works"
            names = ", ".join(repr(k) for k in bad)
            result.problems.append(f"{binding_id!r}: {names} {'is not a key' if len(bad) == 1 else 'are not keys'} "
                                   f"Textual knows (e.g. g, G, ctrl+g, f5, question_mark); {still}")
        elif taken := [k for k in keys.split(",") if k in RESERVED_KEYS and k not in defaults[binding_id].split(",")]:
            result.problems.append(f"{binding_id!r}: {taken[0]} is kept for {RESERVED_KEYS[taken[0]]}; "
                                   f"the default key {key_label(defaults[binding_id])} still works")
        else:
            result.keys[binding_id] = keys
    for binding_id, other in clashes(result.keys, groups).items():
        keys = result.keys.pop(binding_id)
        result.problems.append(f"{binding_id!r}: {keys!r} is already the key of {other!r} on the same screen; "
                               f"the default key {key_label(defaults[binding_id])} still works")
    return result
