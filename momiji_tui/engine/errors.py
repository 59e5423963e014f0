"""The one error type of the engine."""

from __future__ import annotations


class IllegalCommand(ValueError):
    """A command the rules do not allow now.

    ``str(error)`` is a sentence a player can read (e.g. "A pile begins with a
    0: Maple 2 cannot start one (RULES §4.2)."). Raising it never changes the
    state: ``decide`` works on copies.
    """
