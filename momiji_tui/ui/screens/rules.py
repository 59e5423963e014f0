"""The rules of record in the app: the whole of docs/RULES.md, opened at the
section a message or form cites (``RULES §4.2`` → "4.2 Play leaf cards")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer

from ..models.paths import rules_text
from ..models.rules_sections import cited_section
from ..widgets.rules_viewer import RulesViewer

WIDE_CONTENTS = 110
"""Columns from which the rules show their table of contents beside the text."""


class RulesScreen(ModalScreen[None]):
    """docs/RULES.md, read-only; Esc closes. ``section``: where it opens
    (``"4.2"``; None: at the top)."""

    BINDINGS = [
        Binding("escape,q,f2", "close", "Close", id="rules.close"),
    ]

    def __init__(self, section: str | None = None) -> None:
        super().__init__()
        self.section = section

    def compose(self) -> ComposeResult:
        try:
            text = rules_text()
        except OSError as exc:  # a broken installation: say so instead of crashing
            text = f"# The rules could not be read\n\n{exc}"
        yield RulesViewer(text, section=self.section, id="rules",
                          show_table_of_contents=self.app.size.width >= WIDE_CONTENTS)
        yield Footer(compact=True)

    def action_close(self) -> None:
        """Close the rules."""
        self.dismiss(None)


@runtime_checkable
class CitesRules(Protocol):
    """A screen that says which RULES section it cites now (a form)."""

    def cited_rules(self) -> str | None: ...


@runtime_checkable
class ShowsMessage(Protocol):
    """A screen with a message line (the table): ``message`` is what it says."""

    message: Text


def cited_on(screen: object) -> str | None:
    """The section (``"4.2"``) that ``screen`` cites now: its
    ``cited_rules()`` (a form: the focused field's), else the first section
    its ``message`` cites (the table's message line), else None."""
    if isinstance(screen, CitesRules):
        return screen.cited_rules()
    if isinstance(screen, ShowsMessage) and isinstance(screen.message, Text):
        return cited_section(screen.message.plain)
    return None


def field_citation(screen: Screen[Any], sections: Mapping[str, str], message_id: str | None = None) -> str | None:
    """What a form cites: the section of the focused field (``sections``:
    field id → section, ``"landscapes": "2.1"``), else the one its message
    label (``message_id``) cites, else the form's first section."""
    node = screen.focused
    while node is not None and node is not screen:
        if node.id is not None and node.id in sections:
            return sections[node.id]
        node = node.parent  # type: ignore[assignment]
    if message_id is not None:
        found = screen.query(f"#{message_id}")
        if found:
            said = cited_section(str(found.first().render()))
            if said is not None:
                return said
    return next(iter(sections.values()), None)
