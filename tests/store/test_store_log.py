"""Writing and reading one game's log: round trip, durability, torn tails, damage."""

from __future__ import annotations

import json
import os
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from momiji_tui.store import CURRENT_FORMAT_VERSION, DamagedLog, GameExists, GameLog, NewerFormat, load, quarantine
from momiji_tui.store import WriteFailed
from momiji_tui.store import log as log_module
from momiji_tui.store import writer as writer_module
from momiji_tui.store.log import TORN_TAIL_WARNING

from store_helpers import GAME_A, GAME_B, GAME_C, make_events, make_header, raw_lines, write_log

FIXTURES = Path(__file__).parent / "fixtures"
NOW = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


def v1_header(game_id: str = GAME_A) -> dict:
    """The full header the store writes today (the name is historical)."""
    return {"format": "momiji-log", "format_version": CURRENT_FORMAT_VERSION, "created": "2026-01-02T03:04:05+00:00",
            **make_header(game_id)}


def test_round_trip_header_and_events(isolated_dirs):
    events = make_events(3) + [{"type": "GameEnded", "note": "momiji 紅葉", "scores": [10, 7]}]
    with GameLog.create(isolated_dirs, make_header(options={"memory": True}), now=NOW) as log:
        log.extend(events[:2])
        for event in events[2:]:
            log.append(event)
    assert log.path == isolated_dirs / "games" / f"{GAME_A}.jsonl"
    loaded = load(log.path)
    assert loaded.header == {**v1_header(), "options": {"memory": True}}
    assert loaded.events == events
    assert loaded.warnings == []
    raw = log.path.read_bytes()
    assert raw.endswith(b"\n") and raw.count(b"\n") == 5
    # Compact JSON, one per line; the first event of a two-event move says the move goes on.
    assert b'{"type":"CardsPlayed","seat":0,"cards":[0,1],"move_continues":true}\n' in raw
    # The move's last event is dated by the store (format 3) and stamped with its play order (format 6).
    assert re.search(rb'\{"type":"CardsPlayed","seat":1,"cards":\[1,2\],"saved_at":"[0-9T:.+-]+",'
                     rb'"play_order":1\}\n', raw)


def test_create_fills_in_a_new_id_and_creation_time(isolated_dirs):
    header = make_header()
    del header["game_id"]
    log = GameLog.create(isolated_dirs, header, now=NOW)
    assert log.game_id.startswith("20260102-030405-")
    assert load(log.path).header["created"] == "2026-01-02T03:04:05+00:00"


def test_create_writes_first_events_with_the_header_in_one_step(isolated_dirs, monkeypatch):
    events = make_events(3)
    with GameLog.create(isolated_dirs, make_header(), events=events) as log:
        log.append({"type": "TurnEnded"})
    assert load(log.path).events == [*events, {"type": "TurnEnded"}]
    assert log.loaded.events == events
    # One atomic file write: the header never stands alone on disk.
    writes = []
    monkeypatch.setattr(writer_module._fs, "write_file", lambda path, data, **kw: writes.append(data))
    GameLog.create(isolated_dirs, make_header(GAME_B), events=events)
    assert len(writes) == 1 and writes[0].count(b"\n") == 4
    with pytest.raises(ValueError):  # a bad event: nothing is written
        GameLog.create(isolated_dirs, make_header(GAME_C), events=[{"no": "type"}])
    assert not (isolated_dirs / "games" / f"{GAME_C}.jsonl").exists()


def test_create_never_overwrites(isolated_dirs):
    path = write_log(isolated_dirs, GAME_A, make_events(2))
    before = path.read_bytes()
    with pytest.raises(GameExists):
        GameLog.create(isolated_dirs, make_header(GAME_A))
    assert path.read_bytes() == before
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]  # no temp files left


