"""Seeds for deals nobody may know in advance (RULES §2.2).

The engine draws every random setup choice (types, deck order, objectives,
first seat) from ``random.Random(seed)`` (engine/setup.py), so whoever knows
the seed knows every hand and the deck order. A game with two or more humans
therefore takes a seed of :data:`SHARED_SEED_BITS` bits from the operating
system's secure source (:mod:`secrets`): too many to search, never chosen by
a player, never shown to one until the game has ended. Solo games may keep a
chosen seed (only the player themself could profit from it).

Such a table commits to its seed when it starts: its save header carries
``seed_sha256`` (:func:`seed_sha256`), shown to the players from the first
move (:func:`commitment_line`); the seed itself is shown when the game ends
(:func:`seed_reveal_line`), and ``momiji verify`` (:mod:`.verify`) checks
that the two agree and that the seed gives the recorded deal.
"""

from __future__ import annotations

import hashlib
import secrets

SHARED_SEED_BITS = 128
"""Bits of a shared table's seed (a search of 2**128 seeds is out of reach)."""


def secret_deal_seed() -> int:
    """A fresh seed for a shared table: ``SHARED_SEED_BITS`` bits from :mod:`secrets`.

    Returns an int in ``[0, 2**128)``; never raises.
    """
    return secrets.randbits(SHARED_SEED_BITS)


def seed_reveal_line(seed: int | None, finished: bool, daily: str = "") -> str:
    """The line that shows a game's seed once the game has ended, so players
    can check the deal offline (``engine.create_game(names, seed=seed)``
    reproduces it); "" while the game runs or when there is no seed. A
    daily deal's (``daily``: its UTC day) is not shown: others play that
    deal all day; the daily board shows it from the next day."""
    if not finished or seed is None:
        return ""
    if daily:
        return f"The seed of the daily deal of {daily} is on the daily board from the next UTC day."
    return f"Deal seed {seed}: the whole deal can be checked with it."


def seed_sha256(seed: int) -> str:
    """The commitment to ``seed``: the SHA-256 of its decimal digits (ASCII),
    as 64 lowercase hex digits, so anyone can check it by hand
    (``printf %s SEED | sha256sum``). Raises ``ValueError`` for a negative seed."""
    if seed < 0:
        raise ValueError(f"a seed is a whole number 0 or more, not {seed}")
    return hashlib.sha256(str(seed).encode("ascii")).hexdigest()


def commitment_line(sha256: str) -> str:
    """The line a table shows from its start when its seed is committed to
    (the SHA-256 of a seed nobody is shown until the end); "" without one."""
    if not sha256:
        return ""
    return f"Deal commitment (SHA-256 of the secret seed): {sha256}. The seed is shown when the game ends."
