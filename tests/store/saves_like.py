"""A legal move for a table's current seat (a plain module: unique name)."""

from __future__ import annotations

from momiji_tui.bots import make_bot


def any_move(table, seed: int = 0):
    """The easy bot's choice for whoever must act now."""
    return make_bot("easy", seed=seed).choose(table.view(table.current))
