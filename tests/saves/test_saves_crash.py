"""Crash test: a process saving bot-only games is killed with SIGKILL at
random points; every file must still load, and lose at most the event that
was being written (ARCHITECTURE "Saves": "a crash ... loses at most the move being made").

The kill points are random (seeded) and land wherever the child happens to
be, but the verdict never depends on timing: whatever was cut, each file is
compared with the full game rebuilt from its seed.
"""

from __future__ import annotations

import functools
import os
import random
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from momiji_tui import engine
from momiji_tui.bots import make_bot
from momiji_tui.session.saves import describe_saved_games
from momiji_tui.session.table import Table, validate_log
from momiji_tui.store import DAMAGED, games_dir, load
from momiji_tui.store.log import encode_move

from crash_writer import expected_game

WRITER = Path(__file__).with_name("crash_writer.py")
KILLS = 60
pytestmark = pytest.mark.skipif(os.name != "posix", reason="SIGKILL is POSIX")


def run_and_kill(data: Path, first_seed: int, target: int, acked: dict[str, int], delay: float = 0) -> bool:
    """Start the writer, read its acknowledgements until ``target`` events were
    saved, wait ``delay`` seconds (so kills also land inside a command's
    writes), then SIGKILL it. Records the acknowledged event count per game in
    ``acked``; returns True if the child was killed (not finished first)."""
    child = subprocess.Popen([sys.executable, str(WRITER), str(data), str(first_seed), "3"],
                             stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
    saved = 0
    try:
        while saved < target:
            line = child.stdout.readline()
            if not line or line.startswith("done"):
                break
            _kind, game_id, *rest = line.split()
            count = int(rest[-1])
            saved += count - acked.get(game_id, 0)
            acked[game_id] = count
        if delay:
            time.sleep(delay)  # only moves the kill point; no verdict depends on it
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
        child.stdout.close()
    return child.returncode == -signal.SIGKILL


@functools.cache
def whole_game(seed: int, game_id: str) -> tuple[list[dict], list[int]]:
    """``expected_game``, worked out once per game: it follows from the seed
    and id alone (the engine and the seeded bots are deterministic), and
    ``check_file`` runs twice on every file. Callers only read the lists."""
    return expected_game(seed, game_id)


def check_file(path: Path, acked: dict[str, int]) -> tuple[int, bool, list[dict]]:
    """The verdict for one file (asserts); returns its event count, whether
    it ends between two commands, and the expected whole game."""
    loaded = load(path, validate_log)  # loads, and the rules accept (fold) every event
    game_id = loaded.header["game_id"]
    expected, boundaries = whole_game(loaded.header["seed"], game_id)
    n = len(loaded.events)
    # Every complete line is the right event, in order (a prefix of the game)…
    assert loaded.events == expected[:n], f"{path.name}: the saved events differ from the game"
    # …nothing the writer had reported saved is missing…
    assert n >= acked.get(game_id, 0), f"{path.name}: {acked[game_id] - n} acknowledged events lost"
    # …the file always ends between two moves (format 2 drops a half-saved move)…
    assert n in boundaries, f"{path.name}: ends inside a move"
    # …and what lies beyond is a piece of the one next move: at most the move being
    # written is lost, and of it only the events not yet fsynced plus the one being written.
    tail = path.read_bytes()[loaded.committed_size:]
    if tail:
        end = next(b for b in boundaries if b > n)
        assert b"".join(encode_move(expected[n:end])).startswith(tail), f"{path.name}: bad tail"
        assert loaded.warnings
    return n, n in boundaries, expected


@pytest.mark.slow
def test_sigkill_at_random_points_loses_at_most_the_event_being_written(tmp_path):
    rng = random.Random(20260501)
    data = tmp_path / "data"
    plans = []
    for kill in range(KILLS):
        # A spread of kill points: at start-up, early in a game, anywhere in a game, in a second game.
        target = rng.choices([0, rng.randint(1, 30), rng.randint(1, 200), rng.randint(200, 450)],
                             weights=[1, 3, 4, 2])[0]
        delay = rng.choice([0, rng.uniform(0, 0.02)])
        plans.append((kill * 3, target, delay))
    acks: list[dict[str, int]] = [{} for _ in plans]
    with ThreadPoolExecutor(max_workers=2) as pool:  # two writers at a time, in one folder
        results = list(pool.map(lambda k: run_and_kill(data, plans[k][0], plans[k][1], acks[k], plans[k][2]),
                                range(KILLS)))
    killed = sum(results)
    assert killed >= 50
    acked = {game_id: n for a in acks for game_id, n in a.items()}

    files = sorted(games_dir(data).glob("*.jsonl"))
    assert files
    cuts = {"between commands": 0, "inside a command": 0, "finished": 0, "torn tail": 0}
    for path in files:
        n, at_boundary, expected = check_file(path, acked)
        if n == len(expected):
            cuts["finished"] += 1
        cuts["between commands" if at_boundary else "inside a command"] += 1
        cuts["torn tail"] += path.stat().st_size > load(path).committed_size

    # Every game is listed and none is damaged (a kill during creation leaves
    # no file at all: header and setup are written in one atomic step).
    rows = describe_saved_games(data)
    assert sorted(r.game_id for r in rows) == [p.name[:-len(".jsonl")] for p in files]
    assert [r for r in rows if r.status == DAMAGED] == []
    assert not any(".damaged-" in p.name for p in games_dir(data).iterdir())
    # Every unfinished game can go on from where its file ends.
    unfinished = []
    for path in files:
        n, _, expected = check_file(path, acked)
        if n < len(expected):
            unfinished.append(path)
    assert all(make_a_move(p) for p in unfinished)
    print(f"\n{len(files)} files after {killed} kills: {cuts}; {len(unfinished)} unfinished games went on")


def make_a_move(path: Path) -> bool:
    """Resume ``path`` and make one legal move (a bot's); False if none exists."""
    table = Table.resume(path)
    try:
        if table.finished or not table.legal(table.current):
            return False
        table.submit(make_bot("easy", seed=0).choose(table.view(table.current)))
        return True
    finally:
        table.close()


def test_a_cut_game_resumes_where_the_file_ends(tmp_path):
    """Kill in the middle of a game, resume the file with ``Table.resume``
    and make a legal move: the torn tail is cut before the new events."""
    data = tmp_path / "data"
    acked: dict[str, int] = {}
    assert run_and_kill(data, first_seed=4, target=60, acked=acked)
    (path,) = games_dir(data).glob("*.jsonl")
    n, _, _ = check_file(path, acked)
    table = Table.resume(path)
    try:
        assert len(table.events) == n
        if table.state.phase != "ended":
            legal = table.legal(table.current)
            assert legal, "the resumed game has no legal move"
            table.submit(make_bot("easy", seed=1).choose(table.view(table.current)))
    finally:
        table.close()
    again = load(path, validate_log)
    assert again.warnings == [] and len(again.events) > n
    assert [engine.from_dict(e) for e in again.events] == table.events
