"""One option of a chooser (``screens/choice.py`` shows them)."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text


@dataclass(frozen=True)
class Choice:
    """One option: ``key`` (a single character that picks it), ``label``,
    the ``value`` returned, and ``reason`` why it is unavailable (or None)."""

    key: str
    label: str | Text
    value: object
    reason: str | None = None
