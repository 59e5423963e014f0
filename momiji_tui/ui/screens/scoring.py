"""End scoring (RULES §7): every pile, acorns, each objective, totals, the winner.

The sheet is revealed row by row (piles, acorns, each objective, total, then
the result in words) at the app's bot pace; ``space`` shows the next row at
once, ``⏎`` the whole sheet. When the pace shows the last row, ⏎ does
nothing until one more tick has passed (its footer key hidden meanwhile):
a ⏎ pressed to show all just as the sheet completes never leaves it.
With no pacing (tests) it is shown whole.
The pace comes from ``ScoringScreen.reveal_ticker`` (Textual's interval timer
by default), which tests replace with a clock that ticks only when told.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, Protocol

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Footer, Static

from ...engine.rules_data import LEAF_NAMES
from ...session.deal_seed import seed_reveal_line
from ...session.tutorial import score_explained
from ...session.tutorial_table import TutorialTable
from ..models.turn_news import end_reason_title
from ..models.score_sheet import OWNER_MARK, reveal_interval, score_steps, score_table, winner_sentence
from ..models.render import TORII
from ...store.errors import StoreError
from ..models.new_game import NewGameOptions, rematch_options
from ..models.host import RatingsTeller
from .new_game import NewGameScreen
from .review import ReviewScreen
from .sized import SizedScreen, SizeNotice


class Stoppable(Protocol):
    """What a ticker returns: something to stop (a Textual ``Timer``)."""

    def stop(self) -> None: ...


def textual_ticker(screen: SizedScreen, seconds: float, callback: Callable[[], None]) -> Stoppable:
    """Call ``callback`` every ``seconds`` of wall time (Textual's
    ``set_interval`` on ``screen``) until the returned timer is stopped."""
    return screen.set_interval(seconds, callback)


class ScoringScreen(SizedScreen):
    """The final score sheet, revealed row by row, with the winner in words."""

    MIN_SIZE = (40, 12)
    BINDINGS = [
        Binding("space", "next", "Next row", id="scoring.next"),
        Binding("enter", "skip", "Show all", id="scoring.skip"),
        Binding("enter", "menu", "Menu", id="scoring.menu"),
        Binding("n", "new", "New game", id="scoring.new"),
        Binding("r", "rematch", "Rematch", id="scoring.rematch"),
        Binding("v", "review", "Review", id="scoring.review"),
        Binding("q", "leave", "Menu", show=False, id="scoring.back"),
    ]
    #: What paces the reveal: called once as ``(screen, seconds, callback)``,
    #: returns something with ``stop()``. Tests inject a ticker they drive.
    reveal_ticker: ClassVar[Callable[[SizedScreen, float, Callable[[], None]], Stoppable]] = \
        staticmethod(textual_ticker)

    def __init__(self) -> None:
        super().__init__()
        self.ready = False
        self.shown = 0
        self.steps = 0
        self._timer: Stoppable | None = None
        self.settling = False  # the pace just showed the last row: ⏎ waits one tick

    def compose(self) -> ComposeResult:
        yield SizeNotice()
        with VerticalScroll(id="scoring"):
            yield Static(id="scoring-title", classes="title")
            yield Static(id="scoring-result")
            yield Static(id="scoring-table")
            yield Static(id="scoring-legend")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        if self.app.return_code is not None:
            return  # opened as the app exits (the keys behind a quit): Textual composed no children
        self.ready = True
        app = self.momiji
        app.table_changed.subscribe(self, self.refresh_table)
        if app.table is not None:
            self.steps = score_steps(app.table.score(), dict(app.table.state.owners)) + 1  # + the result
        interval = reveal_interval(app.bot_delay)
        if interval is not None:
            self._timer = type(self).reveal_ticker(self, interval, self.tick)
        else:
            self.shown = self.steps
        self.fit_to_size()
        self.refresh_table([])

    def on_resize(self, event: events.Resize) -> None:
        super().on_resize(event)
        self.refresh_table([])  # the sheet fits the new width

    @property
    def revealing(self) -> bool:
        """True until the whole sheet is shown."""
        return self.shown < self.steps

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.too_small:
            return super().check_action(action, parameters)
        if action in ("next", "skip"):
            return self.revealing
        if action == "menu":
            return not self.revealing and not self.settling
        if action == "rematch":
            return not self.revealing and self.rematch() is not None
        return True

    def rematch(self) -> NewGameOptions | None:
        """The same seats and levels for a new deal (a solo game), or None."""
        table = self.momiji.table
        if table is None or not table.bots_run_by_front_end:
            return None
        mode = str(table.log.header.get("landscape_mode", "starter")) if table.log is not None else "starter"
        return rematch_options(table.seats, mode)

    def action_rematch(self) -> None:
        """Deal again for the same seats and levels (a new seed)."""
        options = self.rematch()
        if options is None:
            return
        try:
            self.momiji.start_game(options)
        except (StoreError, OSError, ValueError) as exc:  # disk full, read-only…
            self.notify(str(exc) if isinstance(exc, StoreError) else f"Could not start: {exc}", severity="error")

    def refresh_table(self, events: list) -> None:
        """Draw the sheet of the finished game (the rows shown so far)."""
        if not self.ready:
            return
        app = self.momiji
        if app.table is None:
            return
        sheet = app.table.score()
        names = ["You" if i == app.seat else s.name for i, s in enumerate(app.table.seats)]
        owners = dict(app.table.state.owners)
        self.query_one("#scoring-title", Static).update(
            end_reason_title(Text("Final scores (RULES §7)", style="bold"), app.table.events, names, app.seat))
        width = max(self.app.size.width - 4, 20)  # the padding and the scroll bar
        self.query_one("#scoring-table", Static).update(score_table(sheet, names, owners, self.shown, width))
        result = Text()
        if not self.revealing:
            result.append(winner_sentence(sheet, [s.name for s in app.table.seats], app.seat), style="bold")
            ratings = self.app.rating_line(app.table.game_id) if isinstance(self.app, RatingsTeller) else None
            if ratings:
                result.append("\n" + ratings)
        else:
            result.append(f"Revealing… {self.app_key('space')} next row, {self.app_key('enter')} all.",
                          style="dim")
        self.query_one("#scoring-result", Static).update(result)
        legend = ("Piles score top card × cards. Acorns score 1 each. An objective pays 10 to its owner "
                  "and 3 to every other seat that meets it; an owner who misses scores 0; "
                  f"✓ met, ✗ not met, (n) the count it compares, {OWNER_MARK} its owner on a narrow sheet; "
                  f"{TORII} a pile closed by a torii. "
                  f"Leaf types: {', '.join(f'{k} {v}' for k, v in LEAF_NAMES.items())}. "
                  + seed_reveal_line(app.table.state.seed, app.table.finished, app.table.daily))
        if isinstance(app.table, TutorialTable) and not self.revealing:
            lines = score_explained(sheet, names, app.table.state.objectives)
            offer = (f"That was the guided first game. {self.momiji.key_for('scoring.rematch')}: "
                     f"a real game against Easy (a new deal); {self.momiji.key_for('scoring.menu')}: "
                     "the menu.")
            self.query_one("#scoring-legend", Static).update(Text("\n".join([offer, *lines])))
        else:
            self.query_one("#scoring-legend", Static).update(Text(legend, style="dim"))
        self.refresh_bindings()

    def app_key(self, default: str) -> str:
        """The key to show for ``space``/``enter`` (the key map applied)."""
        binding_id = {"space": "scoring.next", "enter": "scoring.skip"}[default]
        return self.momiji.key_for(binding_id)

    def tick(self) -> None:
        """The pace: the next row; after the last, one more tick keeps ⏎
        from meaning "Menu" (``settling``), then the pace stops."""
        if self.revealing:
            self.shown += 1
            self.settling = not self.revealing
            self.refresh_table([])
        else:
            self.settling = False
            self._stop_timer()
            self.refresh_table([])

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def action_next(self) -> None:
        """Reveal the next row."""
        if self.revealing:
            self.shown += 1
            self.refresh_table([])
        if not self.revealing:
            self._stop_timer()

    def action_skip(self) -> None:
        """Show the whole sheet now."""
        self.shown = self.steps
        self.action_next()
        self.refresh_table([])

    def action_menu(self) -> None:
        """Back to the menu."""
        self.momiji.close_table()
        self.app.pop_screen()

    def action_leave(self) -> None:
        """Back to the menu (even while the sheet is being revealed)."""
        self.action_menu()

    def action_review(self) -> None:
        """The post-game review of your decisions."""
        if self.momiji.table is not None:
            self.app.push_screen(ReviewScreen.of_table(self.momiji.table, self.momiji.seat))

    def action_new(self) -> None:
        """Back to the menu and open the new-game form."""
        self.action_menu()
        self.app.push_screen(NewGameScreen())
