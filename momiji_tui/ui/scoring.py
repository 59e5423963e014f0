"""End scoring (RULES §7): every pile, acorns, each objective, totals, the winner."""

from __future__ import annotations

from rich.table import Table as RichTable
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from ..engine.rules_data import LEAF_NAMES, OBJECTIVE_NAMES
from ..engine.scoring import ScoreSheet
from .app import MomijiApp
from .render import TYPE_STYLE


def winner_sentence(sheet: ScoreSheet, names: list[str], me: int | None) -> str:
    """The result in words, naming the tiebreak when it decided (RULES §7)."""
    def who(i: int) -> str:
        return "You" if i == me else names[i]

    total = sheet.seats[sheet.winners[0]].total
    if len(sheet.winners) > 1:
        tied = " and ".join(who(i) for i in sheet.winners)
        return f"{tied} share the victory with {total} points (tied on points and on acorns)."
    w = sheet.winners[0]
    verb = "win" if w == me else "wins"
    if sheet.tiebreak_used:
        return f"{who(w)} {verb} on the acorn tiebreak with {total} points and {sheet.seats[w].acorns} acorns."
    return f"{who(w)} {verb} with {total} points."


def score_table(sheet: ScoreSheet, names: list[str], objectives_owned: dict[str, int]) -> RichTable:
    """Rows = sources of points, columns = seats (RULES §7)."""
    table = RichTable(expand=False, show_lines=False, header_style="bold")
    table.add_column("")
    for i, name in enumerate(names):
        table.add_column(name + (" ★" if i in sheet.winners else ""), justify="right")
    longest = max(len(s.piles) for s in sheet.seats)
    for k in range(longest):
        cells = []
        for s in sheet.seats:
            if k < len(s.piles):
                p = s.piles[k]
                cell = Text(p.leaf_type, style=TYPE_STYLE[p.leaf_type])
                cell.append(f" {p.top_value}×{p.cards}={p.points}" + (" ⛩" if p.closed else ""))
                cells.append(cell)
            else:
                cells.append(Text(""))
        table.add_row(Text("Piles" if k == 0 else ""), *cells)
    table.add_row("Acorns", *[str(s.acorns) for s in sheet.seats])
    for objective, owner in objectives_owned.items():
        cells = []
        for s in sheet.seats:
            o = next(x for x in s.objectives if x.objective == objective)
            cells.append(Text(f"{o.points} {'✓' if o.met else '✗'}") + Text(f" ({o.measure})", style="dim"))
        table.add_row(f"{OBJECTIVE_NAMES[objective]} [{names[owner]}]", *cells)
    table.add_row(Text("Total", style="bold"), *[Text(str(s.total), style="bold") for s in sheet.seats])
    return table


class ScoringScreen(Screen[None]):
    """The final score sheet, with the winner stated in words."""

    BINDINGS = [
        Binding("enter", "menu", "Menu", id="scoring.menu"),
        Binding("n", "new", "New game", id="scoring.new"),
        Binding("q", "app.quit", "Quit", id="scoring.quit"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="scoring"):
            yield Static(id="scoring-title", classes="title")
            yield Static(id="scoring-table")
            yield Static(id="scoring-legend")
        yield Footer()

    def on_mount(self) -> None:
        self.ready = True
        self.refresh_table([])

    def refresh_table(self, events: list) -> None:
        """Draw the sheet of the finished game."""
        if not getattr(self, "ready", False):
            return
        app = self.app
        assert isinstance(app, MomijiApp)
        if app.table is None:
            return
        sheet = app.table.score()
        names = [s.name for s in app.table.seats]
        self.query_one("#scoring-title", Static).update(
            Text("Final scores — " + winner_sentence(sheet, names, app.seat), style="bold"))
        self.query_one("#scoring-table", Static).update(
            score_table(sheet, names, dict(app.table.state.owners)))
        legend = ("Piles score top card × cards. Acorns score 1 each. An objective pays 10 to its owner "
                  "and 3 to every other seat that meets it; an owner who misses scores 0 (RULES §7); "
                  "✓ met, ✗ not met, (n) the count it compares. "
                  f"Leaf types: {', '.join(f'{k} {v}' for k, v in LEAF_NAMES.items())}.")
        self.query_one("#scoring-legend", Static).update(Text(legend, style="dim"))

    def action_menu(self) -> None:
        """Back to the menu."""
        app = self.app
        assert isinstance(app, MomijiApp)
        app.close_table()
        app.pop_screen()

    def action_new(self) -> None:
        """Back to the menu and open the new-game form."""
        from .menu import NewGameScreen

        self.action_menu()
        self.app.push_screen(NewGameScreen())
