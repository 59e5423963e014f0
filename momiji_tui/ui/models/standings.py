"""The race for objectives: for each revealed objective its owner, the seats
measuring best now and whether the viewer meets it (RULES §1.4, §4.3, §7).
Pure: no Textual; the table's objectives line and the objective dialog use
the same ``standings``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...engine import PlayerView
from ...engine.rules_data import OBJECTIVE_NAMES
from ...engine.scoring import objective_measure
from .live_score import seat_states
from .render import short_label


@dataclass(frozen=True)
class Standing:
    """One revealed objective now.

    ``measures``: each seat's count (RULES §1.4: only cards in piles, or
    acorns); ``best``: the highest; ``leaders``: the seats at ``best``,
    empty while ``best`` is 0 (nobody meets it); ``owner``: the seat that
    activated it, or None; ``you_meet``: the viewer is among the leaders
    (False for a spectator)."""

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
    seats = seat_states(view)
    out = []
    for objective in view.objectives:
        measures = tuple(objective_measure(objective, s) for s in seats)
        best = max(measures, default=0)
        leaders = tuple(i for i, m in enumerate(measures) if m == best) if best >= 1 else ()
        out.append(Standing(objective, view.owner_of(objective), measures, best, leaders,
                            view.seat is not None and view.seat in leaders))
    return tuple(out)


def seat_label(view: PlayerView, seat: int, cells: int = 0) -> str:
    """``you`` for the viewer, else the seat's name (in at most ``cells``
    cells when given: ``render.short_label``)."""
    if seat == view.seat:
        return "you"
    name = view.seats[seat].name
    return short_label(name, cells) if cells else name


def leader_text(view: PlayerView, standing: Standing, cells: int = 0) -> str:
    """Who leads, in words: ``Kaede (5)``, ``you, Kaede (3)``, ``none yet``
    (names in at most ``cells`` cells when given)."""
    if not standing.leaders:
        return "none yet"
    return ", ".join(seat_label(view, i, cells) for i in standing.leaders) + f" ({standing.best})"
