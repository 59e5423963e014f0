"""Seeds for deals nobody may know in advance (RULES §2.2).

The engine draws every random setup choice (types, deck order, objectives,
first seat) from ``random.Random(seed)`` (engine/setup.py), so whoever knows
the seed knows every hand and the deck order. A game with two or more humans
therefore takes a seed of :data:`SHARED_SEED_BITS` bits from the operating
system's secure source (:mod:`secrets`): too many to search, never chosen by
a player, never shown to one until the game has ended. Solo games may keep a
chosen seed (only the player themself could profit from it).
"""

from __future__ import annotations

import secrets

SHARED_SEED_BITS = 128
"""Bits of a shared table's seed (a search of 2**128 seeds is out of reach)."""


def secret_deal_seed() -> int:
    """A fresh seed for a shared table: ``SHARED_SEED_BITS`` bits from :mod:`secrets`.

    Returns an int in ``[0, 2**128)``; never raises.
    """
    return secrets.randbits(SHARED_SEED_BITS)


def seed_reveal_line(seed: int | None, finished: bool) -> str:
    """The line that shows a game's seed once the game has ended, so players
    can check the deal offline (``engine.create_game(names, seed=seed)``
    reproduces it); "" while the game runs or when there is no seed."""
    if not finished or seed is None:
        return ""
    return f"Deal seed {seed}: the whole deal can be checked with it."
