"""Helpers for the store tests: headers, events and raw log files.

(A plain module, not a conftest, so its name is unique across the test tree.)
"""

from __future__ import annotations

import json
from pathlib import Path

from momiji_tui.store import GameLog

GAME_A = "20260102-030405-00000a"
GAME_B = "20260103-030405-00000b"
GAME_C = "20260104-030405-00000c"


def make_header(game_id: str = GAME_A, **extra: object) -> dict:
    return {"rules_version": "1.0", "game_id": game_id, "seats": ["human", "bot:normal"], "seed": 7, **extra}


def make_events(n: int) -> list[dict]:
    return [{"type": "CardsPlayed", "seat": i % 2, "cards": [i, i + 1]} for i in range(n)]


def write_log(data_dir: Path, game_id: str, events: list[dict], **extra: object) -> Path:
    with GameLog.create(data_dir, make_header(game_id, **extra)) as log:
        log.extend(events)
    return log.path


def raw_lines(*objects: object) -> bytes:
    return b"".join(json.dumps(o).encode() + b"\n" for o in objects)
