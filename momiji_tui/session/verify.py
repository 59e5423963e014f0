"""Checking a game's deal against its seed and its commitment (RULES §2).

A shared table commits to its secret seed before the first move (the
header's ``seed_sha256``, :mod:`.deal_seed`) and shows the seed when the game
ends. :func:`verify_game` checks a saved game's header and events (as the
store reads them: JSON-able dicts) in two steps, one line each:

- the commitment: the SHA-256 of the recorded seed is the one committed to
  (a save without ``seed_sha256`` says it has none and skips this step);
- the deal: ``engine.create_game`` given the recorded seed, seats, landscape
  mode, game id and rules version makes exactly the recorded opening events
  (leaf types, deck order, objectives, draft offers, first seat, the deal,
  the display), and the whole log folds under the rules.

Pure: no files, no clock; ``cli.cmd_verify`` reads the game and prints.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import engine
from .deal_seed import seed_sha256

VERIFIED, FAILED, CANNOT_CHECK = 0, 1, 2
"""Exit statuses of ``momiji verify``: all checked and true; a check failed;
nothing could be checked (no seed recorded, no such game, an unreadable save)."""


@dataclass(frozen=True)
class Verdict:
    """What :func:`verify_game` found: one line per check, and the status
    (:data:`VERIFIED`, :data:`FAILED` or :data:`CANNOT_CHECK`)."""

    lines: tuple[str, ...]
    status: int


def verify_game(header: dict[str, Any], events: list[dict[str, Any]]) -> Verdict:
    """Check the deal and the commitment of the game of ``header`` and
    ``events`` (a save's first line and the event objects after it). Never
    raises: whatever is wrong is a line of the verdict."""
    created = events[0] if events and events[0].get("type") == "GameCreated" else None
    if created is None:
        return Verdict(("The save does not start with the game's creation: nothing to check.",), CANNOT_CHECK)
    seed = created.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        return Verdict(("The save records no seed: its deal cannot be checked.",), CANNOT_CHECK)
    lines: list[str] = []
    failed = False
    if header.get("seed") != seed:
        lines.append(f"FAILED: the header's seed {header.get('seed')!r} is not the game's seed {seed}.")
        failed = True
    committed = header.get("seed_sha256")
    if not committed:
        lines.append("No commitment: this game was saved without a seed_sha256 (a solo game, or one "
                     "older than commitments); only the deal is checked.")
    elif seed_sha256(seed) == committed:
        lines.append(f"Commitment OK: SHA-256 of seed {seed} is {committed}, the commitment shown at the start.")
    else:
        lines.append(f"FAILED: SHA-256 of seed {seed} is {seed_sha256(seed)}, not the commitment {committed}.")
        failed = True
    deal_ok, why = _deal_matches(created, seed, events)
    if deal_ok:
        lines.append(f"Deal OK: seed {seed} gives the recorded deal (leaf types, deck order, objectives, "
                     "first seat), and every move follows the rules.")
    else:
        lines.append(f"FAILED: {why}")
        failed = True
    return Verdict(tuple(lines), FAILED if failed else VERIFIED)


def _deal_matches(created: dict[str, Any], seed: int, events: list[dict[str, Any]]) -> tuple[bool, str]:
    """Whether ``seed`` makes the recorded opening and the log folds; else why not."""
    try:
        names = created["seat_names"]
        made = engine.create_game(list(names), seed=seed, landscape_mode=created["landscape_mode"],
                                  game_id=created["game_id"], rules_version=created["rules_version"])
    except (KeyError, TypeError, ValueError) as exc:
        return False, f"the game's creation cannot be replayed ({exc})."
    expected = [engine.to_dict(e) for e in made]
    for number, (want, got) in enumerate(zip(expected, events, strict=False), start=1):
        if want != got:
            what = got.get("type", "?") if isinstance(got, dict) else "?"
            return False, f"seed {seed} does not give the recorded deal (event {number}, {what}, differs)."
    if len(events) < len(expected):
        return False, "the save stops before the deal is complete."
    try:
        engine.fold(engine.from_dict(e) for e in events)
    except (ValueError, KeyError, IndexError, TypeError) as exc:
        return False, f"the recorded moves do not follow the rules ({exc})."
    return True, ""
