"""The store under disk faults: every write path (append, create, move
aside, import, export, delete) with each write call failing (open for
create, open, write, fsync, link, rename, mkdir, unlink, truncate; ``link+rename``:
no way to move a file at all) by
ENOSPC, EROFS, EACCES and EIO.

Each case: no raw ``OSError`` or traceback escapes (a ``StoreError`` with a
message in words, or success when the failing call was only a courtesy),
and no data is lost: what was on disk is still there, byte for byte, and
nothing is moved aside that should not be.
"""

from __future__ import annotations

import pytest
from store_faults import ERRORS, inject
from store_helpers import GAME_A, GAME_B, make_events, make_header, raw_lines, write_log

from momiji_tui.store import CURRENT_FORMAT_VERSION
from momiji_tui.store import (
    DAMAGED,
    GameLog,
    StoreError,
    WriteFailed,
    delete_game,
    export_game,
    import_game,
    list_games,
    load,
)

REASONS = {"ENOSPC": "disk full", "EROFS": "read-only file system", "EACCES": "permission denied",
           "EIO": "input/output error"}
TORN = b'{"type":"Cards'


def _append(tmp_path, data, monkeypatch, point, error):
    path = write_log(data, GAME_A, make_events(2))
    committed = path.read_bytes()
    with path.open("ab") as f:
        f.write(TORN)  # a torn tail: the append must cut it first (under the lock)
    before = path.read_bytes()
    log = GameLog.open_for_append(path)
    faults = inject(monkeypatch, set(point.split("+")), error)
    try:
        log.extend(make_events(1))
        failed = None
    except StoreError as exc:
        failed = exc
    after = path.read_bytes()
    faults.points.clear()
    if failed is not None:
        assert after in (before, committed)  # at most the torn tail is gone
        assert load(path).events == make_events(2)
    log.extend([{"type": "TurnEnded"}])  # the disk is back: the next append works
    log.close()
    events = load(path).events
    assert events[:2] == make_events(2) and events[-1] == {"type": "TurnEnded"}
    assert len(events) == (3 if failed is not None else 4)
    return faults, failed


def _create(tmp_path, data, monkeypatch, point, error):
    faults = inject(monkeypatch, set(point.split("+")), error)
    try:
        log = GameLog.create(data, make_header(GAME_A), events=make_events(2))
    except StoreError as exc:
        faults.points.clear()
        assert not (data / "games" / f"{GAME_A}.jsonl").exists()  # nothing half-made
        return faults, exc
    faults.points.clear()
    log.close()
    assert load(log.path).events == make_events(2)
    return faults, None


def _move_aside(tmp_path, data, monkeypatch, point, error):
    good = write_log(data, GAME_B, make_events(1))
    bad = data / "games" / f"{GAME_A}.jsonl"
    bad.write_bytes(b'{"format":"momiji-log","format_version":3}\n{not json\n')
    before_bad, before_good = bad.read_bytes(), good.read_bytes()
    faults = inject(monkeypatch, set(point.split("+")), error)
    games = {g.game_id: g for g in list_games(data, quarantine_damaged=True)}  # never raises
    faults.points.clear()
    assert games[GAME_A].status == DAMAGED and good.read_bytes() == before_good
    copies = [p for p in bad.parent.iterdir() if p.name.startswith(bad.name) and not p.name.endswith(".txt")]
    assert copies and all(p.read_bytes() == before_bad for p in copies)  # never lost, never changed
    if games[GAME_A].not_moved is not None:
        assert bad.read_bytes() == before_bad and games[GAME_A].path == bad
        return faults, WriteFailed("move the damaged file aside", bad, OSError(ERRORS[error], "x")) \
            if games[GAME_A].not_moved == REASONS[error] or REASONS[error] in games[GAME_A].not_moved else \
            AssertionError(games[GAME_A].not_moved)
    assert games[GAME_A].path.read_bytes() == before_bad
    return faults, None


