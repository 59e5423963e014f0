"""Momiji's themes: the high-contrast theme, and the theme a player chose
last time (remembered in the settings)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import App
from textual.theme import Theme

from .models.settings import SettingsKeeper


def register_themes(app: App[Any]) -> None:
    """Add Momiji's high-contrast theme (black, white and yellow; the leaf
    chips keep their own colours and letters)."""
    app.register_theme(Theme(
        name="momiji-high-contrast", primary="#FFFF00", secondary="#00FFFF", accent="#FFFF00",
        foreground="#FFFFFF", background="#000000", surface="#000000", panel="#1A1A1A",
        warning="#FFFF00", error="#FF6060", success="#00FF00", dark=True,
        variables={"footer-key-foreground": "#FFFF00", "block-cursor-foreground": "#000000",
                   "block-cursor-background": "#FFFF00", "border": "#FFFFFF"},
    ))


def apply_remembered_theme(app: App[Any], settings: SettingsKeeper, remember: Callable[..., None]) -> None:
    """Switch ``app`` to the theme chosen last time (``settings``), if it has
    it; then ``remember(theme=name)`` each new choice."""
    theme = settings.settings.theme
    if theme is not None and theme in app.available_themes:
        app.theme = theme
    app.theme_changed_signal.subscribe(app, lambda new: remember(theme=new.name))
