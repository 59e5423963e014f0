"""Errors raised by the store. All derive from :class:`StoreError`."""

from __future__ import annotations

import errno
import logging
import os
from pathlib import Path


class StoreError(Exception):
    """Base class of every error the store raises on purpose."""


class InvalidGameId(StoreError, ValueError):
    """A game id is not of the form ``YYYYMMDD-HHMMSS-xxxxxx`` (see ``ids``)."""


class GameExists(StoreError, FileExistsError):
    """A game with this id (or a file at this path) already exists; nothing was written."""


class GameNotFound(StoreError, LookupError):
    """No saved game has this id."""


class DamagedLog(StoreError):
    """A save file cannot be read: bad JSON, bad header, rejected by the rules, unreadable.

    ``path`` is the file, ``reason`` a sentence a player can read.
    """

    def __init__(self, path: str | os.PathLike[str], reason: str) -> None:
        self.path = Path(path)
        self.reason = reason
        super().__init__(f"The saved game {self.path.name} cannot be read: {reason}")


class HeaderRejected(ValueError):
    """Raised by a load validator for a header it cannot use (e.g. seats that
    are not seats): the save is damaged, and the message is the reason as it
    is, not the rules' refusal."""


class NewerFormat(StoreError):
    """A save file was written by a newer momiji-tui, in a format this version cannot read.
    ``found``/``supported`` are format versions (rules versions, strings, in :class:`NewerRules`)."""

    found: int | str
    supported: int | str

    def __init__(self, path: str | os.PathLike[str], found: int, supported: int) -> None:
        self.path = Path(path)
        self.found = found
        self.supported = supported
        super().__init__(
            f"The saved game {self.path.name} was made by a newer momiji-tui "
            f"(format {found}); this version reads up to {supported}. "
            "Newer version — update momiji to open it."
        )


class NewerRules(NewerFormat):
    """A save file's rules are newer than this version's (same save format):
    the game may hold events this version does not know. Not damaged: never
    moved aside, never rewritten. ``found``/``supported`` are rules versions."""

    def __init__(self, path: str | os.PathLike[str], found: str, supported: str) -> None:
        StoreError.__init__(
            self,
            f"The saved game {Path(path).name} was made with newer rules ({found}; this version "
            f"knows {supported}): newer version — update momiji to open it.",
        )
        self.path = Path(path)
        self.found = found
        self.supported = supported


class GameInUse(StoreError):
    """The game is already open for play (a writer holds its lock): in another
    terminal, another app or an SSH session. ``where`` says which, in words."""

    def __init__(self, path: str | os.PathLike[str], where: str) -> None:
        self.path = Path(path)
        self.where = where
        game = self.path.name.split(".", 1)[0]
        super().__init__(
            f"The game {game} is already open for play {where}. Close it there first "
            f"(you can still replay it: momiji replay {game})."
        )


#: errno → what a player reads.
_REASONS = {
    errno.ENOSPC: "disk full",
    errno.EDQUOT: "disk quota exceeded",
    errno.EROFS: "read-only file system",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EIO: "input/output error (the disk may be failing)",
    errno.ENOENT: "the file or its folder is gone",
}


def io_reason(exc: OSError) -> str:
    """What went wrong with a file, in a few plain words (``"disk full"``…)."""
    if exc.errno in _REASONS:
        return _REASONS[exc.errno]
    return (exc.strerror or str(exc) or type(exc).__name__).lower()


class WriteFailed(StoreError, OSError):
    """A write to the disk failed (disk full, read-only, permission, I/O
    error…); nothing was lost: what was on disk before is still there.

    ``action`` is what could not be done (``"save the move"``), ``reason``
    the cause in plain words (:func:`io_reason`), ``path`` the file, ``cause``
    the original ``OSError`` (also ``__cause__``)."""

    def __init__(self, action: str, path: str | os.PathLike[str], cause: OSError) -> None:
        self.action = action
        self.path = Path(path)
        self.cause = cause
        self.reason = io_reason(cause)
        OSError.__init__(self, f"Could not {action}: {self.reason} ({self.path}).")

    def __str__(self) -> str:
        return str(self.args[0])


