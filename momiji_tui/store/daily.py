"""Who played the daily deal, and the secret its seeds come from, in files.

``<data dir>/daily/`` holds:

- ``secret``: the daily secret, 64 hex digits (32 bytes), made on first use
  with ``secrets`` and never changed (readable by its owner only);
- ``plays/<YYYY-MM-DD>/<account_id>.json``: one player's daily deal of that
  UTC day: ``{"name", "game_id", "score"}`` (score null until it is known).

A play is claimed by creating its file, never overwriting
(``_fs.write_file``): of two sessions of one account (two processes, two
hosts on one folder), exactly one gets the day's deal. Its score is written
later by replacing the file whole. The database keeps the same records
(``store/database/daily.py``); both answer :class:`DailyStore`.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Protocol

from ._fs import write_file
from .aside import move_aside
from .errors import WriteFailed

log = logging.getLogger("momiji_tui.store")

SECRET_BYTES = 32
_ACCOUNT_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-")


@dataclass(frozen=True)
class DailyPlay:
    """One player's daily deal: the UTC ``day``, who (``account_id``, and the
    ``name`` shown on the boards), the game, and the final score (None until
    the game has ended)."""

    day: date
    account_id: str
    name: str
    game_id: str
    score: int | None = None


class DailyStore(Protocol):
    """Where a host keeps its daily deals (files or the database)."""

    def secret(self) -> bytes:
        """The daily secret, made on first use. Raises ``WriteFailed``."""
        ...

    def claim(self, play: DailyPlay) -> bool:
        """Record ``play`` (its score None); False (nothing written) if its
        account already has a play that day. Raises ``WriteFailed``."""
        ...

    def release(self, day: date, account_id: str) -> None:
        """Forget a claim whose game could not be made."""
        ...

    def record_score(self, day: date, account_id: str, score: int) -> None:
        """The final score of that play. Raises ``WriteFailed``."""
        ...

    def plays(self, first: date, last: date) -> list[DailyPlay]:
        """Every play of the days ``first`` to ``last`` (both included)."""
        ...

    def history(self, account_id: str) -> list[DailyPlay]:
        """Every play of one account, latest day first."""
        ...


class FileDailyStore:
    """:class:`DailyStore` in ``<data_dir>/daily/``."""

    def __init__(self, data_dir: str | os.PathLike[str]) -> None:
        self.folder = Path(data_dir) / "daily"

    def _path(self, day: date, account_id: str) -> Path:
        if not account_id or not _ACCOUNT_CHARS.issuperset(account_id):
            raise ValueError(f"not an account id: {account_id!r}")
        return self.folder / "plays" / day.isoformat() / f"{account_id}.json"

    def secret(self) -> bytes:
        """See :class:`DailyStore` (two makers at once: the first file wins).
        A damaged secret (not 64 hex digits) is moved aside, logged, and a
        new one made: the deals from then on come from the new secret."""
        path = self.folder / "secret"
        found = _read_secret(path)
        if found is not None:
            return found
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_file(path, secrets.token_bytes(SECRET_BYTES).hex().encode() + b"\n")
            os.chmod(path, 0o600)
        except FileExistsError:
            pass
        except OSError as exc:
            raise WriteFailed("keep the daily secret", path, exc) from exc
        found = _read_secret(path)
        if found is None:
            raise WriteFailed("keep the daily secret", path, OSError("the new secret reads back damaged"))
        return found

    def claim(self, play: DailyPlay) -> bool:
        """See :class:`DailyStore`. A record there that cannot be read (no
        game in it: on no board, in no history) is moved aside and logged,
        and the play claimed."""
        path = self._path(play.day, play.account_id)
        data = json.dumps({"name": play.name, "game_id": play.game_id, "score": None}).encode() + b"\n"
        for _ in range(2):
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                write_file(path, data)
            except FileExistsError:
                if _read(play.day, path) is not None or not path.is_file():
                    return False
                try:
                    kept = move_aside(path, "The daily play record is damaged.", None)
                except (WriteFailed, FileExistsError):
                    return False  # cannot be moved (or another process did): it stands
                log.error("the daily play record %s was damaged; kept aside as %s", path, kept.name)
                continue
            except OSError as exc:
                raise WriteFailed("claim the daily deal", path, exc) from exc
            return True
        return False

    def release(self, day: date, account_id: str) -> None:
        """See :class:`DailyStore`."""
        self._path(day, account_id).unlink(missing_ok=True)

    def record_score(self, day: date, account_id: str, score: int) -> None:
        """See :class:`DailyStore`."""
        path = self._path(day, account_id)
        record = json.loads(path.read_text())
        record["score"] = score
        try:
            write_file(path, json.dumps(record).encode() + b"\n", replace=True)
        except OSError as exc:
            raise WriteFailed("save the daily score", path, exc) from exc

    def plays(self, first: date, last: date) -> list[DailyPlay]:
        """See :class:`DailyStore` (an unreadable record is left out)."""
        out: list[DailyPlay] = []
        for day_dir in sorted((self.folder / "plays").glob("????-??-??")):
            try:
                day = date.fromisoformat(day_dir.name)
            except ValueError:
                continue
            if first <= day <= last:
                out.extend(p for f in sorted(day_dir.glob("*.json")) if (p := _read(day, f)) is not None)
        return out

    def history(self, account_id: str) -> list[DailyPlay]:
        """See :class:`DailyStore`."""
        out = []
        for f in (self.folder / "plays").glob(f"????-??-??/{account_id}.json"):
            try:
                day = date.fromisoformat(f.parent.name)
            except ValueError:
                continue
            if (p := _read(day, f)) is not None:
                out.append(p)
        return sorted(out, key=lambda p: p.day, reverse=True)


def _read_secret(path: Path) -> bytes | None:
    """The secret in ``path``; None if there is none. A damaged one is
    moved aside (``aside.move_aside``) and logged, and None returned; raises
    ``WriteFailed`` if it cannot be moved (it is never overwritten)."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise WriteFailed("read the daily secret", path, exc) from exc
    try:
        secret = bytes.fromhex(raw.decode("ascii").strip())
        if len(secret) == SECRET_BYTES:
            return secret
        why = f"it holds {len(secret)} bytes, not {SECRET_BYTES}"
    except ValueError as exc:  # not ASCII, not hex
        why = str(exc)
    try:
        kept = move_aside(path, f"The daily secret is damaged ({why}).", None)
    except WriteFailed:
        if path.exists():
            raise
        return None  # another process moved it aside first
    log.error("the daily secret was damaged (%s); kept aside as %s; a new one is made", why, kept.name)
    return None


def _read(day: date, path: Path) -> DailyPlay | None:
    try:
        record = json.loads(path.read_text())
        score = record["score"]
        if score is not None and (not isinstance(score, int) or isinstance(score, bool)):
            return None
        return DailyPlay(day, path.stem, str(record["name"]), str(record["game_id"]), score)
    except (OSError, ValueError, KeyError, TypeError):
        return None
