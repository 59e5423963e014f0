"""A seeded bot game under a chosen rules version, as a list of events: the
old-version save fixture (``fixtures/rules-2026.11-1.jsonl``) was made by
``write_fixture`` and is replayed by ``test_old_rules_replay.py``."""

from __future__ import annotations

import json
from pathlib import Path

from momiji_tui.bots import make_bot
from momiji_tui.engine import Event, create_game, fold, run, to_dict, view

SEATS = ("Aki", "Kaede (normal)")
GAME_ID = "20261201-044500-16a0d1"


def bot_game(seed: int, rules_version: str) -> list[Event]:
    """Two Normal bots (seeded ``seed`` and ``seed + 1``) play the drafted deal
    ``seed`` under ``rules_version``; every event of the game."""
    events = create_game(list(SEATS), seed=seed, landscape_mode="draft", game_id=GAME_ID,
                         rules_version=rules_version)
    state = fold(events)
    bots = [make_bot("normal", seed + i) for i in range(len(SEATS))]
    while state.phase != "ended":
        state, new = run(state, bots[state.current].choose(view(state, state.current)))
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
