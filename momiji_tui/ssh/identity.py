"""Who is on the other end of an SSH session."""

from __future__ import annotations

import hashlib
import re
import secrets
import unicodedata
from dataclasses import dataclass

MAX_DISPLAY_NAME = 16
"""Longest display name kept from a username hint, in characters."""

_NOT_ALLOWED = re.compile(r"[^A-Za-z0-9_-]+")


def sanitize_display_name(hint: str, fallback: str = "guest") -> str:
    """Turn a client-chosen SSH username into a display name.

    Keeps ASCII letters, digits, ``_`` and ``-`` (after NFKC folding) and at
    most :data:`MAX_DISPLAY_NAME` of them; returns ``fallback`` if nothing is
    left. The result is for showing on screen only, never for paths.
    """
    folded = unicodedata.normalize("NFKC", hint)
    return _NOT_ALLOWED.sub("", folded)[:MAX_DISPLAY_NAME] or fallback


@dataclass(frozen=True)
class Identity:
    """A player as the SSH server knows them.

    Attributes:
        fingerprint: the verified public key's ``"SHA256:..."`` fingerprint,
            or None for a guest.
        guest_id: a random hex id for a guest (new on every login), or None.
        display_name: sanitized username hint; not unique, not trusted.
        account_id: opaque, filesystem-safe (``[a-z0-9-]``) and stable for a
            key, for per-identity folders; for a guest it lives one login.
    """

    fingerprint: str | None
    guest_id: str | None
    display_name: str
    account_id: str

    @property
    def is_guest(self) -> bool:
        """True when the player logged in without a key."""
        return self.fingerprint is None

    @property
    def key(self) -> str:
        """A unique id string: the fingerprint, or ``"guest:<id>"``."""
        return self.fingerprint or f"guest:{self.guest_id}"

    @classmethod
    def from_key(cls, fingerprint: str, username: str) -> Identity:
        """Identity of a player whose key signature was verified."""
        if not fingerprint.startswith("SHA256:"):
            raise ValueError(f"expected a SHA256 fingerprint, got {fingerprint!r}")
        digest = hashlib.sha256(fingerprint.encode("ascii")).hexdigest()
        return cls(
            fingerprint=fingerprint,
            guest_id=None,
            display_name=sanitize_display_name(username, fallback="player"),
            account_id=f"key-{digest[:32]}",
        )

    @classmethod
    def guest(cls, username: str) -> Identity:
        """A fresh guest identity (no key)."""
        guest_id = secrets.token_hex(8)
        return cls(
            fingerprint=None,
            guest_id=guest_id,
            display_name=sanitize_display_name(username, fallback="guest"),
            account_id=f"guest-{guest_id}",
        )
