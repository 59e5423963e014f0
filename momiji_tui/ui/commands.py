"""The command palette's game commands (ctrl+p)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from textual.app import App, SystemCommand

from ..engine.rules_data import CURRENT_RULES, LANDSCAPES, MIDDAY, landscape_cost_text
from ..safe_text import safe_text
from ..store.errors import StoreError
from .models.host import GameHost
from .models.new_game import BOT_SPEEDS, RECOVER_COMMAND
from .screens.help import HelpScreen
from .screens.new_game import NewGameScreen
from .screens.saved import SavedGamesScreen


def continue_last(app: App[Any], game: GameHost) -> None:
    """Resume the unfinished game played last (``game.unfinished_solo``), or
    say why not in a notification (no unfinished game; open elsewhere…)."""
    unfinished = game.unfinished_solo()
    if not unfinished:
        app.notify("There is no unfinished game.", severity="warning")
        return
    try:
        game.resume_game(unfinished[0].path)
    except (OSError, StoreError) as exc:  # open elsewhere, cannot be written…
        app.notify(f"Cannot continue: {exc}", severity="error")


def keep_in_recovered_copy(app: App[Any], game: GameHost) -> None:
    """After the save file diverged, keep playing the table into a recovered
    copy (``Table.keep_in_recovered_copy``), let the bots go on, and say where
    the other file went (or why it could not be done)."""
    if game.table is None:
        return
    try:
        aside = game.table.keep_in_recovered_copy()
    except (ValueError, OSError) as exc:
        app.notify(f"Could not keep a recovered copy: {exc}", severity="error")
        return
    game.drive_bots()
    kept = f" The other file is kept as {safe_text(aside.name)}." if aside is not None else ""
    app.notify(f"The game is saved again, as this table shows it.{kept}")


def game_commands(app: App[Any], game: GameHost) -> Iterator[SystemCommand]:
    """New game, continue, saved games, help, memory mode, bot speed, the
    high-contrast theme and each landscape's rules and cost (RULES §1.5, §4.5:
    under the rules version of the game at the table, if any). ``app`` and
    ``game`` are the same app: as Textual's ``App`` and as the ``GameHost``."""
    if game.table is not None and game.table.save_diverged:
        yield SystemCommand(RECOVER_COMMAND, "The save file changed under this game: save the table as it is "
                            "(the other file is kept aside)", lambda: keep_in_recovered_copy(app, game))
    yield SystemCommand("New game", "Start a new game of Momiji", lambda: app.push_screen(NewGameScreen()))
    yield SystemCommand("Continue last game", "Resume the newest unfinished game", lambda: continue_last(app, game))
    yield SystemCommand("Saved games", "Browse and resume saved games",
                        lambda: app.push_screen(SavedGamesScreen()))
    yield SystemCommand("Help", "Rules summary, landscapes, objectives and keys",
                        lambda: app.push_screen(HelpScreen()))
    yield SystemCommand("Toggle memory mode", "Show only the top card of each pile (RULES §8)",
                        game.action_toggle_memory)
    for name, seconds in BOT_SPEEDS.items():
        what = f"{seconds:g} s per bot move" if seconds else "bots move at once"
        yield SystemCommand(f"Bot speed: {name}", f"Pace the bots' turns so you can follow ({what})",
                            lambda s=seconds: game.set_bot_delay(s))
    yield SystemCommand("Theme: high contrast", "Black, white and yellow; leaf chips keep letter and colour",
                        lambda: setattr(app, "theme", "momiji-high-contrast"))
    # RULES §4.5: the costs of the game at the table (its own rules version), else of a new game
    rules = game.table.view(None).rules if game.table is not None else CURRENT_RULES
    for lid, (part, name, power) in LANDSCAPES.items():
        cost = landscape_cost_text(rules, [lid])
        when = "before your main action" if part == MIDDAY else "any time in your turn"
        yield SystemCommand(f"Landscape: {name}", f"{part}, {when}: {power}",
                            lambda n=name, p=power, w=when, pt=part, c=cost: app.notify(
                                f"{n} ({pt}, {w}; once per game, {c}): {p}.", timeout=10))
