"""The post-game review screen, opened from the score sheet.

Hard searches each of the seat's decisions from the seat's own view at that
moment (RULES §8) in a worker thread, never on the event loop (through the
app's ``advise``: over SSH, the bot pool's worker processes); a progress bar
counts the decisions. Esc cancels (nothing is cached) and goes back. When
done, the review shows (``ui/models/review_text.py``): a sparkline of the
seat's estimated win chance, the three costliest turns, then every turn. A
review cached beside the save shows at once.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Footer, ProgressBar, Static
from textual.worker import Worker, WorkerState

from ...engine.events import Event
from ...session.review import REVIEW_ITERATIONS, Advisor, ReviewCancelled
from ...session.review_saved import ReviewOutcome, ReviewRefused, review_events
from ...session.table import Table
from ..models.review_text import review_text
from .sized import SizedScreen, SizeNotice

FAILED = "The review could not be made: {error}"
NOT_CACHED = "Not saved beside the game (read-only folder or disk full): it is computed again next time."


class ReviewScreen(SizedScreen):
    """Review ``seat``'s decisions in the finished game ``events``, cached
    beside ``save`` (None: not cached)."""

    MIN_SIZE = (40, 12)
    BINDINGS = [
        Binding("escape,q", "back", "Back", id="review.back"),
    ]
    #: Hard's search (None: the app's ``advise``, over SSH the bot pool's) and
    #: its budget per decision; tests inject a stand-in.
    advisor: ClassVar[Advisor | None] = None
    iterations: ClassVar[int] = REVIEW_ITERATIONS

    def __init__(self, events: list[Event], seat: int, save: Path | None) -> None:
        super().__init__()
        self.events = list(events)
        self.seat = seat
        self.save = save
        self.outcome: ReviewOutcome | None = None
        self._stop = threading.Event()

    def compose(self) -> ComposeResult:
        yield SizeNotice()
        with VerticalScroll(id="review"):
            yield Static(Text("Post-game review", style="bold"), id="review-title")
            yield Static(Text("Hard looks at each of your decisions…", style="dim"), id="review-status")
            yield ProgressBar(total=None, show_eta=False, id="review-progress")
            yield Static(id="review-body")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.fit_to_size()
        injected = type(self).advisor
        self._advisor: Advisor = injected if injected is not None else self.momiji.advise
        self.run_worker(self._review, thread=True, group="review", name="review", exit_on_error=False)

    @classmethod
    def of_table(cls, table: Table, seat: int) -> ReviewScreen:
        """The review of ``seat`` in ``table``'s finished game, cached beside its save (if it has one)."""
        return cls(table.events, seat, table.save_file)

    def _review(self) -> ReviewOutcome:
        """In the worker thread: the review, reporting progress to the screen."""
        return review_events(self.events, self.seat, save=self.save, iterations=type(self).iterations,
                             advisor=self._advisor, progress=self._progress_from_thread,
                             should_stop=self._stop.is_set)

    def _progress_from_thread(self, done: int, total: int) -> None:
        if not self._stop.is_set():
            self.app.call_from_thread(self._show_progress, done, total)

    def _show_progress(self, done: int, total: int) -> None:
        if not self.is_attached:
            return
        self.query_one("#review-progress", ProgressBar).update(total=max(total, 1), progress=done)
        status = f"Hard looks at each of your decisions: {done} of {total}. Esc cancels."
        self.query_one("#review-status", Static).update(Text(status, style="dim"))

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group != "review" or event.state not in (WorkerState.SUCCESS, WorkerState.ERROR):
            return
        event.stop()
        if event.state == WorkerState.SUCCESS and isinstance(event.worker.result, ReviewOutcome):
            self.outcome = event.worker.result
            uncached = self.save is not None and not self.outcome.cached
            self._show(review_text(self.outcome.review, width=max(40, self.app.size.width - 4),
                                   events=self.outcome.events),
                       NOT_CACHED if uncached else "")
            return
        error = event.worker.error
        if isinstance(error, ReviewCancelled):
            return
        message = str(error) if isinstance(error, ReviewRefused) else FAILED.format(error=error)
        self._show(Text(message, style="bold red"), "")

    def _show(self, body: Text, note: str) -> None:
        self.query_one("#review-progress", ProgressBar).display = False
        self.query_one("#review-status", Static).update(Text(note, style="dim"))
        self.query_one("#review-status", Static).display = bool(note)
        self.query_one("#review-body", Static).update(body)

    def action_back(self) -> None:
        """Cancel the review if it still runs (nothing is cached) and go back."""
        self._stop.set()
        self.app.pop_screen()

    def on_unmount(self) -> None:
        self._stop.set()