def _import(tmp_path, data, monkeypatch, point, error):
    src = tmp_path / "elsewhere" / "game.jsonl"
    src.parent.mkdir()
    src.write_bytes(raw_lines({"format": "momiji-log", "format_version": 3, "created": "2026-01-02T03:04:05+00:00",
                               **make_header(GAME_A)}, *make_events(2)))
    before = src.read_bytes()
    faults = inject(monkeypatch, set(point.split("+")), error)
    try:
        import_game(data, src)
        failed = None
    except StoreError as exc:
        failed = exc
    faults.points.clear()
    assert src.read_bytes() == before
    target = data / "games" / f"{GAME_A}.jsonl"
    if failed is not None:
        assert not target.exists()
    else:
        assert load(target).events == make_events(2)
    return faults, failed


def _export(tmp_path, data, monkeypatch, point, error):
    source = write_log(data, GAME_A, make_events(2))
    before = source.read_bytes()
    dest = tmp_path / "out" / "copy.jsonl"
    dest.parent.mkdir()
    faults = inject(monkeypatch, set(point.split("+")), error)
    try:
        export_game(data, GAME_A, dest)
        failed = None
    except StoreError as exc:
        failed = exc
    faults.points.clear()
    assert source.read_bytes() == before
    if failed is not None:
        assert not dest.exists()
    else:
        assert dest.read_bytes() == before
    return faults, failed


def _upgrade(tmp_path, data, monkeypatch, point, error):
    path = write_log(data, GAME_A, make_events(2))
    v2 = path.read_bytes().replace(b'"format_version":%d' % CURRENT_FORMAT_VERSION, b'"format_version":2')
    path.write_bytes(v2)
    faults = inject(monkeypatch, set(point.split("+")), error)
    try:
        GameLog.open_for_append(path).close()
        failed = None
    except StoreError as exc:
        failed = exc
    faults.points.clear()
    if failed is not None:
        assert path.read_bytes() == v2
    with GameLog.open_for_append(path) as log:  # the disk is back: the upgrade is done, the backup kept
        log.extend([{"type": "TurnEnded"}])
    assert load(path).events == [*make_events(2), {"type": "TurnEnded"}]
    assert path.with_name(f"{path.name}.v2-backup").read_bytes() == v2
    return faults, failed


def _delete(tmp_path, data, monkeypatch, point, error):
    path = write_log(data, GAME_A, make_events(2))
    before = path.read_bytes()
    faults = inject(monkeypatch, set(point.split("+")), error)
    try:
        delete_game(data, GAME_A)
        failed = None
    except StoreError as exc:
        failed = exc
    faults.points.clear()
    if failed is not None:
        assert path.read_bytes() == before
    else:
        assert not path.exists()
    return faults, failed


PATHS = {"append": _append, "create": _create, "move aside": _move_aside, "import": _import,
         "export": _export, "delete": _delete, "upgrade": _upgrade}
# The write calls each path makes (each must be hit by its case), and those
# whose failure is only a courtesy (the operation still succeeds, nothing lost).
USES = {
    "append": {"open": False, "truncate": False, "write": False, "fsync": False},
    "create": {"mkdir": False, "create": False, "write": False, "fsync": False, "link": True, "link+rename": False,
               "unlink": True, "open": False},
    "move aside": {"create": False, "link": True, "link+rename": False, "unlink": False, "fsync": True, "write": True,
                   "open": True},
    "import": {"mkdir": False, "create": False, "write": False, "fsync": False, "link": True, "link+rename": False,
               "unlink": True, "open": False},
    "export": {"create": False, "write": False, "fsync": False, "link": True, "link+rename": False, "unlink": True,
               "open": False},
    "delete": {"create": False, "unlink": False, "write": True},
    "upgrade": {"create": False, "write": False, "fsync": False, "rename": False, "unlink": True, "open": False},
}
CASES = [(path, point, error) for path, points in USES.items() for point in points for error in ERRORS]


@pytest.mark.parametrize("path, point, error", CASES)
def test_a_failing_write_call_is_a_clear_error_and_loses_nothing(tmp_path, isolated_dirs, monkeypatch,
                                                                 path, point, error):
    faults, failed = PATHS[path](tmp_path, isolated_dirs, monkeypatch, point, error)
    assert faults.hits > 0, f"{path} never made a {point} call"
    assert not isinstance(failed, AssertionError), failed
    if USES[path][point]:  # a courtesy call: the operation goes on
        return
    assert failed is not None, f"{path} went on as if {point} had worked"
    assert isinstance(failed, StoreError)
    message = str(failed)
    assert REASONS[error] in message or "open for play" in message, message
    assert "Errno" not in message and "Traceback" not in message