@pytest.mark.parametrize(
    "change",
    [{"rules_version": None}, {"seats": "two"}, {"seed": True}, {"seed": 1.5},
     {"format_version": CURRENT_FORMAT_VERSION + 1}, {"format": "other"}, {"format_version": True},
     {"created": "yesterday"}],
)
def test_create_rejects_a_bad_header(isolated_dirs, change):
    with pytest.raises(ValueError):
        GameLog.create(isolated_dirs, {**make_header(), **change})
    assert not (isolated_dirs / "games" / f"{GAME_A}.jsonl").exists()


def test_append_is_durable_event_by_event(isolated_dirs, monkeypatch):
    log = GameLog.create(isolated_dirs, make_header())
    seen_at_fsync: list[bytes] = []
    real_fsync = os.fsync

    def spy(fd):
        seen_at_fsync.append(log.path.read_bytes())
        real_fsync(fd)

    monkeypatch.setattr(log_module.os, "fsync", spy)
    events = make_events(4)
    log.append(events[0])
    assert load(log.path).events == events[:1]  # read back by another reader, before close
    log.extend(events[1:])
    assert len(seen_at_fsync) == 4  # one fsync per event, each after its full line was written
    for count, raw in enumerate(seen_at_fsync, start=1):
        assert raw.endswith(b"\n") and raw.count(b"\n") == 1 + count
    log.close()
    assert load(log.path).events == events


@pytest.mark.parametrize(
    ("bad", "error"),
    [(["not", "a", "dict"], TypeError), ({"seat": 1}, ValueError), ({"type": ""}, ValueError),
     ({"type": "X", "v": float("nan")}, ValueError), ({"type": "X", "v": object()}, TypeError)],
)
def test_bad_events_are_refused_before_anything_is_written(isolated_dirs, bad, error):
    with GameLog.create(isolated_dirs, make_header()) as log:
        log.append(make_events(1)[0])
        before = log.path.read_bytes()
        with pytest.raises(error):
            log.append(bad)
        with pytest.raises(error):
            log.extend([*make_events(2), bad])
    assert log.path.read_bytes() == before


