"""A one-line text field that says why it refused an edit.

Textual's ``Input`` refuses an edit that would break its ``max_length`` or
``restrict`` (a 300-character paste into a 16-character field, a letter in
a digits-only field) with the terminal bell only; this one also posts
:class:`FormInput.Refused`, so the form can say what was not taken and why.
"""

from __future__ import annotations

from textual.message import Message
from textual.widgets import Input


class FormInput(Input):
    """An ``Input`` posting :class:`Refused` for every edit it refuses."""

    class Refused(Message):
        """An edit was refused. ``text``: what was typed or pasted;
        ``attempted``: the value it would have made; ``too_long``: refused
        for ``max_length`` (else for ``restrict``)."""

        def __init__(self, field: FormInput, text: str, attempted: str) -> None:
            super().__init__()
            self.field = field
            self.text = text
            self.attempted = attempted
            limit = field.max_length or 0
            self.too_long = limit > 0 and len(attempted) > limit

        @property
        def control(self) -> FormInput:
            """The field that refused the edit."""
            return self.field

    _edit: tuple[str, str] = ("", "")

    def replace(self, text: str, start: int, end: int) -> None:
        """Textual's ``replace``, remembering the edit for :meth:`restricted`."""
        value = self.value
        lo, hi = sorted((max(0, start), min(len(value), end)))
        self._edit = (text, f"{value[:lo]}{text}{value[hi:]}")
        super().replace(text, start, end)

    def restricted(self) -> None:
        """The bell, and :class:`Refused` for the form to say why."""
        super().restricted()
        text, attempted = self._edit
        self.post_message(self.Refused(self, text, attempted))
