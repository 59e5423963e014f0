"""End scoring (RULES §7): every pile, acorns, each objective, totals, the winner.

The sheet is revealed row by row (piles, acorns, each objective, total, then
the result in words) at the app's bot pace; ``space`` shows the next row at
once, ``⏎`` the whole sheet. With no pacing (tests) it is shown whole.
The pace comes from ``ScoringScreen.reveal_ticker`` (Textual's interval timer
by default), which tests replace with a clock that ticks only when told.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, Protocol

from rich.table import Table as RichTable
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Footer, Static

from ..engine.rules_data import LEAF_NAMES, OBJECTIVE_NAMES
from ..engine.scoring import ScoreSheet
from ..session.deal_seed import seed_reveal_line
from .app import MomijiApp
from .models.render import TORII, TYPE_INK
from .sizing import SizedScreen, SizeNotice


class Stoppable(Protocol):
    """What a ticker returns: something to stop (a Textual ``Timer``)."""

    def stop(self) -> None: ...


def textual_ticker(screen: SizedScreen, seconds: float, callback: Callable[[], None]) -> Stoppable:
    """Call ``callback`` every ``seconds`` of wall time (Textual's
    ``set_interval`` on ``screen``) until the returned timer is stopped."""
    return screen.set_interval(seconds, callback)


def reveal_interval(bot_delay: float) -> float | None:
    """Seconds between two rows of the reveal at the app's bot pace (0.4 to
    1.2 s), or None to show the sheet whole (no pacing)."""
    return min(max(bot_delay, 0.4), 1.2) if bot_delay > 0 else None


def winner_sentence(sheet: ScoreSheet, names: list[str], me: int | None) -> str:
    """The result in words, naming the tiebreak when it decided (RULES §7)."""
    def who(i: int) -> str:
        return "You" if i == me else names[i]

    total = sheet.seats[sheet.winners[0]].total
    if len(sheet.winners) > 1:
        tied = " and ".join(who(i) for i in sheet.winners)
        acorns = sheet.seats[sheet.winners[0]].acorns
        return (f"{tied} share the victory with {total} points: tied on points, and on acorns "
                f"({acorns} each) (RULES §7).")
    w = sheet.winners[0]
    verb = "win" if w == me else "wins"
    if sheet.tiebreak_used:
        others = [i for i, s in enumerate(sheet.seats) if s.total == total and i != w]
        rivals = " and ".join(who(i) for i in others)
        return (f"{who(w)} {verb} on the tiebreak: tied with {rivals} on {total} points, "
                f"{'you hold' if w == me else 'holding'} more acorns ({sheet.seats[w].acorns}) (RULES §7).")
    return f"{who(w)} {verb} with {total} points."


def score_steps(sheet: ScoreSheet, objectives_owned: dict[str, int]) -> int:
    """How many rows the sheet reveals: piles, acorns, each objective, total."""
    return 3 + len(objectives_owned)


def _row_groups(sheet: ScoreSheet, names: list[str], objectives_owned: dict[str, int]) -> list[list[tuple]]:
    """The sheet's rows in reveal order: piles, acorns, each objective, total.
    Each group is a list of ``(label, cells, end_section)``."""
    groups: list[list[tuple]] = []
    piles = []
    longest = max((len(s.piles) for s in sheet.seats), default=0)
    for k in range(max(longest, 1)):
        cells = []
        for s in sheet.seats:
            if k < len(s.piles):
                p = s.piles[k]
                cell = Text(p.leaf_type, style=TYPE_INK[p.leaf_type])
                cell.append(f" {p.top_value}×{p.cards}={p.points}" + (f" {TORII}" if p.closed else ""))
                cells.append(cell)
            else:
                cells.append(Text("—" if k == 0 else "", style="dim"))
        piles.append((Text("Piles" if k == 0 else ""), cells, False))
    piles.append((Text("  piles total", style="dim"),
                  [Text(str(sum(p.points for p in s.piles)), style="dim") for s in sheet.seats], True))
    groups.append(piles)
    groups.append([(Text("Acorns"), [Text(str(s.acorns)) for s in sheet.seats], False)])
    for objective, owner in objectives_owned.items():
        cells = []
        for s in sheet.seats:
            o = next(x for x in s.objectives if x.objective == objective)
            cells.append(Text(f"{o.points} {'✓' if o.met else '✗'}") + Text(f" ({o.measure})", style="dim"))
        groups.append([(Text(f"{OBJECTIVE_NAMES[objective]} [{names[owner]}]"), cells, False)])
    groups.append([(Text("Total", style="bold"), [Text(str(s.total), style="bold") for s in sheet.seats], True)])
    return groups


def score_table(sheet: ScoreSheet, names: list[str], objectives_owned: dict[str, int],
                shown: int | None = None) -> RichTable:
    """Rows = sources of points, columns = seats (RULES §7); only the first
    ``shown`` steps (see ``score_steps``) are filled in. Column widths are
    those of the whole sheet, so the table does not jump as rows appear."""
    groups = _row_groups(sheet, names, objectives_owned)
    shown = len(groups) if shown is None else shown
    done = shown >= len(groups)
    headers = [name + (" ★" if i in sheet.winners else "") for i, name in enumerate(names)]
    widths = [max(r[0].cell_len for g in groups for r in g)]
    for i, h in enumerate(headers):
        widths.append(max([len(h)] + [r[1][i].cell_len for g in groups for r in g]))
    table = RichTable(expand=False, show_lines=False, header_style="bold", pad_edge=True)
    table.add_column("", min_width=widths[0])
    for i, name in enumerate(names):
        table.add_column(headers[i] if done else name, justify="right", min_width=widths[i + 1])
    for group in groups[:shown]:
        for label, cells, end in group:
            table.add_row(label, *cells, end_section=end)
    return table


class ScoringScreen(SizedScreen):
    """The final score sheet, revealed row by row, with the winner in words."""

    MIN_SIZE = (40, 12)
    BINDINGS = [
        Binding("space", "next", "Next row", id="scoring.next"),
        Binding("enter", "skip", "Show all", id="scoring.skip"),
        Binding("enter", "menu", "Menu", id="scoring.menu"),
        Binding("n", "new", "New game", id="scoring.new"),
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

    def compose(self) -> ComposeResult:
        yield SizeNotice()
        with VerticalScroll(id="scoring"):
            yield Static(id="scoring-title", classes="title")
            yield Static(id="scoring-result")
            yield Static(id="scoring-table")
            yield Static(id="scoring-legend")
        yield Footer(compact=True)

    @property
    def momiji(self) -> MomijiApp:
        app = self.app
        assert isinstance(app, MomijiApp)
        return app

    def on_mount(self) -> None:
        self.ready = True
        app = self.momiji
        if app.table is not None:
            self.steps = score_steps(app.table.score(), dict(app.table.state.owners)) + 1  # + the result
        interval = reveal_interval(app.bot_delay)
        if interval is not None:
            self._timer = type(self).reveal_ticker(self, interval, self.action_next)
        else:
            self.shown = self.steps
        self.fit_to_size()
        self.refresh_table([])

    @property
    def revealing(self) -> bool:
        """True until the whole sheet is shown."""
        return self.shown < self.steps

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("next", "skip"):
            return self.revealing
        if action == "menu":
            return not self.revealing
        return True

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
        self.query_one("#scoring-title", Static).update(Text("Final scores (RULES §7)", style="bold"))
        self.query_one("#scoring-table", Static).update(score_table(sheet, names, owners, self.shown))
        result = Text()
        if not self.revealing:
            result.append(winner_sentence(sheet, [s.name for s in app.table.seats], app.seat), style="bold")
        else:
            result.append(f"Revealing… {self.app_key('space')} next row, {self.app_key('enter')} all.",
                          style="dim")
        self.query_one("#scoring-result", Static).update(result)
        legend = ("Piles score top card × cards. Acorns score 1 each. An objective pays 10 to its owner "
                  "and 3 to every other seat that meets it; an owner who misses scores 0; "
                  f"✓ met, ✗ not met, (n) the count it compares; {TORII} a pile closed by a torii. "
                  f"Leaf types: {', '.join(f'{k} {v}' for k, v in LEAF_NAMES.items())}. "
                  + seed_reveal_line(app.table.state.seed, app.table.finished))
        self.query_one("#scoring-legend", Static).update(Text(legend, style="dim"))
        self.refresh_bindings()

    def app_key(self, default: str) -> str:
        """The key to show for ``space``/``enter`` (the key map applied)."""
        binding_id = {"space": "scoring.next", "enter": "scoring.skip"}[default]
        return self.momiji.key_for(binding_id)

    def action_next(self) -> None:
        """Reveal the next row."""
        if self.revealing:
            self.shown += 1
            self.refresh_table([])
        if not self.revealing and self._timer is not None:
            self._timer.stop()
            self._timer: Stoppable | None = None

    def action_skip(self) -> None:
        """Show the whole sheet now."""
        self.shown = self.steps
        self.action_next()
        self.refresh_table([])

    def action_menu(self) -> None:
        """Back to the menu."""
        app = self.momiji
        app.close_table()
        app.pop_screen()

    def action_leave(self) -> None:
        """Back to the menu (even while the sheet is being revealed)."""
        self.action_menu()

    def action_new(self) -> None:
        """Back to the menu and open the new-game form."""
        from .menu import NewGameScreen

        self.action_menu()
        self.app.push_screen(NewGameScreen())
