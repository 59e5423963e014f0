"""The command palette's game commands (ctrl+p)."""

from __future__ import annotations

from collections.abc import Iterator

from textual.system_commands import SystemCommand

from ..engine.rules_data import LANDSCAPES


def game_commands(app) -> Iterator[SystemCommand]:
    """New game, saved games, help, memory mode and each landscape's rules."""
    from .help import HelpScreen
    from .menu import NewGameScreen
    from .saved import SavedGamesScreen

    yield SystemCommand("New game", "Start a new game of Momiji", lambda: app.push_screen(NewGameScreen()))
    yield SystemCommand("Saved games", "Browse and resume saved games",
                        lambda: app.push_screen(SavedGamesScreen()))
    yield SystemCommand("Help", "Rules summary, landscapes, objectives and keys",
                        lambda: app.push_screen(HelpScreen()))
    yield SystemCommand("Toggle memory mode", "Show only the top card of each pile (RULES §8)",
                        app.action_toggle_memory)
    for lid, (part, name, power) in LANDSCAPES.items():
        yield SystemCommand(f"Landscape: {name}", f"{part}: {power}",
                            lambda n=name, p=power: app.notify(f"{n}: {p}", timeout=8))
