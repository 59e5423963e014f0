"""The post-game review: for each of a seat's decisions, the
seat's command, Hard's choice from the same view, and the change in
estimated win chance; the turns that cost most; the chance over the game.

Pure (no files, no UI, no clock): ``review_game(events, seat)`` gives the
same figures for the same log every time, since each decision's search is
seeded from the game id and the decision's position in the log. It sees only
``view(state folded to that point, seat)`` (RULES §8; ``review_moves``).
Caching beside the save is ``session/review_saved.py``'s job.

    review = review_game(events, seat=0, iterations=40, progress=print)
    review.worst          # up to three turns, the costliest first
    review.series         # the seat's estimated win chance, one per turn
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Protocol

from ..bots.advice import Advice, advise
from ..bots.calibration import cost_noise
from ..engine import commands as cmd
from ..engine import events as ev
from ..engine.commands import Command
from ..engine.view import PlayerView
from .review_moves import DecisionPoint, decision_points

REVIEW_VERSION = 3
"""Bumped when a review's figures or their JSON form change: older cached
reviews are then recomputed (``store.review_cache``)."""

REVIEW_ITERATIONS = 100
"""Hard's iterations per reviewed decision: its own play budget
(``hard.DEFAULT_ITERATIONS``), so the review judges with the strength the
player met. Measured on this 2-core machine (PERFORMANCE "Post-game
review"): a bot-played 2-seat game (about 40 decisions of one seat) costs
~4.5 s of CPU, 16–19 s of wall time with the machine loaded (load average
~11), inside the 30 s target; 60 iterations cost ~3 s of CPU."""

WORST_TURNS = 3
"""How many of the costliest turns the review lists first."""

BLAME_SIGMAS = 2.0
"""A decision is blamed only when its cost exceeds this many standard
deviations of a cost's noise between two searches at the review's budget
(``calibration.cost_noise``): a smaller loss may be the search's own noise."""


class ReviewCancelled(Exception):
    """The review was stopped (``should_stop``) before it finished; nothing
    of it is kept."""


class Advisor(Protocol):
    """``bots.advice.advise`` or a stand-in (tests count the calls)."""

    def __call__(self, view: PlayerView, *, seed: int, iterations: int, include: Sequence[Command] = (),
                 should_stop: Callable[[], bool] | None = None) -> Advice: ...


@dataclass(frozen=True, slots=True)
class ReviewedDecision:
    """One decision: the seat's ``command`` and Hard's ``best``, each with
    Hard's estimated win chance (0..1) from the seat's view at ``position``."""

    position: int
    turn: int
    command: Command
    chance: float
    best: Command
    best_chance: float

    @property
    def change(self) -> float:
        """The seat's estimate minus Hard's choice's (≤ 0 when Hard's was better)."""
        return self.chance - self.best_chance

    @property
    def cost(self) -> float:
        """What the decision gave away, never below 0."""
        return max(0.0, -self.change)


@dataclass(frozen=True, slots=True)
class ReviewedTurn:
    """A turn of the seat (``turn``: its own count, 1 first) and its decisions
    (free actions, main action, collect after a reveal, discards, end)."""

    turn: int
    decisions: tuple[ReviewedDecision, ...]

    @property
    def cost(self) -> float:
        """What the turn's decisions gave away together."""
        return sum(d.cost for d in self.decisions)

    @property
    def chance(self) -> float:
        """The seat's estimated win chance at the turn's first decision, its
        own move taken."""
        return self.decisions[0].chance

    def blame(self, noise: float) -> float:
        """What the turn's decisions gave away beyond ``noise``: the sum of
        the costs larger than it (0: nothing a search could tell from noise)."""
        return sum(d.cost for d in self.decisions if d.cost > noise)


@dataclass(frozen=True, slots=True)
class Review:
    """A finished review of ``seat`` in game ``game_id`` (``log_length`` events)."""

    game_id: str
    seat: int
    seat_name: str
    log_length: int
    iterations: int
    turns: tuple[ReviewedTurn, ...]

    @property
    def decisions(self) -> tuple[ReviewedDecision, ...]:
        """Every reviewed decision, in order."""
        return tuple(d for t in self.turns for d in t.decisions)

    @property
    def noise(self) -> float:
        """The loss of win chance (0..1) below which a decision is not blamed:
        ``BLAME_SIGMAS`` × ``calibration.cost_noise(iterations)``."""
        return BLAME_SIGMAS * cost_noise(max(1, self.iterations))

    @property
    def worst(self) -> tuple[ReviewedTurn, ...]:
        """Up to ``WORST_TURNS`` turns blamed for at least one point of win
        chance as shown (``ReviewedTurn.blame`` beyond ``noise``; a blame
        rounding to 0 is "nothing lost"), most blamed first (an earlier turn
        first on a tie)."""
        noise = self.noise
        costly = [t for t in self.turns if round(t.blame(noise) * 100) > 0]
        return tuple(sorted(costly, key=lambda t: (-t.blame(noise), t.turn))[:WORST_TURNS])

    @property
    def series(self) -> tuple[float, ...]:
        """The seat's estimated win chance, one value per reviewed turn."""
        return tuple(t.chance for t in self.turns)


def decision_seed(game_id: str, position: int) -> int:
    """The search seed of the decision at ``position`` in game ``game_id``:
    stable across runs and Python versions (CRC-32, not ``hash``)."""
    return zlib.crc32(f"{game_id}:{position}".encode())


def _reviewed(point: DecisionPoint, advice: Advice) -> ReviewedDecision:
    """One decision's figures from Hard's advice (which includes the seat's command)."""
    best = advice.choices[0]
    mine = next((c for c in advice.choices if c.command == point.command), best)
    return ReviewedDecision(point.position, point.turn, point.command, mine.win_chance, best.command,
                            best.win_chance)


def review_game(events: Sequence[ev.Event], seat: int, *, iterations: int = REVIEW_ITERATIONS,
                advisor: Advisor | None = None, progress: Callable[[int, int], None] | None = None,
                should_stop: Callable[[], bool] | None = None) -> Review:
    """Review ``seat``'s decisions in the game ``events``.

    Each decision is searched by ``advisor`` (default: Hard's ``advise``) from the
    seat's view at that moment only (RULES §8) with ``iterations``, seeded by
    ``decision_seed``. ``progress(done, total)`` is called before the first
    and after each decision (one the advisor returns no choice for is left
    out). Raises ``ReviewCancelled`` as soon as
    ``should_stop()`` is true, ``ValueError`` for a log that does not begin
    with ``GameCreated`` or a seat the game does not have.
    """
    if not events or not isinstance(events[0], ev.GameCreated):
        raise ValueError("a review needs a game log beginning with GameCreated")
    created = events[0]
    if not 0 <= seat < len(created.seat_names):
        raise ValueError(f"the game has no seat {seat}")
    points = list(decision_points(events, seat))
    ask = advise if advisor is None else advisor
    stop = should_stop or (lambda: False)
    done: list[ReviewedDecision] = []
    if progress is not None:
        progress(0, len(points))
    for k, point in enumerate(points, start=1):
        if stop():
            raise ReviewCancelled
        advice = ask(point.view, seed=decision_seed(created.game_id, point.position), iterations=iterations,
                     include=(point.command,), should_stop=should_stop)
        if stop():
            raise ReviewCancelled
        if advice.choices:  # else nothing was searched: no figures to show
            done.append(_reviewed(point, advice))
        if progress is not None:
            progress(k, len(points))
    turns: dict[int, list[ReviewedDecision]] = {}
    for d in done:
        turns.setdefault(d.turn, []).append(d)
    return Review(created.game_id, seat, created.seat_names[seat], len(events), iterations,
                  tuple(ReviewedTurn(t, tuple(ds)) for t, ds in turns.items()))


# ------------------------------------------------------------ JSON form

_COMMANDS: dict[str, type[Any]] = {c.__name__: c for c in (
    cmd.DraftPick, cmd.Reveal, cmd.Collect, cmd.Play, cmd.ActivateObjective, cmd.Pass, cmd.Exchange,
    cmd.UseLandscape, cmd.DiscardToLimit, cmd.EndTurn)}


def command_to_dict(command: Command) -> dict[str, Any]:
    """A command as JSON-able data: its fields and ``"kind"`` (its class name)."""
    return {"kind": type(command).__name__, **asdict(command)}


def command_from_dict(data: dict[str, Any]) -> Command:
    """The command ``command_to_dict`` wrote. Raises ``ValueError`` for
    anything else (an unknown kind, missing or wrong fields)."""
    fields = dict(data)
    kind = _COMMANDS.get(str(fields.pop("kind", "")))
    if kind is None:
        raise ValueError(f"unknown command kind in {data!r}")
    try:
        made: Command = kind(**{k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()})
    except TypeError as exc:
        raise ValueError(f"bad command {data!r}: {exc}") from None
    return made


def review_to_dict(review: Review) -> dict[str, Any]:
    """A review as JSON-able data (``review_from_dict`` reads it back)."""
    return {
        "game_id": review.game_id, "seat": review.seat, "seat_name": review.seat_name,
        "log_length": review.log_length, "iterations": review.iterations,
        "decisions": [{"position": d.position, "turn": d.turn, "command": command_to_dict(d.command),
                       "chance": d.chance, "best": command_to_dict(d.best), "best_chance": d.best_chance}
                      for d in review.decisions],
    }


def _chance(value: object) -> float:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0.0 <= value <= 1.0:
        raise ValueError(f"a win chance must be a number from 0 to 1, not {value!r}")
    return float(value)


def review_from_dict(data: dict[str, Any]) -> Review:
    """The review ``review_to_dict`` wrote. Raises ``ValueError`` for data
    that is not one (a damaged cache is then recomputed, never trusted)."""
    try:
        decisions = [ReviewedDecision(int(d["position"]), int(d["turn"]), command_from_dict(d["command"]),
                                      _chance(d["chance"]), command_from_dict(d["best"]), _chance(d["best_chance"]))
                     for d in data["decisions"]]
        turns: dict[int, list[ReviewedDecision]] = {}
        for d in decisions:
            turns.setdefault(d.turn, []).append(d)
        return Review(str(data["game_id"]), int(data["seat"]), str(data["seat_name"]), int(data["log_length"]),
                      int(data["iterations"]), tuple(ReviewedTurn(t, tuple(ds)) for t, ds in turns.items()))
    except (KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"not a review: {exc!r}") from None