class SaveDiverged(WriteFailed):
    """The save file is no longer the one this writer holds: replaced (another
    file renamed over it: a sync tool, a backup restore), removed, or changed
    by someone else. The move was not saved, and no later move will be, until
    the player resumes from the file on disk or keeps playing into a
    recovered copy (``GameLog.recover``). ``what`` is ``"replaced"``,
    ``"removed"`` or ``"changed"``; ``reason`` says it in words."""

    def __init__(self, path: str | os.PathLike[str], what: str) -> None:
        self.what = what
        super().__init__("save the move", path, OSError(errno.ESTALE, what))
        self.reason = {
            "replaced": "the save file was replaced by another copy while the game was open",
            "removed": "the save file was removed while the game was open",
        }.get(what, "the save file was changed by another program while the game was open")
        OSError.__init__(self, f"Could not save the move: {self.reason} ({self.path}).")


class Conflict(StoreError):
    """Another writer saved a move to this game first (the database store): the
    move was not saved. Events are keyed by (game, position), so of two writers
    at the same ``expected`` position exactly one wins; the loser reloads from
    ``position`` (the game's last position now) and decides again, or
    refuses."""

    def __init__(self, game_id: str, expected: int, position: int) -> None:
        self.game_id = game_id
        self.expected = expected
        self.position = position
        super().__init__(f"The game {game_id} changed meanwhile (another move was saved first: it is at "
                         f"position {position}, this move expected {expected}); the move was not saved.")


class DatabaseUnavailable(StoreError):
    """The database cannot be used: a bad URL, a server that does not answer,
    a refused login, the driver not installed. ``reason`` is one line a
    player or an admin can act on (never a password)."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


class NewerSchema(StoreError):
    """The database was set up by a newer momiji (its ``momiji_schema``
    version is above what this version knows): refused, never changed, like
    a save file of a newer format."""

    def __init__(self, found: int, supported: int) -> None:
        self.found = found
        self.supported = supported
        super().__init__(f"The database was set up by a newer momiji-tui (schema {found}; this version knows up "
                         f"to {supported}). Newer version — update momiji to use it.")


class Unstorable(StoreError):
    """A game holds something the database cannot store, though its save
    file can (text with a NUL character: PostgreSQL's jsonb refuses
    ``\\u0000``). Nothing was written; the file is untouched. ``reason`` in words."""

    def __init__(self, game_id: str, reason: str) -> None:
        self.game_id = game_id
        self.reason = reason
        super().__init__(f"The game {game_id} cannot be stored in the database: {reason}.")


class RefusedSaves:
    """The operator's log of one writer's refused saves (the ``momiji``
    logger, the server's log): the first refusal of a run, with its cause
    (``save refused: <what>: could not save the move: disk full (ENOSPC: No
    space left on device)``), and the first save that works after it. A player
    retrying, or a bot retrying every few seconds, adds no line.

    ``what`` names the log (a file's path, a game id)."""

    def __init__(self, what: str | os.PathLike[str]) -> None:
        self.what = str(what)
        self.refusing = False

    def refused(self, exc: WriteFailed) -> None:
        """A save was refused with ``exc``: logged if it is the first of a run."""
        if self.refusing:
            return
        self.refusing = True
        code = errno.errorcode.get(exc.cause.errno or 0, "no errno")
        detail = exc.cause.strerror or str(exc.cause) or type(exc.cause).__name__
        logging.getLogger("momiji").error("save refused: %s: could not %s: %s (%s: %s)", self.what, exc.action,
                                          exc.reason, code, detail)

    def saved(self) -> None:
        """A save worked: logged if saves were refused before it."""
        if self.refusing:
            self.refusing = False
            logging.getLogger("momiji").warning("saves work again: %s", self.what)
