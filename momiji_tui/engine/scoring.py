"""End scoring (RULES §7) and objective measures (RULES §1.4)."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import CARD_VALUE
from .rules_data import OBJECTIVE_OTHER_POINTS, OBJECTIVE_OWNER_POINTS
from .state import GameState, SeatState


def objective_measure(objective: str, seat: SeatState) -> int:
    """The count or sum ``objective`` compares for one seat (RULES §1.4).

    Only cards in piles count; hands never do. Raises ``KeyError`` for an
    unknown objective id.
    """
    piles = seat.row
    if objective.startswith("type-"):
        t = objective[5:]
        return sum(len(p.cards) for p in piles if p.leaf_type == t)
    if objective in ("zeros", "ones", "twos"):
        v = {"zeros": 0, "ones": 1, "twos": 2}[objective]
        return sum(1 for p in piles for c in p.cards if CARD_VALUE[c] == v)
    if objective == "top-sum":
        return sum(p.top_value for p in piles)
    if objective == "torii":
        return sum(1 for p in piles if p.closed)
    if objective == "piles":
        return len(piles)
    if objective == "longest":
        return max((len(p.cards) for p in piles), default=0)
    if objective == "acorns":
        return seat.acorns
    raise KeyError(objective)


def objective_winners(objective: str, seats: list[SeatState]) -> set[int]:
    """The seats that meet ``objective``: best, and at least 1 (RULES §1.4).

    Every tied best seat meets it; nobody meets it when the best is 0.
    """
    measures = [objective_measure(objective, s) for s in seats]
    best = max(measures)
    if best < 1:
        return set()
    return {i for i, m in enumerate(measures) if m == best}


@dataclass(frozen=True, slots=True)
class PileScore:
    """One pile: ``top value × cards`` points (RULES §7)."""

    leaf_type: str
    top_value: int
    cards: int
    closed: bool
    points: int


@dataclass(frozen=True, slots=True)
class ObjectiveScore:
    """One activated objective for one seat (RULES §7): 10 / 3 / 0."""

    objective: str
    owner: int
    measure: int
    met: bool
    points: int


@dataclass(frozen=True, slots=True)
class SeatScore:
    """A seat's score sheet (RULES §7)."""

    seat: int
    piles: tuple[PileScore, ...]
    acorns: int
    objectives: tuple[ObjectiveScore, ...]
    total: int


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """Every seat's sheet and the result (RULES §7).

    ``winners`` has more than one seat only when total and acorns both tie
    (a shared victory); ``tiebreak_used`` says the acorn tiebreak decided.
    """

    seats: tuple[SeatScore, ...]
    winners: tuple[int, ...]
    tiebreak_used: bool


def score(state: GameState) -> ScoreSheet:
    """Score ``state`` as if the game ended now (RULES §7)."""
    met = {o: objective_winners(o, state.seats) for o in state.owners}
    sheets = []
    for i, seat in enumerate(state.seats):
        piles = tuple(
            PileScore(p.leaf_type, p.top_value, len(p.cards), p.closed, p.top_value * len(p.cards))
            for p in seat.row
        )
        objs = []
        for o, owner in state.owners.items():
            ok = i in met[o]
            pts = 0 if not ok else (OBJECTIVE_OWNER_POINTS if owner == i else OBJECTIVE_OTHER_POINTS)
            objs.append(ObjectiveScore(o, owner, objective_measure(o, seat), ok, pts))
        total = sum(p.points for p in piles) + seat.acorns + sum(o.points for o in objs)
        sheets.append(SeatScore(i, piles, seat.acorns, tuple(objs), total))
    best = max(s.total for s in sheets)
    top = [s for s in sheets if s.total == best]
    tiebreak = len(top) > 1
    if tiebreak:
        most = max(s.acorns for s in top)
        top = [s for s in top if s.acorns == most]
    return ScoreSheet(tuple(sheets), tuple(s.seat for s in top), tiebreak)


__all__ = [
    "ObjectiveScore", "PileScore", "ScoreSheet", "SeatScore",
    "objective_measure", "objective_winners", "score",
]
