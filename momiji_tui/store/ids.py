"""Game ids: ``YYYYMMDD-HHMMSS-xxxxxx`` (UTC time + 6 lowercase hex digits).

Ids sort by creation time (to the second) and are safe as file names. Any id
that comes from outside (a caller, a header, a file name) is checked with
:func:`check_game_id` before it is used in a path.
"""

from __future__ import annotations

import random
import re
import secrets
from datetime import UTC, datetime
from typing import TypeGuard

GAME_ID_RE = re.compile(r"[0-9]{8}-[0-9]{6}-[0-9a-f]{6}")


def is_game_id(value: object) -> TypeGuard[str]:
    """True if ``value`` is a str matching :data:`GAME_ID_RE` exactly."""
    return isinstance(value, str) and GAME_ID_RE.fullmatch(value) is not None


def check_game_id(value: object) -> str:
    """Return ``value`` if it is a valid game id; else raise :class:`InvalidGameId`."""
    from .errors import InvalidGameId

    if not is_game_id(value):
        raise InvalidGameId(f"{value!r} is not a game id (expected YYYYMMDD-HHMMSS-xxxxxx)")
    return value


def new_game_id(now: datetime | None = None, rng: random.Random | None = None) -> str:
    """A new game id for time ``now`` (default: the current UTC time; a naive
    datetime is taken as UTC), with a random suffix from ``rng`` (default:
    :mod:`secrets`). Pass both for deterministic ids in tests."""
    now = datetime.now(UTC) if now is None else as_utc(now)
    suffix = secrets.randbits(24) if rng is None else rng.getrandbits(24)
    return f"{now:%Y%m%d-%H%M%S}-{suffix:06x}"


def as_utc(moment: datetime) -> datetime:
    """``moment`` in UTC; a naive datetime is taken to be UTC already."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)
