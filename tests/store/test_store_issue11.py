"""Nothing lost, nothing crashes: each reported input, reproduced.

1. two writers of one game; 2. a full disk at a move; 3. a read-only data
dir holding a damaged file; 4. a save from newer rules; 5. Continue and
``resume`` choose by the last move, not by the id.
"""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest
from store_faults import inject, snapshot
from store_helpers import GAME_A, GAME_B, make_events, make_header, write_log

from momiji_tui import cli
from momiji_tui.session.saves import describe_saved_games
from momiji_tui.session.table import HUMAN, SeatConfig, Table
from momiji_tui.store import DAMAGED, NEWER, GameLog, StoreError, latest_unfinished, list_games

SEATS = [SeatConfig("Ada", HUMAN), SeatConfig("Bo", "bot", "easy")]
T0 = datetime(2020, 5, 1, 12, 0, 0, tzinfo=UTC)


# ------------------------------------------------------------ 1. two writers


def test_two_writers_second_is_refused_in_one_process(isolated_dirs):
    path = write_log(isolated_dirs, GAME_A, make_events(2))
    first = GameLog.open_for_append(path)
    try:
        with pytest.raises(StoreError, match=r"already open for play .*process \d+"):
            GameLog.open_for_append(path)
        first.extend(make_events(1))  # the first writer's move is kept whole
    finally:
        first.close()
    assert len(path.read_bytes().splitlines()) == 1 + 3
    with GameLog.open_for_append(path) as again:  # free once the first writer closed
        again.extend(make_events(1))


def test_two_writers_second_is_refused_across_processes(isolated_dirs):
    path = write_log(isolated_dirs, GAME_A, make_events(2))
    second = (
        "import sys\n"
        "from momiji_tui.store import GameLog, StoreError\n"
        "try:\n"
        "    GameLog.open_for_append(sys.argv[1])\n"
        "except StoreError as exc:\n"
        "    print(exc)\n"
        "    sys.exit(3)\n"
    )
    with GameLog.open_for_append(path) as first:
        done = subprocess.run([sys.executable, "-c", second, str(path)], capture_output=True, text=True,
                              timeout=60)
        first.extend(make_events(1))
    assert done.returncode == 3, done.stderr
    assert "already open for play" in done.stdout
    before = path.read_bytes()
    done = subprocess.run([sys.executable, "-c", second, str(path)], capture_output=True, timeout=60)
    assert done.returncode == 0 and path.read_bytes() == before  # after close: opened, nothing changed


def test_two_writers_table_resume_is_refused_with_where_it_is_open(isolated_dirs):
    table = Table.new(SEATS, seed=3, data_dir=isolated_dirs)
    try:
        with pytest.raises(StoreError, match="already open for play"):
            Table.resume(table.log.path)
    finally:
        table.close()
    Table.resume(table.log.path).close()


# ------------------------------------------------------------ 3. read-only data dir


def _newer_rules_save(data_dir, game_id=GAME_B):
    """A save from newer rules: same save format, a later rules_version, one
    event type this version does not know."""
    good = Table.new(SEATS, seed=5, data_dir=data_dir)
    good.close()
    lines = good.log.path.read_bytes().splitlines(keepends=True)
    header = json.loads(lines[0]) | {"rules_version": "2099.01-1", "game_id": game_id}
    new = [json.dumps(header).encode() + b"\n", *lines[1:],
           json.dumps({"type": "SeasonTurned", "season": "winter"}).encode() + b"\n"]
    path = data_dir / "games" / f"{game_id}.jsonl"
    path.write_bytes(b"".join(new))
    good.log.path.unlink()
    return path


def test_list_read_only_dir_describes_damaged_newer_and_good_games(isolated_dirs, monkeypatch, capsys):
    good = [Table.new(SEATS, seed=s, data_dir=isolated_dirs) for s in (1, 2)]
    for t in good:
        t.close()
    newer = _newer_rules_save(isolated_dirs)
    damaged = isolated_dirs / "games" / f"{GAME_A}.jsonl"
    damaged.write_bytes(b'{"format":"momiji-log","format_version":2}\n{not json\n')
    before = snapshot(isolated_dirs)
    faults = inject(monkeypatch, {"create", "link", "rename"}, "EROFS")  # the dir is read-only
    code = cli.main(["list"])
    out = capsys.readouterr().out
    assert code == 0 and faults.hits > 0
    assert snapshot(isolated_dirs) == before  # nothing moved, nothing written
    assert out.count("in progress") == 2 and all(t.game_id in out for t in good)
    assert GAME_A in out and "damaged" in out and "Line 2 is not valid JSON." in out
    assert "could not be moved aside (read-only file system)" in out
    assert newer.stem in out and "update momiji to open it" in out


# ------------------------------------------------------------ 4. newer rules


