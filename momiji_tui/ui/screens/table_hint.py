"""The table's hint key (issue 17): Hard thinks about the player's move in
a worker (a thread; over SSH the app's ``advise`` sends it to the bot pool,
never the event loop), "thinking…" shows and Esc cancels; then the message
line shows the suggestion with its estimated win chance and the next two
alternatives, the suggestion is loaded into the move being built (the
preview is the one a player builds) and ⏎ plays it. The hint is recorded
in the game log (``HintShown``) before it is shown."""

from __future__ import annotations

import threading
from functools import partial

from textual.worker import Worker, WorkerState

from ...bots.advice import Advice
from ...engine import Command
from ..models.hint import (
    CANCELLED, HINT_SEED, MOVED_ON, THINKING, hint_message, hint_refusal, load_suggestion, percent,
    suggestion_ready,
)
from ..models.host import host
from .table_actions import TableActions

HINT_GROUP = "hint"


class TableHint(TableActions):
    """The hint key's actions, between the table's actions and its screen."""

    def __init__(self) -> None:
        super().__init__()
        self.suggestion: Command | None = None  # the hint's command, while the draft holds it
        self._hint_stop: threading.Event | None = None  # set to cancel the hint being thought
        self._hint_worker: Worker[Advice] | None = None
        self._hint_events = 0  # the game's length when the hint was asked
        # The last hint shown and the game's length after it was recorded: the
        # same position asked again shows it again, counted once.
        self._last_hint: tuple[int, Advice] | None = None

    @property
    def hint_thinking(self) -> bool:
        """True while Hard thinks about a hint."""
        return self._hint_stop is not None

    def action_hint(self) -> None:
        """Ask Hard for a hint from this seat's own view (RULES §8)."""
        app = host(self)
        table = app.table
        view = table.view(app.seat) if table is not None else None
        reason = hint_refusal(view, app.seat, allowed=app.hints_allowed())
        if reason:
            self.refuse(reason)
            return
        if self.hint_thinking or table is None or view is None:
            return
        last = self._last_hint
        if last is not None and last[0] == len(table.events):
            self.show_hint(last[1])
            return
        stop = threading.Event()
        self._hint_stop = stop
        self._hint_events = len(table.events)
        self.say(THINKING)
        self._hint_worker = self.run_worker(
            partial(app.advise, view, seed=HINT_SEED, should_stop=stop.is_set),
            thread=True, group=HINT_GROUP, name="hint", exit_on_error=False)

    def cancel_hint(self) -> bool:
        """Stop the hint being thought (nothing is shown or recorded); True if one was."""
        stop, worker = self._hint_stop, self._hint_worker
        if stop is None:
            return False
        stop.set()
        if worker is not None:
            worker.cancel()
        self._hint_stop = self._hint_worker = None
        return True

    def on_screen_suspend(self) -> None:
        """Another screen opened over the table (a panel, help, the palette):
        the hint being thought is dropped, never recorded unseen (recording
        changes the game, which would close that screen)."""
        self.cancel_hint()

    def action_back(self) -> None:
        """Esc: cancel the hint being thought, else step back as usual."""
        if self.cancel_hint():
            self.say(CANCELLED)
            return
        self.suggestion = None
        super().action_back()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group != HINT_GROUP or event.worker is not self._hint_worker:
            return
        if event.state not in (WorkerState.SUCCESS, WorkerState.ERROR):
            return
        self._hint_stop = self._hint_worker = None
        if event.state == WorkerState.ERROR:
            self.refuse(f"Hard could not think of a hint: {event.worker.error}")
            return
        advice = event.worker.result
        app = host(self)
        table = app.table
        if advice is None or not advice.choices or table is None or len(table.events) != self._hint_events:
            self.refuse(MOVED_ON)
            return
        error = app.record_hint(app.seat, percent(advice.best))
        if error:
            self.refuse(error)
            return
        self._last_hint = (len(table.events), advice)
        self.show_hint(advice)

    def show_hint(self, advice: Advice) -> None:
        """Load the suggestion into the move being built and say it."""
        self.suggestion = advice.best.command
        load_suggestion(self.draft, advice.best.command)
        self.say(hint_message(advice, self.key("table.confirm")))
        self.redraw_move()

    def why_not(self, action: str) -> str | None:
        """⏎ applies while the move being built is the hint's suggestion."""
        if action == "confirm" and suggestion_ready(self.draft, self.suggestion):
            return None
        return super().why_not(action)

    def action_confirm(self) -> None:
        """⏎: play the hint's suggestion as loaded, else what the preview shows."""
        command = self.suggestion
        if command is not None and suggestion_ready(self.draft, command):
            self.suggestion = None
            self.send_done(command)
            return
        self.suggestion = None
        super().action_confirm()
