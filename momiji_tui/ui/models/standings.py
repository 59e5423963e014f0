"""The race for objectives: for each revealed objective its owner, the seats
measuring best now and whether the viewer meets it (RULES §1.4, §4.3, §7).
Pure: no Textual.

A minimal stand-in with the names of engineer A's ``standings`` module
(issue 14 part A: ``Standing``, ``standings``, ``seat_label``,
``leader_text``): when A's lands, it replaces this file whole.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...engine import PlayerView
from ...engine.rules_data import OBJECTIVE_NAMES
from ...engine.scoring import objective_measure
from ...engine.state import Pile, SeatState


@dataclass(frozen=True)
class Standing:
    """One revealed objective now: each seat's count (``measures``, RULES
    §1.4: cards in piles, or acorns), the ``best``, the ``leaders`` (empty
    while ``best`` is 0), the ``owner`` (or None) and whether the viewer is
    among the leaders (``you_meet``)."""

    objective: str
    owner: int | None
    measures: tuple[int, ...]
    best: int
    leaders: tuple[int, ...]
    you_meet: bool

    @property
    def name(self) -> str:
        """The objective's name (``Grove of Ginkgo``)."""
        return OBJECTIVE_NAMES[self.objective]


def standings(view: PlayerView) -> tuple[Standing, ...]:
    """One ``Standing`` per revealed objective, in the view's order (RULES
    §1.4: the best seat(s) with at least 1 meet an objective). Raises
    ``KeyError`` for an objective id the rules do not know."""
    seats = [SeatState(s.name, row=[Pile(p.leaf_type, list(p.cards), p.closed) for p in s.row],
                       acorns=s.acorns) for s in view.seats]
    out = []
    for objective in view.objectives:
        measures = tuple(objective_measure(objective, s) for s in seats)
        best = max(measures, default=0)
        leaders = tuple(i for i, m in enumerate(measures) if m == best) if best >= 1 else ()
        out.append(Standing(objective, view.owner_of(objective), measures, best, leaders,
                            view.seat is not None and view.seat in leaders))
    return tuple(out)


def seat_label(view: PlayerView, seat: int, cells: int = 0) -> str:
    """``you`` for the viewer, else the seat's name (cut to ``cells`` with … when given)."""
    if seat == view.seat:
        return "you"
    name = view.seats[seat].name
    return name if not cells or len(name) <= cells else name[:max(cells - 1, 1)] + "…"


def leader_text(view: PlayerView, standing: Standing, cells: int = 0) -> str:
    """Who leads, in words: ``Kaede (5)``, ``you, Kaede (3)``, ``none yet``."""
    if not standing.leaders:
        return "none yet"
    return ", ".join(seat_label(view, i, cells) for i in standing.leaders) + f" ({standing.best})"
