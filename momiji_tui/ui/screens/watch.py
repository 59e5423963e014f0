"""Watching a game (over SSH): the table as a spectator sees it, live.

The screen is handed a :class:`~momiji_tui.session.spectators.Watch` (data
goes down) and draws, from the spectator's view alone (``Watch.view``:
``engine.view(state, None)``, RULES §8: no hand, no deck order), the same
regions the table screen draws: status line, display, objectives, every
seat's row (as another seat's), and the move log told to nobody in
particular. It only listens to the table: no key of a watcher reaches the
game, so a watcher never holds up a move. ``Esc`` or ``q`` leaves (the
players are told); the server's lobby ends the watch (and this screen)
when the game can no longer be watched.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.widgets import Footer

from ...engine import PlayerView
from ...engine import events as ev
from ...engine.rules_data import OBJECTIVE_COST
from ...session.spectators import Watch
from ..models.live_score import live_sheet
from ..models.table_text import DisplaySlice, Layout, ObjectivesSlice, SeatSlice, status_slice
from ..models.turn_news import seat_note
from ..widgets.log_panel import LogPanel
from ..widgets.size_notice import SizeNotice
from ..widgets.table_regions import (
    DisplayRegion, MessageLine, ObjectivesRegion, Opponents, StatusLine, TableColumn,
)
from .sized import SizedScreen


class TableMoved(Message):
    """The watched table accepted events (posted by the table's listener)."""

    def __init__(self, events: list[ev.Event]) -> None:
        super().__init__()
        self.events = events


def watch_title(watch: Watch) -> Text:
    """The line above the table: what is watched, and how to leave."""
    t = Text(" Watching ", style="bold reverse")
    t.append(f" {watch.game_id}: {', '.join(watch.names)}. You see what every seat sees (no hand). "
             "Esc or q leaves.", style="italic")
    return t


class WatchScreen(SizedScreen):
    """A game watched live from the spectator's view."""

    MIN_SIZE = (60, 20)
    BINDINGS = [
        Binding("escape,q", "leave", "Leave", id="watch.leave"),
        Binding("question_mark,f1", "app.help", "Help", id="watch.help"),
        Binding("pageup", "log_page(-1)", "Log up", show=False, id="watch.log_up"),
        Binding("pagedown", "log_page(1)", "Log down", show=False, id="watch.log_down"),
    ]

    def __init__(self, watch: Watch, leave: Callable[[], None] | None = None) -> None:
        super().__init__()
        self.watched = watch
        self._leave = leave
        self._unsubscribe: Callable[[], None] | None = None
        self.ready = False
        self.views = 0  # spectator views drawn (tests read it)

    def compose(self) -> ComposeResult:
        yield SizeNotice(id="size-notice")
        with TableColumn(id="table-body"):
            with TableColumn(id="table"):
                yield MessageLine(id="watch-title")
                yield StatusLine(id="status")
                yield DisplayRegion(id="display")
                yield ObjectivesRegion(id="objectives")
                yield Opponents(len(self.watched.names), id="opponents")
            yield LogPanel(id="log")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        if self.app.return_code is not None:
            return  # opened as the app exits
        self.ready = True
        table = self.watched.table
        # Called in whichever app or task made the move: only queue a message here.
        self._unsubscribe = table.subscribe(self._moved)
        self.query_one("#watch-title", MessageLine).data = watch_title(self.watched)
        self.query_one(LogPanel).write_events(table.events, None, self.watched.names)
        self.fit_to_size()
        self.redraw()

    def _moved(self, events: list[ev.Event]) -> None:
        """The table's listener: called by whoever moved, so only queue."""
        self.post_message(TableMoved(list(events)))

    def on_unmount(self) -> None:
        """However the screen goes (Esc, the palette opening a game, the
        session ending), the watch ends with it."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        self._stop()

    def _stop(self) -> None:
        leave, self._leave = self._leave, None
        if leave is not None:
            leave()

    def on_table_moved(self, message: TableMoved) -> None:
        if self.ready:
            self.query_one(LogPanel).write_events(message.events, None, self.watched.names)
            self.redraw()

    def on_resize(self, event: events.Resize) -> None:
        super().on_resize(event)
        if self.ready:
            self.redraw()

    def redraw(self) -> None:
        """Draw every region from one fresh spectator view."""
        if not self.ready:
            return
        v = self.watched.view()
        self.views += 1
        self.draw(v)

    def draw(self, v: PlayerView) -> None:
        """Hand each region its slice of the spectator's view ``v``."""
        w, h = self.app.size
        layout = Layout(w, h, self.query_one("#table").size.width or w)
        width = layout.table_width - 2
        self.query_one(StatusLine).data = status_slice(v, None, False, None)
        drawn = (tuple(v.display), tuple(v.types), v.deck_size > 0)
        self.query_one(DisplayRegion).data = DisplaySlice(v, (), None, layout.big, drawn)
        self.query_one(ObjectivesRegion).data = ObjectivesSlice(
            v, OBJECTIVE_COST, False, layout.width < 150, layout.tall, width)
        sheet = live_sheet(v)  # the live score (RULES §7), from public facts only
        controls = v.seat_control
        rows = [SeatSlice(seat, v.current == i and v.phase != "ended",
                          seat_note(seat.name, None, controls[i] if i < len(controls) else None),
                          False, layout.tall and layout.big, width, sheet.seats[i].total, i in sheet.winners)
                for i, seat in enumerate(v.seats)]
        self.query_one(Opponents).set_rows(rows)

    def action_log_page(self, direction: int) -> None:
        """Scroll the move log by a page."""
        log = self.query_one(LogPanel)
        log.scroll_page_up(animate=False) if direction < 0 else log.scroll_page_down(animate=False)

    def action_leave(self) -> None:
        """Stop watching: back to the lobby (the players are told)."""
        self._stop()
        if self.is_current:
            self.app.pop_screen()
