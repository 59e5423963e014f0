"""A seeded bot game under a chosen rules version, as a list of events: the
old-version save fixture (``fixtures/rules-2026.11-1.jsonl``) was made by
``write_fixture`` and is replayed by ``test_old_rules_replay.py``."""

from __future__ import annotations

import json
from pathlib import Path

from momiji_tui.bots import make_bot
from momiji_tui.engine import (
    Command, DraftPick, Event, GameState, create_game, fold, legal_commands, run, to_dict, view,
)

SEATS = ("Aki", "Kaede (normal)")
GAME_ID = "20261201-044500-16a0d1"

# The fixture's draft: each seat takes the offered landscape highest in this
# fixed table (the bots' own draft draws by merit, and the fixture must keep
# its Tea House for seat 0).
FIXTURE_DRAFT: dict[str, float] = {
    "spring": 2.0, "bamboo": 2.2, "lantern": 2.6, "koi": 1.6, "terrace": 1.8, "bell": 1.7,
    "bridge": 2.4, "stones": 2.2, "pagoda": 2.0, "teahouse": 2.8, "waterfall": 2.0, "moss": 2.3,
    "pier": 2.0, "crane": 2.6, "pine": 1.4, "fox": 1.5, "moongate": 2.7, "festival": 1.6,
}


def _fixture_pick(state: GameState, seat: int) -> Command:
    picks = [c for c in legal_commands(state, seat) if isinstance(c, DraftPick)]
    return max(picks, key=lambda c: FIXTURE_DRAFT[c.landscape])


def bot_game(seed: int, rules_version: str) -> list[Event]:
    """Two Normal bots (seeded ``seed`` and ``seed + 1``) play the deal
    ``seed`` under ``rules_version``, drafted by ``FIXTURE_DRAFT``; every
    event of the game."""
    events = create_game(list(SEATS), seed=seed, landscape_mode="draft", game_id=GAME_ID,
                         rules_version=rules_version)
    state = fold(events)
    bots = [make_bot("normal", seed + i) for i in range(len(SEATS))]
    while state.phase != "ended":
        seat = state.current
        drafting = state.phase == "draft"
        command = _fixture_pick(state, seat) if drafting else bots[seat].choose(view(state, seat))
        state, new = run(state, command)
        events += new
    return events


def write_fixture(path: Path, seed: int, rules_version: str) -> None:
    """Write ``bot_game(seed, rules_version)`` as a save (format 4 header)."""
    header = {"format": "momiji-log", "format_version": 4, "game_id": GAME_ID,
              "rules_version": rules_version, "seed": seed,
              "seats": [{"name": n, "kind": "bot", "level": "normal"} for n in SEATS],
              "landscape_mode": "draft", "created": "2026-12-01T04:45:00+00:00"}
    lines = [json.dumps(header)] + [json.dumps(to_dict(e)) for e in bot_game(seed, rules_version)]
    path.write_text("\n".join(lines) + "\n")
