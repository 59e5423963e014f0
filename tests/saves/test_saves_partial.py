"""A crash between two events of one command (a move writes several events,
each fsynced on its own) leaves half a move on disk. What does such a file do?

Measured over every cut inside every command of a few bot games: the file
always loads and folds; the game can always go on, except when the cut falls
inside the last draft pick (its deal is half written and no one may act).
The half move is kept, not dropped: e.g. acorns paid for an objective that
was never taken. The strict xfail below marks that gap.
"""

from __future__ import annotations

from collections import Counter

import pytest
from crash_writer import expected_game, game_params

from momiji_tui import engine
from momiji_tui.session.table import Table, validate_log
from momiji_tui.store import GameLog, load

SEEDS = (0, 1, 2, 3, 4, 5)  # 2–4 seats, starter and drafted landscapes
GAME_ID = "20260101-000000-00c0de"


def cuts(seed: int):
    """Every (events, cut, command start) with the cut strictly inside a command."""
    events, boundaries = expected_game(seed, GAME_ID)
    for start, end in zip(boundaries, boundaries[1:]):
        for cut in range(start + 1, end):
            yield events, cut, start


def test_every_cut_inside_a_command_folds_and_only_a_half_written_deal_is_stuck():
    outcomes: Counter[str] = Counter()
    for seed in SEEDS:
        seats, _ = game_params(seed)
        for events, cut, start in cuts(seed):
            validate_log({}, events[:cut])  # the rules accept it (it folds)
            table = Table([engine.from_dict(e) for e in events[:cut]], seats, None)
            if table.finished or table.legal(table.current):
                outcomes["can go on"] += 1
            else:
                # Stuck: only inside the last draft pick, between its deal and PlayStarted.
                assert table.state.phase == "setup", (seed, cut, events[cut - 1]["type"])
                assert events[start]["type"] == "LandscapeDrafted"
                outcomes["stuck in setup"] += 1
    assert outcomes["can go on"] > 100 and outcomes["stuck in setup"] > 0


def test_a_cut_game_resumes_from_its_file_and_takes_a_legal_move(isolated_dirs):
    from momiji_tui.bots import make_bot

    seed = 2
    seats, mode = game_params(seed)
    samples = {}
    for events, cut, start in cuts(seed):  # one cut per kind of command
        samples.setdefault(events[start]["type"], (events, cut))
    assert len(samples) >= 3
    for k, (events, cut) in enumerate(samples.values()):
        header = {"game_id": f"20260101-000000-{k:06x}", "rules_version": "test", "seed": seed,
                  "seats": [{"name": s.name, "kind": s.kind, "level": s.level} for s in seats]}
        GameLog.create(isolated_dirs, header, events=events[:cut]).close()
        table = Table.resume(isolated_dirs / "games" / f"{header['game_id']}.jsonl")
        try:
            if table.state.phase != "setup":
                table.submit(make_bot("easy", seed=k).choose(table.view(table.current)))
                assert len(table.events) > cut
        finally:
            table.close()


@pytest.mark.xfail(strict=True, reason="a command's events are written and fsynced one by one, and the "
                   "log does not mark where a command ends, so a crash inside a command keeps half a move")
def test_a_crash_inside_a_command_loses_the_whole_move_not_half_of_it(isolated_dirs):
    events, cut, start = next(cuts(0))
    header = {"game_id": GAME_ID, "rules_version": "test", "seed": 0, "seats": []}
    with GameLog.create(isolated_dirs, header, events=events[:cut]) as log:
        pass
    assert len(load(log.path, validate_log).events) == start
