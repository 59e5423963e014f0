"""The live score's breakdown, one key away from the table: each
seat's piles, acorns and owned objectives as if the game ended now (RULES
§7), one row per seat (``models/live_score.breakdown_table``), over the
table; any key closes it."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ...engine import PlayerView
from ..models.live_score import breakdown_table, live_sheet, owned_legend
from ..models.render import short_label
from ..models.score_sheet import winner_sentence
from ..models.table_fit import pack_tokens

NAME_CELLS = 12  # a seat's name: four seats' rows fit 80 columns


class LiveScoreScreen(ModalScreen[None]):
    """The score if the game ended now; any key (Esc, ``=``) closes it."""

    def __init__(self, view: PlayerView) -> None:
        super().__init__()
        self.view = view

    def compose(self) -> ComposeResult:
        v = self.view
        sheet = live_sheet(v)
        names = [("You" if i == v.seat else short_label(s.name, NAME_CELLS)) for i, s in enumerate(v.seats)]
        with VerticalScroll(id="live-score"):
            yield Static(Text("If the game ended now (RULES §7)", style="bold"), id="live-score-title")
            yield Static(breakdown_table(v, sheet, NAME_CELLS), id="live-score-table")
            yield Static(pack_tokens(owned_legend(v, NAME_CELLS), self.app.size.width - 6), id="live-score-legend")
            leading = winner_sentence(sheet, names, v.seat).replace(" win ", " would win ")
            leading = leading.replace(" wins ", " would win ").replace(" share ", " would share ")
            yield Static(Text(leading), id="live-score-result")
            yield Static(Text("Any key closes.", style="dim"), id="live-score-close")

    def on_key(self, event: events.Key) -> None:
        """Any key closes the breakdown (the table's keys work again); the
        keys typed with it, queued here before it closed, do nothing."""
        event.stop()
        self._close()

    def on_click(self, event: events.Click) -> None:
        """A click closes it too."""
        event.stop()
        self._close()

    def _close(self) -> None:
        # Textual still hands a closed screen the events queued for it, and
        # ``dismiss`` pops whichever screen is on top: only the one shown closes.
        if self.is_active:
            self.dismiss(None)
