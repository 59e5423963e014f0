"""How a player's name is shown to others, so nobody can pass as someone else.

A name typed before ``@`` is only a hint: anyone can type "alice". So the
lobby never shows it bare: a guest (no key) is ``"alice (guest)"``; a key
holder is ``"alice·Ab3x"``, the name and the first :data:`HINT_CHARS`
characters of their key's SHA256 fingerprint (what ``ssh-keygen -lf`` prints
after ``SHA256:``), so the real alice is told apart from another key that
chose the same name. Display names keep only letters, digits, ``-`` and
``_`` (ssh/identity.py), so nobody can type the marks themselves. Within one
lobby two people (two account ids) never show the same label: the later one
gets ``-2``, ``-3``… after their name.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from ..safe_text import safe_text

HINT_CHARS = 4
"""Characters of the key fingerprint shown after a key holder's name."""
GUEST_MARK = " (guest)"
KEY_MARK = "·"


class Named(Protocol):
    """What :func:`player_label` needs of a player (``session.lobby.Player``,
    a frozen dataclass: read-only attributes)."""

    @property
    def account_id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def is_guest(self) -> bool: ...
    @property
    def key_hint(self) -> str: ...


def player_label(player: Named, suffix: str = "") -> str:
    """The name others see: ``"alice (guest)"``, ``"alice·Ab3x"``, or the bare
    name when the player has neither mark (local front ends, tests).
    ``suffix`` (e.g. ``"-2"``) goes right after the name; any control
    character in the name is shown escaped (``safe_text``). Never raises."""
    name = safe_text(str(player.name)) + suffix
    if player.is_guest:
        return name + GUEST_MARK
    hint = player.key_hint.removeprefix("SHA256:")[:HINT_CHARS]
    return f"{name}{KEY_MARK}{hint}" if hint else name


def unique_label(player: Named, others: Iterable[tuple[str, str]]) -> str:
    """``player``'s label, made different from every label of another person.

    ``others``: (account_id, label) of everyone already shown; labels of the
    same account id (the same key in another session) may repeat.
    """
    taken = {label for account, label in others if account != player.account_id}
    label, n = player_label(player), 1
    while label in taken:
        n += 1
        label = player_label(player, f"-{n}")
    return label


def unique_name(name: str, taken: set[str]) -> str:
    """``name``, or ``name-2``, ``name-3``… the first not in ``taken`` (a seat's name at one table)."""
    if name not in taken:
        return name
    n = 2
    while f"{name}-{n}" in taken:
        n += 1
    return f"{name}-{n}"
