"""A shared table waiting for players (over SSH); the game opens by itself
when every open seat is taken."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Footer, Static

from ..models.host import lobby_host
from .lobby_base import LobbyListScreen


class WaitingScreen(LobbyListScreen):
    """A table waiting for players; the game opens by itself when it is full."""

    BINDINGS = [Binding("escape", "leave", "Leave the table", id="waiting.leave")]

    def __init__(self, table_id: str) -> None:
        super().__init__()
        self.table_id = table_id

    def compose(self) -> ComposeResult:
        with Vertical(id="waiting-box"):
            yield Static(f"Table {self.table_id}", classes="title")
            yield Static(id="waiting-seats")
            yield Static("The game begins as soon as every open seat is taken. Esc leaves the table.",
                         classes="hint")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        if lobby_host(self).exiting:  # the session ended while this screen was composed
            return
        self.listen_to_lobby()
        self.refresh_lobby()

    def _refresh_lobby(self) -> None:
        lobby = lobby_host(self).lobby
        pending = lobby.pending.get(self.table_id)
        seats = self.query_one("#waiting-seats", Static)
        if pending is None:
            seats.update("This table is no longer waiting.")
            return
        t = Text(f"Waiting for {pending.open_seats} more player{'s' if pending.open_seats != 1 else ''}\n",
                 style="bold")
        for i, s in enumerate(pending.seats, 1):
            t.append(f"  seat {i}: ")
            if s.kind == "bot":
                t.append(f"{s.name} — bot\n")
            elif s.member is None:
                t.append("(open for a player)\n", style="italic")
            else:
                t.append(f"{s.name}\n", style="bold")
        seats.update(t)

    def action_leave(self) -> None:
        """Leave (the creator closes the table)."""
        app = lobby_host(self)
        app.lobby.leave_pending(app)
        self.app.pop_screen()
