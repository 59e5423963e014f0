"""Advice: Hard's ranking of a seat's commands, from that seat's view only.

The hint key at the table and the post-game review ask the same question:
what would the Hard bot do here, and how good does it think each option is?
``advise`` answers it with Hard's own search (``HardBot.search``: the same
SO-ISMCTS over determinizations of the view, so never a hidden card, RULES
§8), and reports every searched root command best first with its estimated
win chance. Pure: no Textual, files or clocks; deterministic for
``(view, seed, iterations)``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..engine.commands import Command
from ..engine.state import PLAY
from ..engine.view import PlayerView
from .calibration import CALIBRATED_LEAF, calibrated
from .hard import HardBot

HINT_ITERATIONS = 200
"""The search budget of one hint: twice Hard's play budget (a surer ranking).
Measured on this 2-core machine at load average ~13 (niced), 5 play views
each: 2 seats median 0.44 s (max 0.79), 3 seats 1.44 s (1.92), 4 seats
1.51 s (1.88) (README "Keys at the table", the hints)."""


@dataclass(frozen=True)
class Choice:
    """One command Hard searched, with its estimate.

    ``win_chance`` (0..1): the seat's chance to win if it plays this, as a
    frequency: Hard's raw estimate (the mean, over the sampled worlds where
    Hard tried the command, of sigma(d / 8), d being the seat's estimated
    final score minus the best other seat's: ``evaluate.all_values`` one
    turn ahead, or the real final scores, RULES §7, when the playout reached
    the end) mapped by ``calibration.calibrated`` for the seat count, fitted
    on the outcomes of seeded bot games (docs/BOTS.md, "Win chance
    calibration"). Two searches of one position differ by about
    ``calibration.noise(iterations)``. In the draft (RULES §2.1): the
    landscape's measured win rate.
    ``visits``: the iterations spent on it (0 in the draft).
    """

    command: Command
    win_chance: float
    visits: int


@dataclass(frozen=True)
class Advice:
    """Hard's choices for one view, best first (its pick is ``choices[0]``)."""

    choices: tuple[Choice, ...]

    @property
    def best(self) -> Choice:
        """The suggestion (``IndexError`` if there is no choice)."""
        return self.choices[0]


def advise(view: PlayerView, *, seed: int, iterations: int = HINT_ITERATIONS,
           include: Sequence[Command] = (), should_stop: Callable[[], bool] | None = None) -> Advice:
    """Hard's ranking of the seat's commands from its own view (RULES §8:
    never hidden cards): every root command of the search, best first.

    ``seed``: the search's seed (with the view and ``iterations``, it fixes
    the answer). ``include``: commands that must be among the candidates (the
    review asks for the player's own move). ``should_stop``: polled between
    iterations for cancelling (returns the best so far; unvisited commands
    get the estimate of the position as it stands).
    Raises ``ValueError`` when ``view.seat`` is not the seat to move (or a
    spectator's view), the phase has nothing to decide, or an ``include``
    command is not legal for the seat.
    """
    bot = HardBot(seed, iterations=iterations, leaf=CALIBRATED_LEAF)
    ranked = bot.search(view, include=include, should_stop=should_stop)
    seats = len(view.seats)
    if view.phase == PLAY:  # the draft's figures are measured win rates already
        ranked = [(c, n, calibrated(w, seats)) for c, n, w in ranked]
    return Advice(tuple(Choice(command=c, win_chance=w, visits=n) for c, n, w in ranked))


__all__ = ["Advice", "Choice", "HINT_ITERATIONS", "advise"]
