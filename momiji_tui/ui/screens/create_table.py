"""Create a table for several players (over SSH)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Label, Select, Static

from ...session.lobby import LobbyError
from ..models.host import lobby_host
from .rules import field_citation
from .waiting import WaitingScreen

FORM_RULES = {"create-landscapes": "2.1", "create-seats": "2"}
"""The RULES section each field of the form is about (the rules key opens it)."""


class CreateTableScreen(Screen[None]):
    """Seats (you and 1–3 others), how many are open for players, bot level,
    landscapes, whether the hint key works (off unless allowed).
    No seed: a shared deal is secret (RULES §2.2, session/deal_seed.py)."""

    BINDINGS = [
        Binding("escape", "back", "Back", id="create.back"),
        Binding("ctrl+s", "start", "Open the table", id="create.start"),
        Binding("f2", "app.help('rules')", "Rules", id="create.rules"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="create-box"):
            yield Static("Create a table", classes="title")
            with Horizontal(classes="field"):
                yield Label("Seats", classes="field-label")
                yield Select([("2 seats", 2), ("3 seats", 3), ("4 seats", 4)], value=2,
                             allow_blank=False, id="create-seats")
            with Horizontal(classes="field"):
                yield Label("Players", classes="field-label")
                yield Select([("you + 1 player (other seats: bots)", 1), ("you + 2 players", 2),
                              ("you + 3 players", 3)], value=1, allow_blank=False, id="create-players")
            with Horizontal(classes="field"):
                yield Label("Bots", classes="field-label")
                yield Select([("Easy", "easy"), ("Normal", "normal"), ("Hard", "hard")], value="normal",
                             allow_blank=False, id="create-level")
            with Horizontal(classes="field"):
                yield Label("Landscapes", classes="field-label")
                yield Select([("Starter panorama", "starter"), ("Draft (RULES §2.1)", "draft")],
                             value="starter", allow_blank=False, id="create-landscapes")
            with Horizontal(classes="field"):
                yield Label("Hints", classes="field-label")
                yield Select([("Off", False), ("Allowed (whoever joins agrees)", True)], value=False,
                             allow_blank=False, id="create-hints")
            yield Button("Open the table  (ctrl+s)", id="create-start", variant="primary")
            yield Label("", id="create-message")
        yield Footer(compact=True)

    def cited_rules(self) -> str | None:
        """The RULES section the focused field cites (the app's rules key)."""
        return field_citation(self, FORM_RULES, "create-message")

    def on_mount(self) -> None:
        if lobby_host(self).exiting:  # the session ended while this screen was composed
            return
        self.query_one("#create-start", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "create-start":
            self.action_start()

    def action_start(self) -> None:
        """Open the table and wait for players."""
        app = lobby_host(self)
        seats = int(self.query_one("#create-seats", Select).value)  # type: ignore[arg-type]
        players = int(self.query_one("#create-players", Select).value)  # type: ignore[arg-type]
        message = self.query_one("#create-message", Label)
        if players > seats - 1:
            message.update(f"{seats} seats leave room for at most {seats - 1} other players.")
            return
        others = ["human"] * players + ["bot"] * (seats - 1 - players)
        try:
            pending = app.lobby.create_table(
                app, others, bot_level=str(self.query_one("#create-level", Select).value),
                landscape_mode=str(self.query_one("#create-landscapes", Select).value),
                hints_allowed=self.query_one("#create-hints", Select).value is True)
        except LobbyError as exc:
            message.update(str(exc))
            return
        self.app.switch_screen(WaitingScreen(pending.table_id))

    def action_back(self) -> None:
        """Back to the lobby."""
        self.app.pop_screen()
