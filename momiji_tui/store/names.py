"""Names bound to SSH keys, in the server's data dir (ARCHITECTURE "SSH").

A name belongs to the first key that claimed it; its owner may add more
keys (with a one-time code). Every write is one file created exclusively,
never a file rewritten, so two processes (``--workers``, or two hosts on one
shared data dir) racing for a name cannot both get it: of two exclusive
creates of one path exactly one succeeds. Layout under ``<data>/names/``::

    <n>.json                 the name: {"name", "account_id", "first_key", "claimed"}
    <n>.keys/<k>             one file per key added later (its fingerprint)
    codes/<code-hash>.json   a one-time code: {"name_key", "expires"} (used: renamed away)

``<n>`` is a hash of the name in lower case (:func:`name_key`), ``<k>`` of
the key's fingerprint: a file is never named after what a client typed.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from . import _fs
from .ids import as_utc

NAME_KEY_RE = re.compile(r"[a-z0-9_-]{1,40}")


@dataclass(frozen=True)
class NameRecord:
    """A claimed name: ``name`` as its owner first spelled it, the
    ``account_id`` its games are kept under, and every key (``"SHA256:…"``
    fingerprints) that may show it."""

    name: str
    account_id: str
    keys: frozenset[str]


def name_key(name: str) -> str:
    """The key a name is stored under (lower case). Raises ``ValueError``
    for a name with characters other than ``[A-Za-z0-9_-]`` or empty."""
    key = name.lower()
    if not NAME_KEY_RE.fullmatch(key):
        raise ValueError(f"not a name: {name!r}")
    return key


def _hashed(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


class FileNames:
    """The names of a server on its data dir's files. ``root``: ``<data>/names``
    (made on first write). Every method raises ``OSError`` if the disk
    refuses, ``ValueError`` for a bad name or a damaged name file."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root)

    def lookup(self, name: str) -> NameRecord | None:
        """The record of ``name``, or None if nobody claimed it."""
        stem = _hashed(name_key(name))
        try:
            data = json.loads((self.root / f"{stem}.json").read_bytes())
        except FileNotFoundError:
            return None
        except json.JSONDecodeError as exc:
            raise ValueError(f"damaged name file {stem}.json: {exc}") from None
        keys = {str(data["first_key"])}
        added = self.root / f"{stem}.keys"
        if added.is_dir():
            keys |= {p.read_text("utf-8").strip() for p in added.iterdir() if not p.name.startswith(".")}
        return NameRecord(str(data["name"]), str(data["account_id"]), frozenset(keys))

    def claim(self, name: str, fingerprint: str, account_id: str, now: datetime) -> NameRecord:
        """Give ``name`` to ``fingerprint`` (games under ``account_id``) if
        nobody holds it; either way return the name's record as it is now
        (the caller checks whether the key is among its keys)."""
        key = name_key(name)
        found = self.lookup(key)
        if found is not None:
            return found
        self.root.mkdir(parents=True, exist_ok=True)
        body = {"name": name, "account_id": account_id, "first_key": fingerprint,
                "claimed": as_utc(now).isoformat(timespec="seconds")}
        try:
            _fs.write_file(self.root / f"{_hashed(key)}.json", json.dumps(body).encode("utf-8"))
        except FileExistsError:
            pass  # another process claimed it first: theirs
        record = self.lookup(key)
        assert record is not None
        return record

    def add_key(self, name: str, fingerprint: str) -> None:
        """Let ``fingerprint`` show ``name`` too (no-op if it already may)."""
        folder = self.root / f"{_hashed(name_key(name))}.keys"
        folder.mkdir(parents=True, exist_ok=True)
        try:
            _fs.write_file(folder / _hashed(fingerprint), fingerprint.encode("utf-8"))
        except FileExistsError:
            pass

    def add_code(self, code_hash: str, name: str, expires: datetime, now: datetime) -> None:
        """Keep a one-time code (its hash) that adds a key to ``name`` until
        ``expires``; codes expired at ``now`` are removed first."""
        codes = self.root / "codes"
        codes.mkdir(parents=True, exist_ok=True)
        for old in codes.glob("*.json"):
            try:
                if datetime.fromisoformat(json.loads(old.read_bytes())["expires"]) <= as_utc(now):
                    old.unlink()
            except (OSError, ValueError, KeyError, TypeError):
                continue  # used meanwhile, or damaged: never worth failing a new code for
        body = {"name_key": name_key(name), "expires": as_utc(expires).isoformat()}
        _fs.write_file(codes / f"{_safe_hash(code_hash)}.json", json.dumps(body).encode("utf-8"))

    def use_code(self, code_hash: str, fingerprint: str, now: datetime) -> NameRecord | None:
        """Use the code once: if it exists and has not expired, add
        ``fingerprint`` to its name and return the name's record. None for
        an unknown, used or expired code. Of two uses at once, one wins:
        the code file is renamed away before it is read. If the key cannot
        be added (``OSError``: a full disk), the code is put back, still good."""
        path = self.root / "codes" / f"{_safe_hash(code_hash)}.json"
        taken = path.with_name(f".{path.name}.{secrets.token_hex(4)}.used")
        try:
            os.rename(path, taken)
        except FileNotFoundError:
            return None
        try:
            data = json.loads(taken.read_bytes())
            if datetime.fromisoformat(str(data["expires"])) <= as_utc(now):
                return None
            try:
                self.add_key(str(data["name_key"]), fingerprint)
            except OSError:
                os.rename(taken, path)  # not used after all: the code may be typed again
                raise
        finally:
            taken.unlink(missing_ok=True)
        return self.lookup(str(data["name_key"]))


def _safe_hash(code_hash: str) -> str:
    if not re.fullmatch(r"[0-9a-f]{64}", code_hash):
        raise ValueError("not a code hash")
    return code_hash
