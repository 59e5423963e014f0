"""The live score: every seat's points as if the game ended now (RULES §7),
from what a seat's view shows. Pure: no Textual.

Scoring needs only public facts (RULES §8: piles, acorns and objective
owners are public; hand cards score nothing), so a view is scored by the
engine's own ``scoring.score`` on seats rebuilt from it: at the end of the
game the live score *is* the score sheet.
"""

from __future__ import annotations

from rich import box
from rich.table import Table as RichTable
from rich.text import Text

from ...engine import PlayerView
from ...engine.rules_data import OBJECTIVE_NAMES
from ...engine.scoring import ScoreSheet, score
from ...engine.state import GameState, Pile, SeatState
from .render import short_label

LEADER = "★"  # the seat(s) leading now


def seat_states(view: PlayerView) -> list[SeatState]:
    """The seats of ``view`` as the scoring sees them: rows and acorns (no
    hands: they score nothing, RULES §7). Raises nothing."""
    return [
        SeatState(seat.name, row=[Pile(p.leaf_type, list(p.cards), p.closed) for p in seat.row],
                  acorns=seat.acorns, panorama=list(seat.panorama), used=list(seat.used))
        for seat in view.seats
    ]


def live_sheet(view: PlayerView) -> ScoreSheet:
    """Every seat's score if the game ended now (RULES §7): piles (top value ×
    cards), acorns, and each owned objective (10 to an owner who meets it, 3
    to every other seat meeting it). ``winners`` are the leaders (RULES §7
    ties: more acorns, still tied shared). Equal to the end's score sheet
    once the game is over. Raises ``ValueError`` for a view with no seats."""
    if not view.seats:
        raise ValueError("a view with no seats has no score")
    state = GameState(
        game_id=view.game_id, seed=None, types=view.types, objectives=view.objectives,
        first_seat=view.first_seat, seats=seat_states(view), deck=(), owners=dict(view.owners),
    )
    return score(state)


def leaders(sheet: ScoreSheet) -> tuple[int, ...]:
    """The seats leading now: the highest total, the acorn tiebreak applied
    (RULES §7); several when still tied."""
    return sheet.winners


def breakdown_table(view: PlayerView, sheet: ScoreSheet, name_cells: int = 12) -> RichTable:
    """The live score by seat, one row each (four seats fit 80 columns):
    piles, acorns, each owned objective (by its number on the objectives
    line: points, ``✓`` met or ``✗``, the seat's count), the total, the
    leaders starred (RULES §7)."""
    owned = [(i, o) for i, o in enumerate(view.objectives, 1) if view.owner_of(o) is not None]
    table = RichTable(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, header_style="bold")
    table.add_column("seat")
    table.add_column("piles", justify="right")
    table.add_column("acorns", justify="right")
    for number, _o in owned:
        table.add_column(f"obj {number}", justify="right")
    table.add_column("total", justify="right")
    for seat in sheet.seats:
        name = "You" if seat.seat == view.seat else short_label(view.seats[seat.seat].name, name_cells)
        lead = seat.seat in sheet.winners
        cells = [Text(name + (f" {LEADER}" if lead else ""), style="bold" if lead else ""),
                 Text(str(sum(p.points for p in seat.piles))), Text(str(seat.acorns))]
        for _number, objective in owned:
            got = next(x for x in seat.objectives if x.objective == objective)
            cells.append(Text(f"{got.points} {'✓' if got.met else '✗'}") + Text(f"({got.measure})", style="dim"))
        cells.append(Text(str(seat.total), style="bold"))
        table.add_row(*cells)
    return table


def owned_legend(view: PlayerView, name_cells: int = 12) -> list[Text]:
    """``obj 2 Squirrel's Store [Kaede]``, one per owned objective."""
    out = []
    for number, objective in enumerate(view.objectives, 1):
        owner = view.owner_of(objective)
        if owner is not None:
            label = "you" if owner == view.seat else short_label(view.seats[owner].name, name_cells)
            out.append(Text(f"obj {number} {OBJECTIVE_NAMES[objective]} [{label}]"))
    return out
