"""The review of a saved game, cached beside its save.

``review_events`` reviews a finished game's events for one seat, reading and
writing the cache next to the save (``store.review_cache``) when given the
save's path; ``review_saved_game`` loads the save first (``momiji replay ID
--review``). A second look at the same log is read from the cache: no search.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .. import engine
from ..engine import events as ev
from ..engine.cards import CARD_NAME
from ..engine.commands import Command
from ..engine.rules_data import RULES_VERSION
from ..safe_text import safe_text
from ..store import load
from ..store.review_cache import read_review_cache, review_cache_path, write_review_cache
from .review import REVIEW_ITERATIONS, REVIEW_VERSION, Advisor, Review, review_from_dict, review_game, review_to_dict
from .review_moves import decision_points
from .table import HUMAN, validate_log

NOT_FINISHED = "Only a finished game can be reviewed; this one is still in progress."


class ReviewRefused(Exception):
    """The game cannot be reviewed (e.g. it is not finished); the message says why."""


@dataclass(frozen=True, slots=True)
class ReviewOutcome:
    """A review, whether it came from the cache, and whether it is cached
    now; ``events``: the game reviewed (to tell its moves as the log did)."""

    review: Review
    from_cache: bool
    cached: bool
    #: A review kept beside the game was found but did not hold up (edited,
    #: damaged, not a regular file): it was ignored and computed again.
    cache_ignored: bool = False
    events: tuple[ev.Event, ...] = ()


def log_digest(events: Sequence[ev.Event]) -> str:
    """SHA-256 of the events' JSON form: two logs with one digest are the same game."""
    h = hashlib.sha256()
    for e in events:
        h.update(json.dumps(engine.to_dict(e), sort_keys=True, separators=(",", ":")).encode())
        h.update(b"\n")
    return h.hexdigest()


def review_key(events: Sequence[ev.Event], seat: int, iterations: int) -> dict[str, Any]:
    """What a cached review must have been computed for to be used."""
    created = events[0]
    rules = created.rules_version if isinstance(created, ev.GameCreated) else RULES_VERSION
    game_id = created.game_id if isinstance(created, ev.GameCreated) else ""
    return {"game_id": game_id, "rules_version": rules, "review_version": REVIEW_VERSION,
            "log_length": len(events), "log_digest": log_digest(events), "seat": seat, "iterations": iterations}


def _cached(save: Path, key: dict[str, Any], events: Sequence[ev.Event], seat: int) -> Review | None:
    """The review cached beside ``save`` for ``key``, if it holds up against
    the game ``events`` (:func:`_holds_up`); else None (recomputed)."""
    data = read_review_cache(save, key)
    if data is None:
        return None
    try:
        review = review_from_dict(data)
    except ValueError:
        return None  # damaged: recomputed, never trusted
    return review if _holds_up(review, events, seat, key) else None


def _holds_up(review: Review, events: Sequence[ev.Event], seat: int, key: dict[str, Any]) -> bool:
    """Whether a cached review is one of this game: its game, seat, name,
    length and iterations are the key's; each decision is one the seat
    really took (same position, turn and command, in order) and its ``best``
    a legal command at that moment (``engine.explain``). A cache is a hint:
    anything else (a card that does not exist, a move never made) fails."""
    created = events[0]
    if not isinstance(created, ev.GameCreated) or (
            review.game_id, review.seat, review.seat_name, review.log_length, review.iterations) != (
            created.game_id, seat, created.seat_names[seat], len(events), key["iterations"]):
        return False
    points = {p.position: p for p in decision_points(events, seat)}
    seen: set[int] = set()
    for turn in review.turns:
        for d in turn.decisions:
            point = points.get(d.position)
            if point is None or d.position in seen or (d.turn, d.command) != (point.turn, point.command):
                return False
            seen.add(d.position)
            if not _well_formed(d.best, seat, created):
                return False
            try:
                engine.explain(point.view, d.best)  # legal or not, judging it must not fail
            except Exception:  # a cache may hold anything a judge trips on
                return False
    return True


def _well_formed(command: Command, seat: int, created: ev.GameCreated) -> bool:
    """Whether a cached command is one this game could hold: the seat's, its
    cards real cards, its leaf type one of the game's, its words plain text."""
    for name, value in asdict(command).items():
        values = value if isinstance(value, (list, tuple)) else [value]
        if name == "seat" and value != seat:
            return False
        if name in ("cards", "card", "hand_card", "display_card") and not all(
                isinstance(c, int) and not isinstance(c, bool) and 0 <= c < len(CARD_NAME) for c in values):
            return False
        if name == "leaf_type" and value is not None and value not in created.types:
            return False
        if any(isinstance(v, str) and safe_text(v) != v for v in values):
            return False
    return True


def review_events(events: Sequence[ev.Event], seat: int, *, save: str | os.PathLike[str] | None = None,
                  iterations: int = REVIEW_ITERATIONS, advisor: Advisor | None = None,
                  progress: Callable[[int, int], None] | None = None,
                  should_stop: Callable[[], bool] | None = None) -> ReviewOutcome:
    """Review ``seat`` in the finished game ``events`` (``session.review``),
    from the cache beside ``save`` when it matches, else computed and then
    cached there (a directory that refuses the write only means no caching).

    Raises ``ReviewRefused`` for a game that has not ended (RULES §6),
    ``ReviewCancelled`` when ``should_stop()`` turned true (nothing is
    written), ``ValueError`` for a seat the game does not have.
    """
    if not events or not isinstance(events[-1], ev.GameEnded):
        raise ReviewRefused(NOT_FINISHED)
    key = review_key(events, seat, iterations)
    ignored = False
    if save is not None:
        cached = _cached(Path(save), key, events, seat)
        if cached is not None:
            return ReviewOutcome(cached, from_cache=True, cached=True, events=tuple(events))
        ignored = os.path.lexists(review_cache_path(save))
    review = review_game(events, seat, iterations=iterations, advisor=advisor, progress=progress,
                         should_stop=should_stop)
    stored = save is not None and write_review_cache(save, key, review_to_dict(review))
    return ReviewOutcome(review, from_cache=False, cached=stored, cache_ignored=ignored, events=tuple(events))


def reviewed_seat(seats: Sequence[dict[str, Any]]) -> int:
    """The seat a review looks at by default: the first human's (seat 0 in a
    game of bots only), from a save header's ``seats``."""
    for i, s in enumerate(seats):
        if isinstance(s, dict) and s.get("kind", HUMAN) == HUMAN:
            return i
    return 0


def review_saved_game(path: str | os.PathLike[str], *, seat: int | None = None,
                      iterations: int = REVIEW_ITERATIONS, advisor: Advisor | None = None,
                      progress: Callable[[int, int], None] | None = None,
                      should_stop: Callable[[], bool] | None = None) -> ReviewOutcome:
    """Load the save at ``path`` (read only) and review it as ``review_events``
    does; ``seat`` defaults to ``reviewed_seat``. Raises what ``review_events``
    raises, and the store's ``DamagedLog``/``NewerFormat``, ``FileNotFoundError``."""
    loaded = load(path, validate_log)
    events = [engine.from_dict(e) for e in loaded.events]
    if seat is None:
        seats = loaded.header.get("seats")
        seat = reviewed_seat(seats if isinstance(seats, list) else [])
    return review_events(events, seat, save=path, iterations=iterations, advisor=advisor, progress=progress,
                         should_stop=should_stop)
