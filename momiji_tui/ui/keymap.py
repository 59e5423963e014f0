"""The user's key map: binding id → keys, read from a TOML or JSON file.

Every key binding of the app has an id (``table.collect``, ``help.close``…).
A file maps ids to new keys; Textual's ``App.set_keymap`` applies it::

    # ~/.config/momiji-tui/keymap.toml
    "table.collect" = "g"
    "table.end_turn" = ["E", "f10"]

A ``[keys]`` table holding the same pairs works too, and so does a JSON
object (a ``.json`` file). ``MOMIJI_KEYMAP`` names another file (tests use
it). A missing file is no keymap; a broken one is reported. Every binding id
of every screen is accepted (``all_bindings`` collects them from the
screens' own ``BINDINGS``); an unknown id, or a key Textual cannot parse
(``ctrl+banana+alt``), or a key another binding of the same screen already
uses (``"table.landscape" = "e"`` beside End turn), is reported in one line
and that entry is ignored, so the default key keeps working; the rest still
applies.
"""

from __future__ import annotations

import importlib
import inspect
import json
import os
import pkgutil
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from textual.binding import Binding
from textual.dom import DOMNode
from textual.keys import REPLACED_KEYS, Keys, key_to_character

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


#: Modifiers Textual understands in a key (``ctrl+shift+a``).
MODIFIERS = frozenset({"ctrl", "shift", "alt", "meta", "super", "hyper"})
#: Named keys of Textual's vocabulary (``textual.keys.Keys``): ``f1``, ``home``, ``left``…
KEY_NAMES = frozenset(k.value.rpartition("+")[2] for k in Keys if not k.value.startswith("<"))


def is_valid_key(key: str) -> bool:
    """True if Textual can parse ``key`` (one key, no commas): modifiers from
    ``MODIFIERS``, each at most once, then a printable character, a named key
    of ``textual.keys.Keys`` (``f5``, ``escape``) or a character's name
    (``question_mark``, ``slash``). ``ctrl+banana+alt`` is not."""
    if not key or key != key.strip() or any(c.isspace() for c in key):
        return False
    *modifiers, base = key.split("+")
    if any(m not in MODIFIERS for m in modifiers) or len(set(modifiers)) != len(modifiers):
        return False
    if len(base) == 1:
        return base.isprintable()
    return base in KEY_NAMES or base in REPLACED_KEYS or key_to_character(base) is not None


def _ui_classes() -> list[type]:
    """Every App, Screen and Widget class defined in ``momiji_tui.ui``."""
    from .. import ui

    out: list[type] = []
    for info in pkgutil.walk_packages(ui.__path__, f"{ui.__name__}."):  # ui/screens, ui/widgets too
        module = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__ and issubclass(cls, DOMNode):
                out.append(cls)
    return out


@lru_cache(maxsize=1)
def bindings_by_owner() -> dict[type, tuple[Binding, ...]]:
    """Each screen's (or widget's, or app's) own bindings with an id: the
    keys that are live together, where two bindings on one key would clash."""
    out: dict[type, tuple[Binding, ...]] = {}
    for owner in _ui_classes():
        own = tuple(b for b in owner.__dict__.get("BINDINGS", ()) if isinstance(b, Binding) and b.id)
        if own:
            out[owner] = own
    return out


def _clashes(mapped: dict[str, str]) -> dict[str, str]:
    """``{binding id: id of the other binding of the same screen already on
    that key}`` for each mapped binding whose new keys another binding of its
    screen uses (by default or by the map)."""
    out: dict[str, str] = {}
    for own in bindings_by_owner().values():
        keys = {b.id: set((mapped.get(b.id) or b.key).split(",")) for b in own}
        for b in own:
            if b.id not in mapped:
                continue
            for other, other_keys in keys.items():
                if other != b.id and keys[b.id] & other_keys:
                    out.setdefault(b.id, other)
    return out


@lru_cache(maxsize=1)
def all_bindings() -> dict[str, Binding]:
    """Every binding of the app's screens (and widgets), by id: the defaults,
    before a key map. Built from the classes' own ``BINDINGS``, so a new
    screen's ids are known without a list to keep up to date."""
    out: dict[str, Binding] = {}
    for owner in _ui_classes():
        for b in owner.__dict__.get("BINDINGS", ()):
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
    """Read the key map at ``path`` (default ``keymap_path()``); ``known``:
    the binding ids accepted (default: ``all_bindings()``). Never raises:
    problems are listed in the result, one line each, and an entry with a
    problem is left out, so its default key keeps working."""
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
        elif bad := [k for k in keys.split(",") if not is_valid_key(k)]:
            default = all_bindings().get(binding_id)
            still = f"the default key {key_label(default.key)} still works" if default else "it keeps its default key"
            names = ", ".join(repr(k) for k in bad)
            result.problems.append(f"{binding_id!r}: {names} {'is not a key' if len(bad) == 1 else 'are not keys'} "
                                   f"Textual knows (e.g. g, G, ctrl+g, f5, question_mark); {still}")
        else:
            result.keys[binding_id] = keys
    defaults = all_bindings()
    for binding_id, other in _clashes(result.keys).items():
        keys = result.keys.pop(binding_id)
        default = defaults[binding_id]
        result.problems.append(f"{binding_id!r}: {keys!r} is already the key of {other!r} on the same screen; "
                               f"the default key {key_label(default.key)} still works")
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
