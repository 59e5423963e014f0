"""Names bound to keys: on a server, a name belongs to the first key that
used it (ARCHITECTURE "SSH").

A player's SSH username is the name they ask for. With a key, they get it
if nobody holds it (it is theirs from then on) or if their key is one of
its keys; otherwise the first of ``name-2``, ``name-3``… that is free or
theirs, and one line says so. A guest (no key) never gets a name a key
holds, and claims none. The owner of a name adds another key to it with a
one-time code: shown in a session of a key that holds the name, typed in a
session of the new key. The names live in the server's store
(:class:`~momiji_tui.store.names.FileNames` or the database's
``DatabaseNames``), which decides who was first.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Protocol

from ..safe_text import safe_text
from ..store.names import NameRecord

MAX_NAME = 16
"""Longest name given, suffix included (as ``ssh/identity.MAX_DISPLAY_NAME``)."""
NUMBERED = 50
"""``name-2`` … ``name-50`` are tried in turn; then random suffixes."""
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""A code's letters: no 0/O, 1/I to mistake (32 letters: 5 bits each)."""
CODE_LETTERS = 10
"""Letters of a code (50 bits), shown as two groups of five."""
CODE_LIFETIME = timedelta(minutes=10)
MAX_CODE_TRIES = 5
"""Wrong codes one session may type before it may type no more."""


class NameBook(Protocol):
    """Where a server keeps its names (``store.names.FileNames``,
    ``store.database.names.DatabaseNames``). Methods raise ``OSError`` or
    ``psycopg.Error`` when the store fails."""

    def lookup(self, name: str) -> NameRecord | None: ...
    def claim(self, name: str, fingerprint: str, account_id: str, now: datetime) -> NameRecord: ...
    def add_code(self, code_hash: str, name: str, expires: datetime, now: datetime) -> None: ...
    def use_code(self, code_hash: str, fingerprint: str, now: datetime) -> NameRecord | None: ...


def candidates(asked: str) -> Iterator[str]:
    """``asked``, then ``asked-2`` … ``asked-50``, then random ``asked-xxxx``
    forever; each cut to :data:`MAX_NAME` characters."""
    yield asked[:MAX_NAME]
    for n in range(2, NUMBERED + 1):
        yield _suffixed(asked, f"-{n}")
    while True:
        yield _suffixed(asked, f"-{secrets.token_hex(3)}")


def _suffixed(asked: str, suffix: str) -> str:
    return asked[:MAX_NAME - len(suffix)] + suffix


@dataclass(frozen=True)
class Bound:
    """The name a session got: ``name`` (as others see it, without a guest's
    mark), ``account_id`` (whose games), ``asked`` (the username typed)."""

    name: str
    account_id: str
    asked: str

    @property
    def taken(self) -> bool:
        """True when the name asked for belongs to someone else."""
        return self.name.lower() != self.asked.lower()[:MAX_NAME]


def bind_key(book: NameBook, asked: str, fingerprint: str, own_account: str, now: datetime) -> Bound:
    """The name a key gets for the username ``asked`` (sanitized,
    ``[A-Za-z0-9_-]``): the first of :func:`candidates` that is free (then
    claimed for this key, its games under ``own_account``) or already one
    of this key's. Raises what the store raises."""
    for name in candidates(asked):
        record = book.claim(name, fingerprint, own_account, now)
        if fingerprint in record.keys:
            return Bound(record.name, record.account_id, asked)
    raise AssertionError("unreachable: candidates never ends")


def guest_name(book: NameBook, asked: str, account_id: str) -> Bound:
    """The name a guest gets for ``asked``: the first of :func:`candidates`
    no key holds (nothing is claimed). Raises what the store raises."""
    for name in candidates(asked):
        if book.lookup(name) is None:
            return Bound(name, account_id, asked)
    raise AssertionError("unreachable: candidates never ends")


def taken_line(asked: str, shown_as: str) -> str:
    """The one line a player whose name was taken reads at the lobby."""
    return f"The name {safe_text(asked)} belongs to another key: you are {safe_text(shown_as)} here."


def code_hash(code: str) -> str:
    """The SHA-256 (hex) a code is stored as: its letters, upper case, no spaces or dashes."""
    letters = "".join(ch for ch in code.upper() if ch.isalnum())
    return hashlib.sha256(letters.encode("ascii", "replace")).hexdigest()


class NameSession:
    """One SSH session's name and what it may do with it: show a code that
    adds a key to its name, or type one to add its own key to another name.

    ``book``: the server's names; ``bound``: this session's name;
    ``fingerprint``: its key (None for a guest); ``clock``: now, as an
    aware datetime (tests inject one). ``tries``: wrong codes typed so far."""

    def __init__(self, book: NameBook, bound: Bound, fingerprint: str | None,
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.book = book
        self.bound = bound
        self.fingerprint = fingerprint
        self.now = clock
        self.tries = 0

    def new_code(self) -> str:
        """A new one-time code (``"ABCDE-FGHJK"``) adding a key to this
        session's name, valid :data:`CODE_LIFETIME`. Raises ``LookupError``
        for a guest, what the store raises if it fails."""
        if self.fingerprint is None:
            raise LookupError("A guest has no name of their own to add a key to: log in with a key.")
        letters = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LETTERS))
        now = self.now()
        self.book.add_code(code_hash(letters), self.bound.name, now + CODE_LIFETIME, now)
        return f"{letters[:5]}-{letters[5:]}"

    def use_code(self, code: str) -> str:
        """Add this session's key to the name ``code`` was made for; return
        what to tell the player (one line). Never raises for a wrong code;
        raises what the store raises if it fails."""
        if self.fingerprint is None:
            return "A guest has no key to add: log in with your other key and type the code there."
        if self.tries >= MAX_CODE_TRIES:
            return "Too many wrong codes in this session: log in again to try more."
        record = self.book.use_code(code_hash(code), self.fingerprint, self.now())
        if record is None:
            self.tries += 1
            return "That code is wrong, used or expired: make a new one in your other session."
        name = safe_text(record.name)
        return f"This key now holds the name {name} too: log in again as {name} (ssh {name}@…)."

