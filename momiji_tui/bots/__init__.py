"""Bots: players that see only a ``PlayerView`` (ARCHITECTURE "Bots").

    bot = make_bot("normal", seed=7)
    command = bot.choose(view(state, seat))     # one legal command

Levels: ``"easy"`` (random legal with light sense), ``"normal"`` (greedy,
one turn ahead), ``"hard"`` (single-observer ISMCTS over determinizations).
See docs/BOTS.md.
"""

from __future__ import annotations

from typing import Any

from .base import Bot
from .easy import EasyBot
from .evaluate import DEFAULT_WEIGHTS
from .normal import NormalBot

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")


def make_bot(level: str, seed: int = 0, **budget: Any) -> Bot:
    """A bot of ``level`` with its own random seed.

    ``budget`` goes to the bot: for ``"hard"``, ``iterations=`` (deterministic)
    or ``time_limit=`` seconds with ``clock=`` (e.g. ``time.perf_counter``,
    injected by the caller), and search options (see ``HardBot``). Normal
    takes ``weights=`` (an ``evaluate.Weights``) and ignores the rest; Easy
    ignores them all.
    Raises ``ValueError`` for an unknown level.
    """
    level = level.lower()
    if level == "easy":
        return EasyBot(seed)
    if level == "normal":
        return NormalBot(seed, weights=budget.get("weights", DEFAULT_WEIGHTS))
    if level == "hard":
        from .hard import HardBot

        return HardBot(seed, **budget)
    raise ValueError(f"unknown bot level {level!r}: choose one of {', '.join(LEVELS)}")


__all__ = ["Bot", "EasyBot", "LEVELS", "NormalBot", "make_bot"]
