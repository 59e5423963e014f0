"""Saved games: every game in the data directory, last played first; Enter
resumes, ``r`` replays.

Damaged files are listed with their problem in plain words (the store has
moved them aside, or says why it could not); a game from a newer momiji is
listed as such; opening either explains instead of crashing.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Label, Static

from ...session.saves import SavedGameRow, describe_saved_games
from ...store import check_deletable, delete_game
from ...store.errors import StoreError
from ..models.host import SavedGamesLister, host
from ..models.saved_columns import COLUMNS, cells, fit_columns, hidden_text
from .replay import ReplayScreen


class SavedGamesScreen(Screen[None]):
    """A table of saved games; Enter resumes (or shows the scores of) one, ``r`` replays it."""

    BINDINGS = [
        Binding("escape", "back", "Back", id="saved.back"),
        Binding("enter", "open", "Open", id="saved.open", show=True),
        Binding("r", "replay", "Replay", id="saved.replay"),
        Binding("d", "delete", "Delete", id="saved.delete"),
    ]
    #: The game a delete waits to be confirmed for (``y``), or None.
    confirming: SavedGameRow | None = None
    #: Said before the next highlighted game's details (``Deleted …``).
    notice = ""

    def compose(self) -> ComposeResult:
        with Vertical(id="saved"):
            yield Static("Saved games", classes="title")
            yield DataTable(id="saved-table", cursor_type="row", zebra_stripes=True)
            yield Label("", id="saved-message", markup=False)  # names and problems from the saves
        yield Footer(compact=True)

    def on_mount(self) -> None:
        app = host(self)
        self.shown: list[str] = list(COLUMNS)
        try:
            lister = self.app
            self.rows = (lister.saved_games() if isinstance(lister, SavedGamesLister)
                         else describe_saved_games(app.data_dir))
        except OSError as exc:  # e.g. the data directory cannot be read
            self.rows = []
            self.say(f"The saved games cannot be listed: {exc}")
        self.fill_table()
        if not self.rows:
            self.say("No saved games yet.")
        self.query_one(DataTable).focus()

    def on_resize(self, event: events.Resize) -> None:
        if self.rows and fit_columns(self.rows, self.table_width()) != self.shown:
            self.fill_table()

    def table_width(self) -> int:
        """Columns the table has (the screen less its padding and a scroll bar)."""
        return self.app.size.width - 4

    def fill_table(self) -> None:
        """The games in the columns that fit the width (the scores always);
        the rest is told under the table for the highlighted game."""
        table = self.query_one(DataTable)
        cursor = table.cursor_row
        table.clear(columns=True)
        self.shown = fit_columns(self.rows, self.table_width()) if self.rows else list(COLUMNS)
        for key in self.shown:
            table.add_column(COLUMNS[key], key=key)
        for row in self.rows:
            values = cells(row)
            table.add_row(*(Text(values[k]) for k in self.shown), key=row.game_id)  # text, never markup
        if self.rows:
            table.move_cursor(row=min(cursor, len(self.rows) - 1))

    def say(self, text: str) -> None:
        """Show ``text`` under the table."""
        self.query_one("#saved-message", Label).update(text)

    def current_row(self) -> SavedGameRow | None:
        """The highlighted game, or None when there is none."""
        if not self.rows:
            return None
        return self.rows[min(self.query_one(DataTable).cursor_row, len(self.rows) - 1)]

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        row = self.current_row()
        if row is None:
            return
        rest = hidden_text(row, self.shown)
        if self.notice:  # what was just done stays in front of the new row's details
            notice, self.notice = self.notice, ""
            self.say(f"{notice} {row.game_id}: {rest}" if rest else notice)
        elif row.problem:
            self.say(" ".join([f"{row.game_id}: {row.problem}", *row.notes]))
        elif row.notes:
            self.say(f"{row.game_id}: {' '.join(row.notes)}" + (f" ({rest})" if rest else ""))
        else:
            self.say(f"{row.game_id}: {rest}" if rest else "")

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_open()

    def action_open(self) -> None:
        """Resume the highlighted game (damaged ones are explained instead)."""
        app = host(self)
        row = self.current_row()
        if row is None:
            return
        if row.problem:
            self.say(f"Cannot open {row.game_id}: {row.problem}")
            return
        try:
            app.resume_game(row.path)
        except Exception as exc:  # a file damaged since it was listed must never crash the app
            self.say(f"Cannot open {row.game_id}: {exc}")

    def action_replay(self) -> None:
        """Step through the highlighted game (read-only)."""
        row = self.current_row()
        if row is None:
            return
        if row.problem:
            self.say(f"Cannot replay {row.game_id}: {row.problem}")
            return
        screen = ReplayScreen(row.path)
        if screen.problem:
            self.say(screen.problem)
            return
        self.app.push_screen(screen)

    def action_delete(self) -> None:
        """Ask before deleting the highlighted game for good (``y`` deletes)."""
        row = self.current_row()
        if row is None:
            return
        try:
            check_deletable(host(self).data_dir, row.game_id)  # open for play: refused before asking
        except (StoreError, OSError) as exc:
            self.say(f"Cannot delete {row.game_id}: {exc}")
            return
        what = f"{row.status}, {row.seats}" if row.seats else row.status
        self.confirming = row
        self.say(f"Delete saved game {row.game_id} ({what})? This cannot be undone. "
                 "y deletes, any other key keeps it.")

    def on_key(self, event: events.Key) -> None:
        row, self.confirming = self.confirming, None
        if row is None:
            return
        event.stop()
        event.prevent_default()
        if event.key != "y":
            self.say("Nothing was deleted.")
            return
        try:
            delete_game(host(self).data_dir, row.game_id)  # the store's delete: refused while open for play
        except (StoreError, OSError) as exc:
            self.say(f"Cannot delete {row.game_id}: {exc}")
            return
        self.rows = [r for r in self.rows if r.game_id != row.game_id]
        self.notice = f"Deleted {row.game_id}." if self.rows else ""
        self.fill_table()
        if not self.rows:
            self.say(f"Deleted {row.game_id}. No saved games left.")

    def action_back(self) -> None:
        """Back to the menu."""
        self.app.pop_screen()