@pytest.mark.parametrize("failing_call", [2, 3, 4])
def test_a_failed_write_undoes_the_whole_call_and_leaves_no_partial_line(isolated_dirs, monkeypatch, failing_call):
    log = GameLog.create(isolated_dirs, make_header())
    calls = []
    real_fsync = os.fsync

    def failing_fsync(fd):
        calls.append(fd)
        if len(calls) == failing_call:
            raise OSError(28, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr(writer_module.os, "fsync", failing_fsync)
    z, a, b, c, d = make_events(5)
    log.append(z)
    with pytest.raises(WriteFailed, match="Could not save the move: disk full"):
        log.extend([a, b, c])  # fsync 2, 3 or 4 fails: a, b or c
    loaded = load(log.path)
    assert (loaded.events, loaded.warnings) == ([z], [])
    assert log.path.read_bytes().endswith(b"\n")
    log.append(d)
    log.close()
    assert load(log.path).events == [z, d]


@pytest.mark.parametrize("torn", [b'{"type":"CardsPla', b'{"type":"TurnEnded"}', b"\x00\x00\x00", b"\xe7\xb4"])
def test_torn_last_line_is_dropped_reported_and_repaired_on_next_append(isolated_dirs, torn):
    events = make_events(2)
    path = write_log(isolated_dirs, GAME_A, events)
    committed = path.read_bytes()
    with path.open("ab") as f:
        f.write(torn)
    loaded = load(path)
    assert loaded.events == events
    assert loaded.warnings == [TORN_TAIL_WARNING]
    assert "cut off" in TORN_TAIL_WARNING and "dropped" in TORN_TAIL_WARNING
    with GameLog.open_for_append(path) as log:
        assert log.loaded.warnings == [TORN_TAIL_WARNING]
        assert path.read_bytes().endswith(torn)  # opening alone changes nothing
        log.append({"type": "TurnEnded", "seat": 1})
    repaired = load(path)
    assert repaired.events == [*events, {"type": "TurnEnded", "seat": 1}]
    assert repaired.warnings == []
    after = path.read_bytes()  # the torn bytes are gone
    assert after.startswith(committed + b'{"type":"TurnEnded","seat":1,"saved_at":"') and after.count(b"\n") == 4


def test_a_log_cut_at_any_byte_loads_a_prefix_or_is_damaged(isolated_dirs):
    events = make_events(3)
    with GameLog.create(isolated_dirs, make_header(GAME_A)) as log:
        for event in events:  # three one-event moves
            log.append(event)
    path = log.path
    full = path.read_bytes()
    header_end = full.index(b"\n") + 1
    for cut in range(len(full) + 1):
        path.write_bytes(full[:cut])
        if cut < header_end:
            with pytest.raises(DamagedLog):
                load(path)
            continue
        loaded = load(path)
        complete = full[:cut].count(b"\n") - 1
        assert loaded.events == events[:complete]
        assert loaded.warnings == ([] if full[:cut].endswith(b"\n") else [TORN_TAIL_WARNING])


def test_bad_json_mid_file_is_damaged_and_kept_byte_for_byte(isolated_dirs):
    path = write_log(isolated_dirs, GAME_A, make_events(3))
    lines = path.read_bytes().split(b"\n")
    lines[2] = lines[2][:-5]  # event 2 of 3 loses its end, but the file goes on
    path.write_bytes(b"\n".join(lines))
    original = path.read_bytes()
    with pytest.raises(DamagedLog) as caught:
        load(path)
    assert caught.value.reason == "Line 3 is not valid JSON."
    assert caught.value.path == path
    assert str(caught.value) == f"The saved game {path.name} cannot be read: Line 3 is not valid JSON."
    assert path.read_bytes() == original  # loading never writes

    moved = quarantine(path, caught.value.reason, now=NOW)
    assert moved == path.with_name(f"{path.name}.damaged-20260102T030405Z")
    assert not path.exists()
    assert moved.read_bytes() == original
    assert Path(f"{moved}.txt").read_text() == "Line 3 is not valid JSON.\n"


def test_quarantine_never_overwrites(isolated_dirs):
    path = write_log(isolated_dirs, GAME_A, [])
    taken = path.with_name(f"{path.name}.damaged-20260102T030405Z")
    taken.write_bytes(b"an earlier damaged copy")
    original = path.read_bytes()
    moved = quarantine(path, "bad", now=NOW)
    assert moved == path.with_name(f"{path.name}.damaged-20260102T030405Z-2")
    assert moved.read_bytes() == original
    assert taken.read_bytes() == b"an earlier damaged copy"


@pytest.mark.parametrize(
    ("first_line", "reason_part"),
    [
        ([1, 2], "not a momiji-tui save"),
        ({"type": "GameCreated"}, "not a momiji-tui save"),
        ({**v1_header(), "format": "momiji-save"}, "not a momiji-tui save"),
        ({**v1_header(), "format_version": "1"}, "no format version"),
        ({**v1_header(), "format_version": True}, "no format version"),
        ({**v1_header(), "game_id": "../../etc/passwd"}, "no valid game id"),
        ({**v1_header(), "seats": None}, "seats"),
        ({**v1_header(), "rules_version": 1}, "rules version"),
        ({**v1_header(), "created": None}, "creation time"),
        ({**v1_header(), "seed": "7"}, "seed"),
    ],
)
def test_wrong_header_is_damaged(isolated_dirs, tmp_path, first_line, reason_part):
    path = tmp_path / "game.jsonl"
    path.write_bytes(raw_lines(first_line, *make_events(1)))
    with pytest.raises(DamagedLog, match=reason_part):
        load(path)


@pytest.mark.parametrize(
    ("event", "reason"),
    [(["CardsPlayed"], "Line 3 is not an event object."), ({"seat": 0}, 'Line 3 is an event without a "type".'),
     ({"type": 5}, 'Line 3 is an event without a "type".'), ("", "Line 3 is not an event object.")],
)
def test_events_must_be_objects_with_a_type(tmp_path, event, reason):
    path = tmp_path / "game.jsonl"
    path.write_bytes(raw_lines(v1_header(), *make_events(1), event, *make_events(1)))
    with pytest.raises(DamagedLog) as caught:
        load(path)
    assert caught.value.reason == reason


def test_blank_line_mid_file_is_damaged(tmp_path):
    path = tmp_path / "game.jsonl"
    path.write_bytes(raw_lines(v1_header()) + b"\n" + raw_lines(*make_events(1)))
    with pytest.raises(DamagedLog, match="Line 2 is not valid JSON"):
        load(path)


def test_newer_format_is_refused_with_a_clear_message(tmp_path):
    path = tmp_path / "game.jsonl"
    path.write_bytes(raw_lines({**v1_header(), "format_version": CURRENT_FORMAT_VERSION + 1, "new": 1}))
    with pytest.raises(NewerFormat) as caught:
        load(path)
    assert caught.value.found == CURRENT_FORMAT_VERSION + 1
    assert (
        f"made by a newer momiji-tui (format {CURRENT_FORMAT_VERSION + 1}); "
        f"this version reads up to {CURRENT_FORMAT_VERSION}"
    ) in str(caught.value)
    with pytest.raises(NewerFormat):
        GameLog.open_for_append(path)


@pytest.mark.parametrize(("content", "reason_part"),
                         [(b"", "empty"), (b'{"format":"momiji-log"', "no complete first line")])
def test_empty_or_headless_file_is_damaged(tmp_path, content, reason_part):
    path = tmp_path / "game.jsonl"
    path.write_bytes(content)
    with pytest.raises(DamagedLog, match=reason_part):
        load(path)


def test_missing_file_is_not_damage(tmp_path):
    with pytest.raises(FileNotFoundError):
        load(tmp_path / "nothing.jsonl")


def test_a_directory_in_the_way_is_damaged(tmp_path):
    (tmp_path / "game.jsonl").mkdir()
    with pytest.raises(DamagedLog, match="not a regular file"):
        load(tmp_path / "game.jsonl")


def test_a_file_too_large_to_be_a_save_is_damaged_without_being_read(tmp_path, monkeypatch):
    path = tmp_path / "game.jsonl"
    path.touch()
    os.truncate(path, log_module.MAX_SAVE_BYTES + 1)  # sparse: a disk image, a log of another program

    def never(self):
        raise AssertionError("read whole")

    monkeypatch.setattr(Path, "read_bytes", never)
    with pytest.raises(DamagedLog, match="too large to be a saved game"):
        load(path)


def test_permission_denied_is_damaged_simulated(isolated_dirs, monkeypatch):
    path = write_log(isolated_dirs, GAME_A, make_events(1))
    real_read_bytes = Path.read_bytes

    def read_bytes(self):
        if self == path:
            raise PermissionError(13, "Permission denied", str(self))
        return real_read_bytes(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    with pytest.raises(DamagedLog) as caught:
        load(path)
    assert caught.value.reason == "The file could not be read (permission denied)."


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root reads files whatever their mode")
def test_permission_denied_is_damaged_for_real(isolated_dirs):
    path = write_log(isolated_dirs, GAME_A, make_events(1))
    path.chmod(0)
    try:
        with pytest.raises(DamagedLog, match="permission denied"):
            load(path)
    finally:
        path.chmod(0o600)


def test_validate_hook_rejection_is_damage(isolated_dirs):
    events = make_events(2)
    path = write_log(isolated_dirs, GAME_A, events)
    seen = []

    def accept(header, evs):
        seen.append((header["game_id"], evs))

    def reject(header, evs):
        raise ValueError("card 99 is not in the deck")

    assert load(path, validate=accept).events == events
    assert seen == [(GAME_A, events)]
    with pytest.raises(DamagedLog) as caught:
        load(path, validate=reject)
    assert caught.value.reason == "The rules reject this game: card 99 is not in the deck"
    with pytest.raises(DamagedLog) as caught:  # a validator that says so already is not repeated
        load(path, validate=lambda h, e: (_ for _ in ()).throw(ValueError("The rules reject this save: no")))
    assert caught.value.reason == "The rules reject this save: no"
    with pytest.raises(DamagedLog):
        GameLog.open_for_append(path, validate=reject)


def test_committed_v1_fixture_still_loads():
    loaded = load(FIXTURES / "v1-game.jsonl")
    assert loaded.header["game_id"] == "20260115-093000-c0ffee"
    assert loaded.header["seats"][0] == {"kind": "human", "name": "Aki"}
    assert loaded.header["options"] == {"memory": False}
    assert [e["type"] for e in loaded.events] == ["GameCreated", "CardsPlayed", "TurnEnded", "GameEnded"]
    assert loaded.events[0]["deck"] == [3, 14, 15, 9, 26]
    assert (loaded.warnings, loaded.disk_version) == ([], 1)
    assert json.loads((FIXTURES / "v1-game.jsonl").read_text().splitlines()[0])["format_version"] == 1


def test_append_never_recreates_a_file_that_was_moved_away(isolated_dirs):
    log = GameLog.create(isolated_dirs, make_header())
    log.close()  # (an open game is never moved aside: quarantine takes its lock)
    moved = quarantine(log.path, "moved by the test", now=NOW)
    with pytest.raises(WriteFailed, match="the save file was removed"):
        log.append({"type": "TurnEnded"})
    assert not log.path.exists()  # no headless file was started
    assert load(moved).events == []


def test_absurdly_nested_json_is_damage_not_a_crash(tmp_path):
    path = tmp_path / "game.jsonl"
    path.write_bytes(raw_lines(v1_header()) + b"[" * 100_000 + b"\n")
    with pytest.raises(DamagedLog, match="Line 2 is not valid JSON"):
        load(path)


@pytest.mark.parametrize(
    ("event_lines", "problem"),
    [
        (b'{"type":"A"} {"type":"B"}\n', "Line 2 is not valid JSON."),  # two values on one line
        (b'{"type":"A",\n"x":1}\n', "Line 2 is not valid JSON."),  # one value over two lines
        (b'[1\n2]\n{"type":"A"},{"type":"B"}\n', "Line 2 is not valid JSON."),  # same count, wrong lines
        (b'\n{"type":"A"}\n', "Line 2 is not valid JSON."),  # an empty line
        (b'  {"type":"A"}  \n{"type":"B"}\n', None),  # spaces around a value are still JSON
        (b'{"type":"A","s":"\\u2603 \xe2\x98\x83"}\n', None),
    ],
)
def test_lines_are_parsed_one_value_per_line_whatever_the_path(tmp_path, event_lines, problem):
    path = tmp_path / "game.jsonl"
    path.write_bytes(raw_lines(v1_header()) + event_lines)
    if problem is None:
        expected = [json.loads(line) for line in event_lines.splitlines()]
        assert load(path).events == expected
    else:
        with pytest.raises(DamagedLog) as caught:
            load(path)
        assert caught.value.reason == problem


def test_a_move_cut_anywhere_is_dropped_whole_and_cut_off_before_the_next_move(isolated_dirs):
    """Format 2: a move's events are marked, so a crash between two events of
    one move (a SIGKILL after an fsync) loses the whole move, never half of it."""
    first, move = make_events(1), make_events(4)[1:]
    with GameLog.create(isolated_dirs, make_header(GAME_A), events=first) as log:
        log.extend(move)
    path = log.path
    full = path.read_bytes()
    lines = full.splitlines(keepends=True)
    assert b'"move_continues":true' in lines[2] and b"move_continues" not in lines[-1]
    before_move = sum(len(x) for x in lines[:2])
    for cut in range(before_move + 1, len(full)):
        path.write_bytes(full[:cut])
        loaded = load(path)
        assert loaded.events == first
        assert loaded.warnings  # the lost move is reported
        with GameLog.open_for_append(path) as again:
            again.append({"type": "TurnEnded", "seat": 1})
        assert load(path).events == [*first, {"type": "TurnEnded", "seat": 1}]
        assert load(path).warnings == []
    path.write_bytes(full)
    assert load(path).events == first + move
