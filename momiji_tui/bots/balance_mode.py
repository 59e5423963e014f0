"""The balance mode of the tournament: panoramas dealt at random.

A drafting bot measures what it likes: a landscape it never picks is never
measured. ``--mode random`` measures by design instead: the game is created
with the draft's offers (RULES §2.1: players + 1 landscapes of each part, drawn
at random from the part's six) and every pick is then made *at random* from
the offer, in the draft's order, so each landscape of a part reaches each seat
equally often and no two seats share one. The picks are seeded by the deal
only: the same deal gets the same panoramas whichever bots sit at it.

Objectives need no such mode: setup (``engine.setup``) reveals players + 2
of the eligible objectives uniformly at random (a *Grove* only when its leaf
type is in play, RULES §1.4). ``objective_owners`` records who activated each.

Pure: no clock, file or process; the tournament runner calls it.
"""

from __future__ import annotations

import hashlib
import math
import random

from ..engine import DraftPick, GameState, run
from ..engine.state import DRAFT
from .balance import MIN_BALANCE_SEATS, LandscapeStats, ObjectiveStats

#: The landscape modes of ``momiji tournament --mode``.
RANDOM = "random"


def panorama_seed(deal_seed: int) -> int:
    """The seed of a deal's random panoramas (from the deal seed only)."""
    h = hashlib.blake2b(f"panorama|{deal_seed}".encode(), digest_size=8).digest()
    return int.from_bytes(h, "big") & 0x7FFF_FFFF


def random_panoramas(state: GameState, deal_seed: int) -> GameState:
    """Finish the draft of ``state`` with uniformly random picks (RULES §2.1
    offers, random choice among what is left), seeded by ``deal_seed``; the
    returned state is past the draft. A state not in the draft is returned as
    it is. Raises ``engine.IllegalCommand`` only if the engine refuses a pick
    from its own offer (a bug)."""
    rng = random.Random(panorama_seed(deal_seed))
    while state.phase == DRAFT:
        pick = rng.choice(sorted(state.draft_remaining))
        state, _ = run(state, DraftPick(state.current, pick))
    return state


def objective_owners(state: GameState) -> tuple[tuple[str, int], ...]:
    """Each revealed objective with the seat that activated it, or -1 (RULES §4.3)."""
    return tuple((oid, state.owners.get(oid, -1)) for oid in state.objectives)


def _ci(ci: tuple[float, float]) -> str:
    return f"[{100 * ci[0]:4.1f}, {100 * ci[1]:4.1f}]"


def _z(z: float | None) -> str:
    return f"{z:>+7.2f}" if z is not None else f"{'—':>7}"


def format_landscapes(rows: list[LandscapeStats], mode: str) -> list[str]:
    """The landscape balance table of a tournament report (empty without rows)."""
    if not rows:
        return []
    if all(ls.z is None for ls in rows):
        return ["", f"Landscape balance: too few games (a landscape is tested with at least "
                    f"{MIN_BALANCE_SEATS} seats with it and {MIN_BALANCE_SEATS} without)"]
    lines = ["", f"Landscape balance ({mode} games): win rate of seats with it vs without",
             f"{'landscape':<12}{'part':<9}{'seats':>6}{'with %':>8}  {'95% CI':<13}"
             f"{'without %':>10}  {'95% CI':<13}{'excess':>8}{'z':>7}"]
    for ls in sorted(rows, key=lambda x: math.inf if x.z is None else -x.z):
        lines.append(
            f"{ls.landscape:<12}{ls.part:<9}{ls.seats_with:>6}{100 * ls.rate_with:>7.1f}%  {_ci(ls.ci_with)}"
            f"{100 * ls.rate_without:>9.1f}%  {_ci(ls.ci_without)}{100 * ls.excess:>+7.1f}{_z(ls.z)}"
            + ("  OUTLIER" if ls.outlier else ""))
    outs = [ls.landscape for ls in rows if ls.outlier]
    lines.append("excess: mean win share minus the seat's bot's win rate; z: with vs without, on those "
                 f"residuals (—: fewer than {MIN_BALANCE_SEATS} seats with or without, not tested)")
    lines.append("Outliers (Bonferroni-corrected z test, α = 0.05): " + (", ".join(outs) if outs else "none"))
    return lines


def format_objectives(rows: list[ObjectiveStats]) -> list[str]:
    """The objectives' owner-win table of a tournament report (empty without rows)."""
    if not rows:
        return []
    lines = ["", "Objectives: win rate of the seat that activated it vs the other seats (games revealing it)",
             f"{'objective':<12}{'owners':>7}{'owner %':>9}  {'95% CI':<13}{'others %':>9}  {'95% CI':<13}"
             f"{'excess':>8}{'z':>7}"]
    for ob in sorted(rows, key=lambda x: math.inf if x.z is None else -x.z):
        lines.append(
            f"{ob.objective:<12}{ob.owners:>7}{100 * ob.rate_with:>8.1f}%  {_ci(ob.ci_with)}"
            f"{100 * ob.rate_without:>8.1f}%  {_ci(ob.ci_without)}{100 * ob.excess:>+7.1f}{_z(ob.z)}"
            + ("  OUTLIER" if ob.outlier else ""))
    outs = [ob.objective for ob in rows if ob.outlier]
    lines.append("Outliers among objectives (Bonferroni, α = 0.05): " + (", ".join(outs) if outs else "none"))
    return lines
