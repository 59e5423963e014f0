"""How a player's name is shown to others, so nobody can pass as someone else.

A name typed before ``@`` is only a hint: anyone can type "alice". So the
lobby never shows it bare unless it is bound: on a server, a name belongs to
the first key that used it (``bound_names.py``) and such a name is shown as
it is, ``"alice"``: no other key and no guest can get it. A guest (no key) is
``"alice (guest)"``. A key holder whose name is not bound (the server's store
could not be asked) is ``"alice·Ab3xQ8pLm2k"``, the name and the first
:data:`HINT_CHARS` characters of their key's SHA256 fingerprint (what
``ssh-keygen -lf`` prints after ``SHA256:``): 66 bits, so forging a key with
the same tag costs about 2⁶⁶ tries. Display names keep only letters, digits,
``-`` and ``_`` (ssh/identity.py), so nobody can type the marks themselves.
Within one lobby two people (two account ids) never show the same label: the
later one gets ``-2``, ``-3``… after their name.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from ..safe_text import safe_text

HINT_CHARS = 11
"""Characters of the key fingerprint shown after an unbound key holder's
name: 11 base64 characters are 66 bits (more than 2⁶⁴ tries to forge)."""
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
    @property
    def bound(self) -> bool: ...


def player_label(player: Named, suffix: str = "") -> str:
    """The name others see: ``"alice (guest)"``, ``"alice·Ab3xQ8pLm2k"``, or the
    bare name when it is bound to the player's key or the player has neither
    mark (local front ends, tests).
    ``suffix`` (e.g. ``"-2"``) goes right after the name; any control
    character in the name is shown escaped (``safe_text``). Never raises."""
    name = safe_text(str(player.name)) + suffix
    if player.is_guest:
        return name + GUEST_MARK
    if player.bound:
        return name
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
