"""The main table: display, objectives, every seat's row, your hand, the log.

Direct keys (each binding has an id ``table.*``, so a key map can change it):

* ``1``–``0`` select hand cards (the digit is drawn before each card);
* the type letters ``M G C O Z K`` (shift + letter) select a display column
  to collect; while you build a play they address your piles instead: the
  pile's letter adds the hand card that fits on it;
* arrows or ``h j k l`` move a cursor over the display and the hand,
  ``space`` selects under it; the mouse selects by clicking;
* ``⏎`` confirms what the preview line shows (``p`` plays, ``c`` collects),
  ``Esc`` steps back; ``s`` changes the ends new piles go to;
* ``r`` reveal, ``o`` objective, ``x`` exchange, ``a`` landscape,
  ``d`` discard, ``e`` end turn, ``u`` undo, ``m`` memory mode, ``q`` menu;
* ``i`` explains the card or column under the cursor, then (pressed again)
  each objective and each of your landscapes, in the message line; ``=``
  shows the live score's breakdown (issue 14);
* ``t`` asks Hard for a hint (``table_hint.py``, issue 17).

The move being built is a ``MoveDraft`` (``ui/models/move_draft.py``, no
Textual); each region is its own widget (``ui/widgets/table_regions.py``)
fed a slice of the view. A game change (the app's ``table_changed``
signal) recomputes the view once and hands every region its slice; a key
press changes only the draft, so only the hand, display cursor, preview and
message can redraw. Keys that do not apply now are left out of the footer;
pressing one says why (the engine's reason). Commands go up through
``host(self).submit``.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal

from ... import engine
from ...engine import events as ev
from ...engine.rules_data import LEAF_TYPES
from ..models.hint import suggestion_preview
from ..models.host import GameHost, host
from ..models.info_text import info_items
from ..models.live_score import live_sheet
from ..models.log_lines import log_line
from ..models.move_draft import GAME_ACTIONS, HAND_KEYS, hand_order
from ..models.render import leaf_name
from ..models.table_preview import preview_text
from ..models.turn_news import NewsSlice, TurnNews, last_round_banner, seat_note
from ..models.table_text import (
    Layout, ObjectivesSlice, SeatSlice, YouSlice, display_slice, hand_slice, status_slice,
)
from ..widgets.size_notice import SizeNotice
from ..widgets.log_panel import LogPanel
from ..widgets.quiet_size import Spacer, TableColumn
from ..widgets.table_footer import TableFooter
from ..widgets.turn_news import NewsLine
from ..widgets.table_regions import (
    DisplayRegion, HandRegion, MessageLine, ObjectivesRegion, Opponents, PreviewLine, StatusLine, YouRegion,
)
from .table_hint import TableHint
from .table_score import LiveScoreScreen

__all__ = ["HAND_KEYS", "TableScreen", "hand_order"]


class TableScreen(TableHint):
    """Where the game is played."""

    MIN_SIZE = (60, 20)

    BINDINGS = [
        Binding("enter", "confirm", "Confirm", id="table.confirm"),
        Binding("c", "collect", "Collect", id="table.collect"),
        Binding("r", "reveal", "Reveal", id="table.reveal"),
        Binding("p", "play", "Play", show=False, id="table.play"),
        Binding("s", "ends", "Ends", id="table.ends"),
        Binding("o", "objective", "Objective", id="table.objective"),
        Binding("x", "exchange", "Exchange", id="table.exchange"),
        Binding("a", "landscape", "Landscape", id="table.landscape"),
        Binding("d", "discard", "Discard", id="table.discard"),
        Binding("e", "end_turn", "End turn", id="table.end_turn"),
        Binding("u", "undo", "Undo", id="table.undo"),
        Binding("t", "hint", "Hint", show=False, id="table.hint"),
        Binding("escape", "back", "Back", id="table.back"),
        Binding("question_mark,f1", "app.help", "Help", id="table.help"),
        Binding("q", "menu", "Menu", id="table.menu"),
        Binding("m", "app.toggle_memory", "Memory", show=False, id="table.memory"),
        Binding("i", "info", "Info", show=False, id="table.info"),
        Binding("equals_sign", "score", "Score", show=False, id="table.score"),
        Binding("left,h", "move(-1)", "Left", show=False, id="table.left"),
        Binding("right,l", "move(1)", "Right", show=False, id="table.right"),
        Binding("up,k", "zone('display')", "Up", show=False, id="table.up"),
        Binding("down,j", "zone('hand')", "Down", show=False, id="table.down"),
        Binding("space", "select", "Select", show=False, id="table.select"),
        Binding("pageup", "log_page(-1)", "Log up", show=False, id="table.log_up"),
        Binding("pagedown", "log_page(1)", "Log down", show=False, id="table.log_down"),
        *[Binding(k, f"card({i})", f"Card {k}", show=False, id=f"table.card{k}")
          for i, k in enumerate(HAND_KEYS)],
        *[Binding(f"{t},shift+{t.lower()}", f"type('{t}')", leaf_name(t), show=False, id=f"table.type_{t}")
          for t in LEAF_TYPES],
    ]

    def compose(self) -> ComposeResult:
        table = host(self).table
        others = len(table.seats) - 1 if table is not None else 0
        yield SizeNotice(id="size-notice")
        with Horizontal(id="table-body"):
            with TableColumn(id="table"):
                yield StatusLine(id="status")
                yield DisplayRegion(id="display")
                yield ObjectivesRegion(id="objectives")
                yield Opponents(others, id="opponents")
                yield Spacer(id="spacer")
                yield YouRegion(id="you")
                yield HandRegion(id="hand")
                yield NewsLine(id="news")
                yield MessageLine(id="message")
                yield PreviewLine(id="preview")
            yield LogPanel(id="log")
        self.footer = TableFooter()
        yield self.footer

    # ------------------------------------------------------------ drawing

    def on_mount(self) -> None:
        self.ready = True
        self.reset_log()
        host(self).table_changed.subscribe(self, self.refresh_table)
        # The keys offered changed (too small, a key map): redraw the footer's line.
        self.bindings_updated_signal.subscribe(self, lambda _screen: self.update_footer(bindings_changed=True))
        self.fit_to_size()
        self.refresh_table([])

    def fit_to_size(self) -> None:
        """Also give the regions that kept lines the lines they need: the
        window changed, or this screen is back from one over it."""
        super().fit_to_size()
        if self.ready:
            self.query_one(TableColumn).lay_out_kept()

    def size_changed(self) -> None:
        super().size_changed()
        if self.ready:
            self.refresh_table([])

    def on_resize(self, event: events.Resize) -> None:
        if self.ready:
            self.refresh_table([])

    def reset_log(self) -> None:
        """Redraw the whole log and the turn summaries (memory mode changed)."""
        if self.ready:
            app = host(self)
            self.query_one(LogPanel).reset(app)
            if app.table is not None:
                self.news = TurnNews(app.seat, [s.name for s in app.table.seats], memory=app.memory_mode)
                self.news.feed(app.table.events)

    def table_layout(self) -> Layout:
        """The window's size for the renderers."""
        w, h = self.app.size
        return Layout(w, h, self.query_one("#table").size.width or w)

    def refresh_table(self, events: list[ev.Event]) -> None:
        """A change of the game (new ``events``; [] to redraw): one fresh view,
        every region handed its slice (unchanged slices are not redrawn)."""
        if not self.ready or any(events is seen for seen in self._seen_events):
            return  # the same events come by the signal and by the app's direct call
        if events:
            self._seen_events = [*self._seen_events[-7:], events]
        app = host(self)
        table = app.table
        if table is None:
            return
        v = table.view(app.seat)
        self.draft.seat = app.seat
        self.draft.check = table.check
        self.draft.set_view(v, table.legal(app.seat))
        if events:
            self._note_events(app, events)
        layout = self.table_layout()
        thinking = v.seats[app.thinking].name if app.thinking is not None else None
        self.query_one(StatusLine).data = status_slice(v, app.seat, app.memory_mode, thinking)
        my_turn = self.draft.my_turn
        width = layout.table_width - 2  # inside the table's padding
        self.query_one(ObjectivesRegion).data = ObjectivesSlice(
            v, self.draft.objective_cost, v.turn.boost == "pagoda" and my_turn, layout.width < 150, layout.tall,
            width)
        sheet = live_sheet(v)  # the live score (RULES §7)
        rows = []
        for i, seat in enumerate(v.seats):
            if i != app.seat:
                level = table.seats[i].level if i < len(table.seats) else None
                control = v.seat_control[i] if i < len(v.seat_control) else None
                level = seat_note(seat.name, level, control)
                rows.append(SeatSlice(seat, v.current == i, level, app.memory_mode, layout.tall and layout.big,
                                      width, sheet.seats[i].total, i in sheet.winners))
        self.query_one(Opponents).set_rows(rows)
        self.query_one(YouRegion).data = YouSlice(v.seats[app.seat], v.current == app.seat, app.memory_mode,
                                                  layout, sheet.seats[app.seat].total, app.seat in sheet.winners)
        self.query_one(NewsLine).data = self.news_slice(v, layout)
        self.say(self.message, error=self.message_is_error)
        self.redraw_move()
        if any(isinstance(e, ev.TurnEnded) for e in events):
            self.query_one(TableColumn).lay_out_kept()  # a new turn: regions take the lines they need

    def news_slice(self, v: engine.PlayerView, layout: Layout) -> NewsSlice:
        """The banner and the other seats' turns since yours: one line in a
        short window, one per other seat in a tall one (plus the banner)."""
        banner = last_round_banner(v)
        lines = (len(v.seats) - 1 if layout.tall else 1) + (banner is not None)
        return NewsSlice(banner, tuple(self.news.summaries), lines, others=len(v.seats) - 1)

    def _note_events(self, app: GameHost, events: list[ev.Event]) -> None:
        """Log the new events; remember another seat's move for the preview."""
        self.query_one(LogPanel).add(app, events)
        self.news.feed(events)
        names = [seat.name for seat in app.table.seats] if app.table else []
        lines = []
        for event in events:
            seat = ev.event_seat(event)
            if seat is not None and seat != app.seat and not isinstance(event, ev.TurnEnded):
                line = log_line(event, app.seat, names, memory=app.memory_mode)
                if line is not None:
                    lines.append(line)
        if lines:
            self.last_move = Text(" ").join(lines)
        if any(isinstance(e, ev.TurnEnded) for e in events):
            self.message = Text("")  # a new turn: old messages are stale
            self.say(self.message)

    def redraw_move(self) -> None:
        """Redraw what the move being built shows: hand, display, preview, footer."""
        v = self.draft.view
        if not self.ready or v is None:
            return
        layout = self.table_layout()
        self.query_one(HandRegion).data = hand_slice(self.draft, self.key, layout.big, layout.table_width - 2)
        self.query_one(DisplayRegion).data = display_slice(self.draft, v, layout.big)
        hinted = suggestion_preview(self.draft, self.suggestion, self.key("table.confirm"))
        self.query_one(PreviewLine).data = hinted or preview_text(self.draft, self.key, self.last_move)
        # The footer's line is redrawn only when the keys that apply change.
        keys = tuple(self.check_action(a, ()) for a in sorted(GAME_ACTIONS | {"back"}))
        if keys != self._footer_keys:
            self._footer_keys = keys
            self.update_footer()


    # ------------------------------------------------ info and live score

    def action_info(self) -> None:
        """Explain the next thing in the message line: the card or column
        under the cursor, then each objective, then each landscape."""
        v = self.draft.view
        if v is None:
            return
        under = self.draft.under_cursor() if self.draft.my_turn else None
        card = column = None
        if under is not None and isinstance(under[1], int) and under[1] < len(self.draft.hand):
            card = self.draft.hand[under[1]]
        elif under is not None and isinstance(under[1], str):
            column = under[1]
        items = info_items(v, card, column)
        shown = self.message.plain
        at = next((i for i, item in enumerate(items) if item.plain == shown), -1)
        self.say(items[(at + 1) % len(items)])

    def action_score(self) -> None:
        """Show the live score's breakdown (RULES §7) over the table."""
        table = host(self).table
        if table is not None:
            self.app.push_screen(LiveScoreScreen(table.view(host(self).seat)))
