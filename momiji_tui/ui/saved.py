"""Saved games: every game in the data directory, resumable with Enter."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Label, Static

from ..session.saves import describe_saved_games
from .app import MomijiApp


class SavedGamesScreen(Screen[None]):
    """A table of saved games; Enter resumes (or shows the scores of) one."""

    BINDINGS = [
        Binding("escape", "back", "Back", id="saved.back"),
        Binding("enter", "open", "Open", id="saved.open", show=True),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="saved"):
            yield Static("Saved games", classes="title")
            yield DataTable(id="saved-table", cursor_type="row", zebra_stripes=True)
            yield Label("", id="saved-message")
        yield Footer()

    def on_mount(self) -> None:
        app = self.app
        assert isinstance(app, MomijiApp)
        table = self.query_one(DataTable)
        table.add_columns("Game", "Status", "Seats", "Turn", "Scores")
        self.rows = describe_saved_games(app.data_dir)
        for row in self.rows:
            table.add_row(row.game_id, row.status, row.seats, row.turn, row.scores, key=row.game_id)
        if not self.rows:
            self.query_one("#saved-message", Label).update("No saved games yet.")
        table.focus()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_open()

    def action_open(self) -> None:
        """Resume the highlighted game (damaged ones are explained instead)."""
        app = self.app
        assert isinstance(app, MomijiApp)
        table = self.query_one(DataTable)
        if not self.rows:
            return
        row = self.rows[table.cursor_row]
        if row.problem:
            self.query_one("#saved-message", Label).update(f"Cannot open {row.game_id}: {row.problem}")
            return
        try:
            app.resume_game(row.path)
        except Exception as exc:  # a damaged file must never crash the app
            self.query_one("#saved-message", Label).update(f"Cannot open {row.game_id}: {exc}")

    def action_back(self) -> None:
        """Back to the menu."""
        self.app.pop_screen()
