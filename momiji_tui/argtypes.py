"""Argument types for the command lines: numbers in range, checked by argparse.

A value out of range is a usage error (exit 2, argparse's message naming the
option), never a traceback or a meaningless report. Pure: no imports beyond
argparse, so every layer's parser may use it.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable


def whole_number(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse ``type``: a whole number from ``low`` (to ``high``, if given).

    The returned function raises ``argparse.ArgumentTypeError`` (a usage
    error) for anything else, e.g. ``must be a whole number 0 or more, not '-7'``."""
    want = f"{low} or more" if high is None else f"from {low} to {high}"

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a whole number {want}, not {text!r}") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"must be a whole number {want}, not {text!r}")
        return value

    parse.__name__ = "whole number"
    return parse


def positive_seconds(text: str) -> float:
    """An argparse ``type``: a number of seconds above 0. Raises
    ``argparse.ArgumentTypeError`` otherwise."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number of seconds above 0, not {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a number of seconds above 0, not {text!r}")
    return value


#: A seed: a whole number 0 or more (RULES §2: the deal is drawn from it;
#: ``random.Random`` folds a negative seed onto its positive twin).
seed = whole_number(0)
seed.__name__ = "seed"


#: The bots' levels a command line may name, weakest first (docs/BOTS.md).
BOT_LEVEL_NAMES = ("easy", "normal", "hard")


def bot_levels(text: str) -> tuple[str, ...]:
    """An argparse ``type``: bot levels separated by commas (``hard,normal``),
    one for every bot or one per bot seat. Raises ``argparse.ArgumentTypeError``
    naming the choices for an unknown or missing level."""
    levels = tuple(part.strip().lower() for part in text.split(","))
    wrong = [level for level in levels if level not in BOT_LEVEL_NAMES]
    if wrong:
        raise argparse.ArgumentTypeError(
            f"{wrong[0]!r} is not a bot level: give one of {', '.join(BOT_LEVEL_NAMES)} for every bot, "
            "or one per bot seat separated by commas (e.g. hard,normal)")
    return levels


bot_levels.__name__ = "bot levels"
