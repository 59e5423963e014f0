"""The key map of an app: the ids and default keys of the bindings of the
screens it registers (``MomijiApp.SCREEN_CLASSES``), Textual's key
vocabulary, and the user's file read against them (``models/keymap.py``).

Every binding id of every registered screen is accepted; a screen's ids are
known because the app registers the screen, not from a list kept by hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from textual.binding import Binding
from textual.keys import REPLACED_KEYS, Keys, key_to_character

from .models.keymap import BindingGroup, LoadedKeymap, keymap_path, read_keymap

#: The classes whose own ``BINDINGS`` make a key map: an app and its screens.
Owners = tuple[type, ...]

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


@lru_cache(maxsize=8)
def bindings_by_owner(owners: Owners) -> dict[type, tuple[Binding, ...]]:
    """Each owner's own bindings with an id (its class ``BINDINGS``, not the
    inherited ones): the keys that are live together, where two bindings on
    one key would clash."""
    out: dict[type, tuple[Binding, ...]] = {}
    for owner in owners:
        own = tuple(b for b in owner.__dict__.get("BINDINGS", ()) if isinstance(b, Binding) and b.id)
        if own:
            out[owner] = own
    return out


@lru_cache(maxsize=8)
def all_bindings(owners: Owners) -> dict[str, Binding]:
    """Every binding of ``owners`` by id: the defaults, before a key map."""
    out: dict[str, Binding] = {}
    for own in bindings_by_owner(owners).values():
        for b in own:
            if b.id:
                out.setdefault(b.id, b)
    return out


def binding_groups(owners: Owners) -> list[BindingGroup]:
    """``owners``' bindings as plain ``{id: default keys}`` groups, one per owner."""
    return [{b.id: b.key for b in own if b.id} for own in bindings_by_owner(owners).values()]


def load_keymap(path: Path | None, owners: Owners) -> LoadedKeymap:
    """Read the key map at ``path`` (None: ``keymap_path()``) against the
    bindings of ``owners``. Never raises: each problem is one line of the
    result (see ``models.keymap.read_keymap``)."""
    return read_keymap(path or keymap_path(), binding_groups(owners), is_valid_key)


def owners_of(classes: Sequence[type]) -> Owners:
    """``classes`` without repeats, in order (a hashable key for the caches)."""
    return tuple(dict.fromkeys(classes))
