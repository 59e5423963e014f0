"""What a screen may ask of the app that hosts it, as a Protocol.

Screens and widgets type ``self.app`` through :class:`GameHost` instead of
importing ``ui/app.py``, so nothing below the app imports it (no import
circle; the layers contract in pyproject.toml). Data goes down through
``table_changed``; requests go up through these few methods.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from textual.signal import Signal

    from ...engine.commands import Command
    from ...engine.events import Event
    from ...session.table import Table


class GameHost(Protocol):
    """The app as the screens see it.

    ``table_changed`` publishes the list of new events after every change of
    the open game (an empty list: redraw, nothing new, e.g. memory mode
    toggled or a bot started thinking). Subscribe in ``on_mount``:
    ``host(self).table_changed.subscribe(self, self.on_table_update)``.
    """

    table: Table | None
    seat: int
    thinking: int | None
    memory_mode: bool
    hosted: bool
    table_changed: Signal[list[Event]]

    def key_for(self, binding_id: str) -> str: ...
    def submit(self, command: Command) -> str | None: ...
    def close_table(self) -> None: ...
    def resume_game(self, path: str | os.PathLike[str]) -> None: ...
    def set_bot_delay(self, seconds: float) -> None: ...


def host(node: Any) -> GameHost:
    """``node.app`` typed as the :class:`GameHost` (a screen or widget in a
    mounted app). No check is made; the app implements the Protocol."""
    app: GameHost = node.app
    return app
