"""Every save format ever written still loads: one committed game per format
version (``fixtures/format-vN.jsonl``), migrated by the store's chain, folded
by today's engine to the same known end.

When the format changes (``CURRENT_FORMAT_VERSION`` goes up), keep the old
fixtures, add one written in the new format, and add its known end below.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from momiji_tui import engine
from momiji_tui.session.replay import Replay
from momiji_tui.session.saves import describe_saved_games
from momiji_tui.session.table import Table, validate_log
from momiji_tui.store import CURRENT_FORMAT_VERSION, FINISHED, import_game, load
from momiji_tui.store.log import MIGRATIONS

FIXTURES = Path(__file__).parent / "fixtures"
OLDEST_FORMAT = 1

# The known end of each fixture's game (a 3-seat drafted game, seed 1).
# format-v2.jsonl is the same game written in format 2 (moves marked: the
# setup, each draft pick, and each turn as one move); format-v3.jsonl the
# same again in format 3 (each move's last event dated: "saved_at");
# format-v4.jsonl the same lines in format 4 (which may also hold a shared
# table's SeatControlChanged events; a game without any is written alike);
# format-v5.jsonl the same game with two hints shown to seat 0 (HintShown
# lines, each its own dated move), so 206 events; format-v6.jsonl the same
# lines as format 5, each move's last event also stamped with its play order
# ("play_order", 41 to 102).
_GAME_SEED_1 = {
    "events": 204,
    "totals": [18, 10, 22],
    "winners": (2,),
    "acorns": [2, 2, 1],
    "turns": [17, 17, 17],
    "owners": {"longest": 0, "torii": 1, "type-M": 2, "zeros": 1},
    "rows": [[("K", 4, False), ("G", 3, False), ("Z", 2, False)],
             [("Z", 1, False), ("M", 3, False), ("G", 2, False)],
             [("M", 1, False), ("Z", 1, False), ("O", 5, True)]],
}
KNOWN_END = {1: _GAME_SEED_1, 2: _GAME_SEED_1, 3: _GAME_SEED_1, 4: _GAME_SEED_1,
             5: {**_GAME_SEED_1, "events": 206, "hints": (2, 0, 0)},
             6: {**_GAME_SEED_1, "events": 206, "hints": (2, 0, 0)}}
VERSIONS = list(range(OLDEST_FORMAT, CURRENT_FORMAT_VERSION + 1))


def fixture(version: int) -> Path:
    return FIXTURES / f"format-v{version}.jsonl"


def test_there_is_a_fixture_and_a_known_end_for_every_format_version():
    assert sorted(KNOWN_END) == VERSIONS
    for version in VERSIONS:
        assert fixture(version).is_file(), f"add a game saved in format {version} as {fixture(version).name}"
    # and a migration step from every old format to the next
    assert all(v in MIGRATIONS for v in range(OLDEST_FORMAT, CURRENT_FORMAT_VERSION))


@pytest.mark.parametrize("version", VERSIONS)
def test_each_format_loads_migrates_and_folds_to_its_known_end(version):
    path = fixture(version)
    before = path.read_bytes()
    loaded = load(path, validate_log)
    assert loaded.disk_version == version and loaded.warnings == []
    assert loaded.header["format_version"] == CURRENT_FORMAT_VERSION
    assert path.read_bytes() == before  # loading never writes
    state = engine.fold(engine.from_dict(e) for e in loaded.events)
    known = KNOWN_END[version]
    sheet = engine.score(state)
    assert state.phase == "ended" and len(loaded.events) == known["events"]
    assert [s.total for s in sheet.seats] == known["totals"]
    assert tuple(sheet.winners) == known["winners"]
    assert [s.acorns for s in state.seats] == known["acorns"]
    assert [s.turns for s in state.seats] == known["turns"]
    assert dict(state.owners) == known["owners"]
    assert [[(p.leaf_type, len(p.cards), p.closed) for p in s.row] for s in state.seats] == known["rows"]
    assert (state.hints or (0, 0, 0)) == known.get("hints", (0, 0, 0))
    # The same end through a read-only table and a replay.
    assert Table.replay(path).score() == sheet
    replay = Replay.from_dicts(loaded.events)
    replay.end()
    assert replay.state == state


@pytest.mark.parametrize("version", VERSIONS)
def test_each_format_imports_and_lists_as_finished(version, isolated_dirs):
    game_id = import_game(isolated_dirs, fixture(version), validate_log)
    (row,) = describe_saved_games(isolated_dirs)
    assert row.game_id == game_id and row.status == FINISHED
    assert row.scores == " · ".join(str(t) for t in KNOWN_END[version]["totals"])
    assert load(isolated_dirs / "games" / f"{game_id}.jsonl").disk_version == CURRENT_FORMAT_VERSION


def test_format_3_dates_the_last_move_and_older_formats_were_last_played_when_created():
    from datetime import UTC, datetime

    v3 = load(fixture(3), validate_log)
    assert v3.last_played == datetime.fromisoformat(
        __import__("json").loads(fixture(3).read_text().splitlines()[-1])["saved_at"])
    assert all("saved_at" not in e and "move_continues" not in e for e in v3.events)
    for version in (1, 2):
        assert load(fixture(version)).last_played == datetime(2026, 11, 30, 13, 43, 31, tzinfo=UTC)


def test_format_6_orders_the_last_move_and_older_formats_have_no_play_order():
    v6 = load(fixture(6), validate_log)
    assert v6.play_order == 102
    assert all("play_order" not in e for e in v6.events)
    assert all(load(fixture(version)).play_order is None for version in range(OLDEST_FORMAT, 6))
