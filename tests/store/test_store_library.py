"""The saved-games library: listing (damage never stops it), resume, delete, export, import."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from momiji_tui.store import (
    DAMAGED,
    FINISHED,
    IN_PROGRESS,
    NEWER,
    DamagedLog,
    GameExists,
    GameNotFound,
    delete_game,
    export_game,
    import_game,
    latest_unfinished,
    list_games,
    load,
)
from momiji_tui.store.log import CURRENT_FORMAT_VERSION, TORN_TAIL_WARNING

from store_helpers import GAME_A, GAME_B, GAME_C, make_events, make_header, raw_lines, write_log

NOW = datetime(2026, 5, 6, 7, 8, 9, tzinfo=UTC)
GAME_D = "20260105-030405-00000d"
GAME_E = "20260106-030405-00000e"


def finished(n: int) -> list[dict]:
    return [*make_events(n), {"type": "GameEnded"}]


def played_at_creation(monkeypatch) -> None:
    """The store's clock reads the time in the id of the game being written,
    so each game was last played when it started (A, B, C, D, E in order)."""
    import momiji_tui.store.log as log_module
    import momiji_tui.store.writer as writer_module

    real_create = writer_module.GameLog.create.__func__

    def create(cls, data_dir, header, **kw):
        moment = datetime.strptime(header["game_id"][:15], "%Y%m%d-%H%M%S").replace(tzinfo=UTC)
        monkeypatch.setattr(log_module, "utc_now", lambda: moment)
        return real_create(cls, data_dir, header, **kw)

    monkeypatch.setattr(writer_module.GameLog, "create", classmethod(create))


@pytest.fixture
def library(isolated_dirs, monkeypatch) -> Path:
    """A (older, in progress, torn), B (finished), C (damaged), D (newer format), E (in progress),
    each last played when it started."""
    played_at_creation(monkeypatch)
    a = write_log(isolated_dirs, GAME_A, make_events(2))
    with a.open("ab") as f:
        f.write(b'{"type":')
    write_log(isolated_dirs, GAME_B, finished(3))
    c = write_log(isolated_dirs, GAME_C, make_events(2))
    c.write_bytes(c.read_bytes().replace(b"CardsPlayed", b"Cards\x00Played", 1).replace(b'"seat"', b"seat", 1))
    d = write_log(isolated_dirs, GAME_D, [])
    d.write_bytes(d.read_bytes().replace(b'"format_version":%d' % CURRENT_FORMAT_VERSION, b'"format_version":9'))
    write_log(isolated_dirs, GAME_E, make_events(1))
    return isolated_dirs


def test_no_games_dir_lists_nothing_and_creates_nothing(isolated_dirs):
    assert list_games(isolated_dirs) == []
    assert latest_unfinished(isolated_dirs) is None
    assert not isolated_dirs.exists()


def test_list_games_reports_each_status_last_played_first(library):
    games = list_games(library)
    # D never saved a move, so it has no play order: after every game that did (store.play_order).
    assert [(g.game_id, g.status) for g in games] == [
        (GAME_E, IN_PROGRESS), (GAME_C, DAMAGED), (GAME_B, FINISHED), (GAME_A, IN_PROGRESS), (GAME_D, NEWER)]
    _e, c, b, a, d = games
    assert a.warnings == [TORN_TAIL_WARNING] and a.events == make_events(2) and a.header["seed"] == 7
    assert b.events == finished(3) and b.problem is None
    assert c.problem == "Line 2 is not valid JSON." and c.events is None and c.header is None
    assert "made by a newer momiji-tui (format 9)" in d.problem
    assert c.path.exists() and c.path.name == f"{GAME_C}.jsonl"  # not moved unless asked


def test_quarantine_on_request_moves_only_the_damaged_file(library):
    damaged = library / "games" / f"{GAME_C}.jsonl"
    original = damaged.read_bytes()
    games = {g.game_id: g for g in list_games(library, quarantine_damaged=True, now=NOW)}
    c = games[GAME_C]
    assert c.status == DAMAGED and c.path == damaged.with_name(f"{GAME_C}.jsonl.damaged-20260506T070809Z")
    assert c.path.read_bytes() == original and not damaged.exists()
    assert games[GAME_D].path.exists()  # a newer format is not damage: left where it is
    assert {g.game_id for g in list_games(library)} == {GAME_A, GAME_B, GAME_D, GAME_E}


def test_validate_hook_marks_rejected_games_damaged(library):
    def no_six_events(header, events):
        if len(events) > 3:
            raise ValueError("too many moves")

    statuses = {g.game_id: (g.status, g.problem) for g in list_games(library, no_six_events)}
    assert statuses[GAME_B] == (DAMAGED, "The rules reject this game: too many moves")
    assert statuses[GAME_E] == (IN_PROGRESS, None)


def test_other_files_in_the_games_dir_are_ignored(isolated_dirs):
    write_log(isolated_dirs, GAME_A, [])
    games = isolated_dirs / "games"
    (games / "notes.jsonl").write_text("hello\n")
    (games / f"{GAME_B}.jsonl.damaged-20260101T000000Z").write_text("old\n")
    (games / f".{GAME_C}.jsonl.abc.tmp").write_text("")
    assert [g.game_id for g in list_games(isolated_dirs)] == [GAME_A]


def test_latest_unfinished_skips_finished_and_damaged(library):
    assert latest_unfinished(library).game_id == GAME_E
    delete_game(library, GAME_E)
    assert latest_unfinished(library).game_id == GAME_A


def test_delete_game(isolated_dirs):
    path = write_log(isolated_dirs, GAME_A, make_events(1))
    delete_game(isolated_dirs, GAME_A)
    assert not path.exists()
    with pytest.raises(GameNotFound):
        delete_game(isolated_dirs, GAME_A)


def test_export_then_import_elsewhere(isolated_dirs, tmp_path):
    path = write_log(isolated_dirs, GAME_A, finished(2), options={"memory": True})
    out = tmp_path / "out"
    out.mkdir()
    exported = export_game(isolated_dirs, GAME_A, out)
    assert exported == out / f"{GAME_A}.jsonl" and exported.read_bytes() == path.read_bytes()
    with pytest.raises(GameExists):
        export_game(isolated_dirs, GAME_A, exported)
    renamed = export_game(isolated_dirs, GAME_A, out / "for-a-friend.jsonl")
    with pytest.raises(GameNotFound):
        export_game(isolated_dirs, GAME_B, out)

    other = tmp_path / "other-data"
    assert import_game(other, renamed) == GAME_A
    imported = load(other / "games" / f"{GAME_A}.jsonl")
    assert imported.header == load(path).header and imported.events == finished(2)


def test_import_refuses_an_existing_id_and_never_overwrites(isolated_dirs, tmp_path):
    path = write_log(isolated_dirs, GAME_A, make_events(3))
    before = path.read_bytes()
    src = tmp_path / "mine.jsonl"
    src.write_bytes(raw_lines({"format": "momiji-log", "format_version": 1, "created": "2026-01-02T03:04:05+00:00",
                               **make_header(GAME_A)}))
    with pytest.raises(GameExists, match=GAME_A):
        import_game(isolated_dirs, src)
    assert path.read_bytes() == before


def test_import_checks_the_file_first(isolated_dirs, tmp_path):
    src = tmp_path / "bad.jsonl"
    src.write_bytes(raw_lines({"format": "momiji-log", "format_version": 1, "created": "2026-01-02T03:04:05+00:00",
                               **make_header("../../escape")}))
    with pytest.raises(DamagedLog, match="no valid game id"):
        import_game(isolated_dirs, src)
    with pytest.raises(DamagedLog, match="rules reject"):
        import_game(isolated_dirs, Path(__file__).parent / "fixtures" / "v1-game.jsonl",
                    validate=lambda h, e: 1 / 0)
    assert list(tmp_path.rglob("*.jsonl")) == [src]


def test_import_drops_a_torn_tail(isolated_dirs, tmp_path):
    src = write_log(tmp_path / "friend", GAME_B, make_events(2))
    with src.open("ab") as f:
        f.write(b'{"type":"Car')
    assert import_game(isolated_dirs, src) == GAME_B
    loaded = load(isolated_dirs / "games" / f"{GAME_B}.jsonl")
    assert loaded.events == make_events(2) and loaded.warnings == []