def test_newer_rules_listed_not_moved(isolated_dirs):
    path = _newer_rules_save(isolated_dirs)
    before = path.read_bytes()
    (row,) = describe_saved_games(isolated_dirs)
    assert row.status == NEWER and "update momiji to open it" in row.problem
    assert "2099.01-1" in row.problem
    assert path.read_bytes() == before and sorted(p.name for p in path.parent.iterdir()) == [path.name]
    with pytest.raises(StoreError, match="update momiji to open it"):
        Table.resume(path)
    assert path.read_bytes() == before


def test_older_rules_that_the_rules_reject_are_still_damaged(isolated_dirs):
    path = _newer_rules_save(isolated_dirs)
    path.write_bytes(path.read_bytes().replace(b"2099.01-1", b"2026.10-9"))
    (row,) = describe_saved_games(isolated_dirs)
    assert row.status == DAMAGED


@pytest.mark.parametrize("ours, theirs, newer", [
    ("2026.11-1", "2026.11-10", True), ("2026.11-9", "2026.11-10", True), ("2026.11-10", "2026.11-9", False),
    ("2026.11-1", "2026.12-1", True), ("2026.11-1", "2027.1-1", True), ("2026.11-1", "2026.11-1", False),
    ("2026.11-1", "2025.12-30", False), ("2026.11-1", "1.0", False), ("2026.11-1", "banana", False)])
def test_rules_versions_compare_as_numbers(ours, theirs, newer):
    from momiji_tui.session.versions import is_newer_rules

    assert is_newer_rules(theirs, ours) is newer


# ------------------------------------------------------------ 5. last played


def test_continue_orders_by_last_move(isolated_dirs, monkeypatch):
    import momiji_tui.store.log as log_module

    # The store's clock ticks a second per call: on the real clock two moves can
    # share a millisecond, and a tie is broken by id (B) — a flaky run showed it.
    ticks = iter(range(10_000))
    monkeypatch.setattr(log_module, "utc_now", lambda: T0 + timedelta(seconds=next(ticks)))
    a = write_log(isolated_dirs, "20200501-120000-ffffff", make_events(1))
    b = write_log(isolated_dirs, "20200501-130000-000000", make_events(1))
    with GameLog.open_for_append(a) as log:  # a move in A, after B started
        log.extend(make_events(1))
    assert [g.game_id for g in list_games(isolated_dirs)] == [a.stem, b.stem]
    assert latest_unfinished(isolated_dirs).game_id == a.stem


def test_games_started_in_the_same_second_come_out_in_the_order_played(isolated_dirs, monkeypatch):
    import momiji_tui.store.log as log_module

    now = [T0 + timedelta(milliseconds=100)]
    monkeypatch.setattr(log_module, "utc_now", lambda: now[0])
    first = GameLog.create(isolated_dirs, make_header("20200501-120000-ffffff"), events=make_events(1))
    now[0] = T0 + timedelta(milliseconds=700)
    second = GameLog.create(isolated_dirs, make_header("20200501-120000-000000"), events=make_events(1))
    first.close(), second.close()
    assert [g.game_id for g in list_games(isolated_dirs)] == [second.game_id, first.game_id]
    now[0] = T0 + timedelta(seconds=5)
    with GameLog.open_for_append(first.path) as log:
        log.extend(make_events(1))
    assert [g.game_id for g in list_games(isolated_dirs)] == [first.game_id, second.game_id]
    assert list_games(isolated_dirs)[0].last_played == T0 + timedelta(seconds=5)


def fake_clock(monkeypatch):
    """The store's clock: one second later at each call (no wall clock)."""
    import momiji_tui.store.log as log_module

    ticks = iter(range(10_000))
    monkeypatch.setattr(log_module, "utc_now", lambda: T0 + timedelta(seconds=next(ticks)))


def test_resume_without_id_and_the_list_order_by_last_move(isolated_dirs, monkeypatch, capsys, a_terminal):
    from momiji_tui.ui.app import MomijiApp

    fake_clock(monkeypatch)
    a = Table.new(SEATS, seed=1, data_dir=isolated_dirs)
    b = Table.new(SEATS, seed=2, data_dir=isolated_dirs)
    b.close()
    # B was started later; then a move is saved in A.
    from saves_like import any_move
    a.submit(any_move(a))
    a.close()
    apps = []
    monkeypatch.setattr(MomijiApp, "run", lambda self, *x, **k: apps.append(self))
    assert cli.main(["resume"]) == 0
    assert apps[0]._start_resume == a.log.path
    assert [r.game_id for r in describe_saved_games(isolated_dirs)] == [a.game_id, b.game_id]


def test_a_save_that_is_not_a_regular_file_is_damaged_not_read_forever(isolated_dirs):
    """``ln -sf /dev/full <game>.jsonl`` (the issue's way to fill a disk): reading
    it would never end; it is reported instead (and left alone by readers)."""
    from momiji_tui.store import DamagedLog, load

    path = isolated_dirs / "games" / f"{GAME_A}.jsonl"
    path.parent.mkdir(parents=True)
    path.symlink_to("/dev/zero")
    with pytest.raises(DamagedLog, match="not a regular file"):
        load(path)
