"""The settings a player's app remembers between runs: the theme chosen in
the palette, the bots' pace, memory mode (RULES §8) and the last new-game
options. ``Settings`` is plain data; ``SettingsKeeper`` reads and writes it
through ``store/settings_file.py`` (platformdirs' config folder). No Textual.

A hosted (SSH) app keeps nothing: it must not touch the server's files for
a remote player.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from ...store.errors import WriteFailed
from ...store.settings_file import merge_settings, read_settings
from .new_game import BOT_LEVELS, BOT_SPEEDS, NewGameOptions

LANDSCAPE_MODES = ("starter", "draft")


@dataclass(frozen=True)
class Settings:
    """What is remembered; None: never chosen (the app's default applies)."""

    theme: str | None = None
    bot_pace: str | None = None  # a name of ``BOT_SPEEDS``
    memory: bool | None = None
    last_game: NewGameOptions | None = None  # name, seats, bot levels, landscapes (never the seed)

    @classmethod
    def from_values(cls, values: dict[str, object]) -> Settings:
        """The settings in a settings file's JSON object; a value of the
        wrong kind is ignored (its default applies), never an error."""
        theme = values.get("theme")
        pace = values.get("bot_pace")
        memory = values.get("memory")
        return cls(theme=theme if isinstance(theme, str) else None,
                   bot_pace=pace if isinstance(pace, str) and pace in BOT_SPEEDS else None,
                   memory=memory if isinstance(memory, bool) else None,
                   last_game=_options(values.get("last_game")))

    def to_values(self) -> dict[str, object]:
        """The JSON object to write (only what was chosen)."""
        out: dict[str, object] = {}
        if self.theme is not None:
            out["theme"] = self.theme
        if self.bot_pace is not None:
            out["bot_pace"] = self.bot_pace
        if self.memory is not None:
            out["memory"] = self.memory
        if self.last_game is not None:
            g = self.last_game
            out["last_game"] = {"name": g.name, "seats": g.seats, "bot_levels": list(g.levels()),
                                "landscape_mode": g.landscape_mode}
        return out


def _options(value: object) -> NewGameOptions | None:
    """New-game options from their JSON form, or None if anything is off."""
    if not isinstance(value, dict):
        return None
    name, seats, levels, mode = (value.get(k) for k in ("name", "seats", "bot_levels", "landscape_mode"))
    if (not isinstance(name, str) or not 0 < len(name) <= 16 or not isinstance(seats, int)
            or seats not in (2, 3, 4) or not isinstance(levels, list) or len(levels) != seats - 1
            or any(level not in BOT_LEVELS for level in levels) or mode not in LANDSCAPE_MODES):
        return None
    return NewGameOptions(name=name, seats=seats, bot_level=str(levels[0]),
                          bot_levels=tuple(str(level) for level in levels), landscape_mode=str(mode))


def last_game_of(options: NewGameOptions) -> NewGameOptions:
    """What is remembered of a new game's options: no seed, pace or memory mode."""
    return NewGameOptions(name=options.name, seats=options.seats, bot_level=options.levels()[0],
                          bot_levels=tuple(options.levels()), landscape_mode=options.landscape_mode)


class SettingsKeeper:
    """The remembered ``settings`` and the file they live in (``path``; None:
    remember nothing). ``problem`` says what was wrong when it was read (a
    damaged file kept aside…), for the app to show once."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.problem: str | None = None
        self._values: dict[str, object] = {}
        self._writable = path is not None
        self._told = False
        if path is not None:
            read = read_settings(path)
            self._values, self.problem, self._writable = dict(read.values), read.problem, read.writable
        self.settings = Settings.from_values(self._values)

    def remember(self, **changes: object) -> str | None:
        """Change and write the settings (``theme=…``, ``bot_pace=…``,
        ``memory=…``, ``last_game=…``). Returns a message the first time they
        cannot be written (``Settings are not remembered: read-only file
        system (…).``), else None; the app goes on without remembering."""
        changed = replace(self.settings, **changes)  # type: ignore[arg-type]
        if changed == self.settings:
            return None  # nothing new to write
        before, after = self.settings.to_values(), changed.to_values()
        self.settings = changed
        if self.path is None or not self._writable:
            return None
        try:  # only the keys this change touched: another app's settings stay
            values = merge_settings(self.path, {k: v for k, v in after.items() if before.get(k) != v},
                                    set(before) - set(after))
        except WriteFailed as exc:
            if self._told:
                return None
            self._told = True
            return f"Settings are not remembered: {exc.reason} ({exc.path})."
        self._values = values
        return None


def memory_note(on: bool, key: str) -> str:
    """What toggling memory mode says (RULES §8): the mode now, what it
    hides, and ``key``, the key that toggles it back."""
    if on:
        return f"Memory mode on: only top cards shown (RULES §8). {key} turns it off."
    return f"Memory mode off: every card of the piles shown (RULES §8). {key} turns it on."
