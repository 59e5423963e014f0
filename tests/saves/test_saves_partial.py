"""A crash between two events of one move (a move writes several events,
each fsynced on its own) must lose that whole move, never keep half of it
(save format 2 marks moves: every event but a move's last says
``"move_continues": true``).

Measured over every cut inside every move of a few bot games: the file loads
the game as it was before that move, reports the loss, and the game goes on.
"""

from __future__ import annotations

from itertools import pairwise

import pytest
from crash_writer import expected_game, game_params

from momiji_tui import engine
from momiji_tui.bots import make_bot
from momiji_tui.session.table import Table, validate_log
from momiji_tui.store import GameLog, load
from momiji_tui.store.log import HALF_MOVE_WARNING

SEEDS = (0, 1, 2, 3, 4, 5)  # 2–4 seats, starter and drafted landscapes
GAME_ID = "20260101-000000-00c0de"


def saved_game(data_dir, seed: int):
    """The whole game ``seed`` saved move by move; returns (path, events,
    move boundaries, byte offset of the end of each event's line)."""
    seats, _ = game_params(seed)
    events, boundaries = expected_game(seed, GAME_ID)
    header = {"game_id": GAME_ID, "rules_version": "test", "seed": seed,
              "seats": [{"name": s.name, "kind": s.kind, "level": s.level} for s in seats]}
    with GameLog.create(data_dir, header, events=events[:boundaries[0]]) as log:
        for start, end in pairwise(boundaries):
            log.extend(events[start:end])
    data = log.path.read_bytes()
    ends = [i + 1 for i, byte in enumerate(data) if byte == 0x0A][1:]  # after the header line
    return log.path, events, boundaries, ends


def cuts_inside_moves(boundaries: list[int]):
    """(cut, move start) for every cut after k events of a move, 0 < k < its length."""
    for start, end in pairwise(boundaries):
        for cut in range(start + 1, end):
            yield cut, start


@pytest.mark.parametrize("seed", SEEDS)
def test_every_cut_inside_a_move_loads_the_game_as_it_was_before_that_move(isolated_dirs, seed):
    path, events, boundaries, ends = saved_game(isolated_dirs, seed)
    full = path.read_bytes()
    count = 0
    for cut, start in cuts_inside_moves(boundaries):
        for size in (ends[cut - 1], ends[cut - 1] + 5):  # whole lines; and a torn piece of the next
            path.write_bytes(full[:size])
            loaded = load(path, validate_log)
            assert loaded.events == events[:start]
            assert HALF_MOVE_WARNING in loaded.warnings
            count += 1
    assert count > 20


def test_a_cut_game_resumes_from_its_file_and_takes_a_legal_move(isolated_dirs):
    seed = 2
    path, events, boundaries, ends = saved_game(isolated_dirs, seed)
    full = path.read_bytes()
    samples = {}
    for cut, start in cuts_inside_moves(boundaries):  # one cut per kind of move
        samples.setdefault(events[start]["type"], (cut, start))
    assert len(samples) >= 3
    for k, (cut, start) in enumerate(samples.values()):
        path.write_bytes(full[:ends[cut - 1]])
        table = Table.resume(path)
        try:
            assert table.events == [engine.from_dict(e) for e in events[:start]]
            table.submit(make_bot("easy", seed=k).choose(table.view(table.current)))
        finally:
            table.close()
        again = load(path, validate_log)
        assert again.warnings == [] and len(again.events) > start
