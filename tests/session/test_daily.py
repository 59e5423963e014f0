"""The daily deal (session/daily.py, store/daily.py): one deal a UTC day for
everyone, committed to by its seed's SHA-256 before play, the seed shown the
next day; the same bots with the same seeds; one try a day; boards ranked by
score. The clock is handed in: no test waits for a day to pass."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from momiji_tui import cli, cli_daily, engine
from momiji_tui.session import daily
from momiji_tui.session.daily import DailyPlay, rank_board
from momiji_tui.session.deal_seed import seed_sha256
from momiji_tui.session.table import Table
from momiji_tui.session.verify import VERIFIED, verify_game
from momiji_tui.store import load, new_game_id
from momiji_tui.store import log as store_log
from momiji_tui.store.daily import FileDailyStore

NOON = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)
SECRET = bytes(range(32))


def make_in(data_dir):
    def make(seats, seed, game_id, day):
        table = daily.DailyTable.new(seats, seed=seed, data_dir=data_dir, game_id=game_id, daily=day)
        table.close()
        return table
    return make


def play_out(table: Table, limit: int | None = None) -> list[dict]:
    """The player always takes their first legal command; the bots answer.
    Returns the saved events without the game id (which differs per game)."""
    steps = 0
    while not table.finished and (limit is None or steps < limit):
        seat = table.current
        table.submit(table.bot_command(seat) if table.seats[seat].is_bot else table.legal(seat)[0])
        steps += 1
    return [{k: v for k, v in engine.to_dict(e).items() if k != "game_id"} for e in table.events]


def test_a_day_is_a_utc_calendar_day_and_a_week_runs_monday_to_sunday():
    new_york = timezone(timedelta(hours=-5))
    assert daily.day_of(datetime(2026, 12, 3, 20, 0, tzinfo=new_york)) == date(2026, 12, 4)  # 01:00 UTC
    assert daily.day_of(datetime(2026, 12, 3, 23, 59, 59, tzinfo=UTC)) == date(2026, 12, 3)
    assert daily.week_of(date(2026, 12, 3)) == (date(2026, 11, 30), date(2026, 12, 6))  # a Thursday


def test_rules_2_2_the_days_seed_comes_from_the_date_and_the_secret_only():
    seed = daily.daily_seed(SECRET, date(2026, 12, 3))
    assert seed == daily.daily_seed(SECRET, date(2026, 12, 3)) and 0 <= seed < 2**128
    assert seed != daily.daily_seed(SECRET, date(2026, 12, 4))
    assert seed != daily.daily_seed(bytes(32), date(2026, 12, 3))
    assert daily.revealed_seed(SECRET, date(2026, 12, 3), today=date(2026, 12, 3)) is None
    assert daily.revealed_seed(SECRET, date(2026, 12, 3), today=date(2026, 12, 4)) == seed
    assert daily.todays_offer(SECRET, NOON).seed_sha256 == seed_sha256(seed)
    with pytest.raises(ValueError):
        daily.daily_seed(b"", date(2026, 12, 3))


def test_two_accounts_get_the_same_deal_and_the_same_bot_moves_for_the_same_moves(tmp_path):
    store = FileDailyStore(tmp_path)
    alice = daily.start_daily(store, "alice", "alice", NOON, make_in(tmp_path / "a"), new_game_id)
    bob = daily.start_daily(store, "bob", "bob", NOON, make_in(tmp_path / "b"), new_game_id)
    assert isinstance(alice, Table) and isinstance(bob, Table) and alice.game_id != bob.game_id
    assert [s for s in alice.seats] == [s for s in bob.seats] == list(daily.DAILY_SEATS)
    a_events, b_events = play_out(Table.resume(alice.save_file)), play_out(Table.resume(bob.save_file))
    assert a_events == b_events and a_events[-1]["type"] == "GameEnded"
    # Another day is another deal.
    carol = daily.start_daily(store, "carol", "carol", NOON + timedelta(days=1), make_in(tmp_path / "c"),
                              new_game_id)
    assert isinstance(carol, Table) and play_out(carol, 0)[0]["deck"] != a_events[0]["deck"]


def test_rules_2_2_the_daily_commitment_is_shown_before_play_and_verifies(tmp_path):
    store = FileDailyStore(tmp_path)
    offer = daily.todays_offer(store.secret(), NOON)
    table = daily.start_daily(store, "alice", "alice", NOON, make_in(tmp_path), new_game_id)
    assert isinstance(table, Table) and table.seed_sha256 == offer.seed_sha256
    loaded = load(table.save_file)
    assert loaded.header["seed_sha256"] == offer.seed_sha256
    verdict = verify_game(loaded.header, loaded.events)
    assert verdict.status == VERIFIED, verdict.lines
    # The next day, the revealed seed is the game's.
    assert daily.revealed_seed(store.secret(), offer.day, offer.day + timedelta(days=1)) == loaded.header["seed"]


def test_a_second_try_the_same_utc_day_is_refused_and_the_next_day_is_open(tmp_path):
    store = FileDailyStore(tmp_path)
    first = daily.start_daily(store, "alice", "alice", NOON, make_in(tmp_path), new_game_id)
    assert isinstance(first, Table)
    again = daily.start_daily(store, "alice", "alice", NOON.replace(hour=23, minute=59), make_in(tmp_path),
                              new_game_id)
    assert again == ("You have already played the daily deal of 2026-12-03 (UTC); "
                     "the next one starts at 00:00 UTC.")
    assert isinstance(daily.start_daily(store, "alice", "alice", NOON + timedelta(hours=12), make_in(tmp_path),
                                        new_game_id), Table)


def test_a_claim_whose_game_cannot_be_saved_is_given_back(tmp_path):
    store = FileDailyStore(tmp_path)

    def disk_full(seats, seed, game_id, day):
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError):
        daily.start_daily(store, "alice", "alice", NOON, disk_full, new_game_id)
    assert store.plays(NOON.date(), NOON.date()) == []
    assert isinstance(daily.start_daily(store, "alice", "alice", NOON, make_in(tmp_path), new_game_id), Table)


def test_the_boards_order_by_score_and_equal_scores_share_a_rank():
    rows = rank_board([("a", "ann", 40, 1), ("b", "bo", 55, 1), ("c", "cy", 40, 1), ("d", "di", 12, 1)])
    assert [(r.rank, r.name, r.score) for r in rows] == [(1, "bo", 55), (2, "ann", 40), (2, "cy", 40), (4, "di", 12)]
    day = date(2026, 12, 3)
    plays = [DailyPlay(day, "a", "ann", "g1", 40), DailyPlay(day, "b", "bo", "g2", None),  # bo still playing
             DailyPlay(day - timedelta(days=1), "b", "bo", "g3", 70), DailyPlay(day, "c", "cy", "g4", 50),
             DailyPlay(day - timedelta(days=7), "a", "ann", "g5", 99)]  # last week
    assert [(r.rank, r.name, r.score) for r in daily.day_board(plays, day)] == [(1, "cy", 50), (2, "ann", 40)]
    week = daily.week_board(plays, day)
    assert [(r.rank, r.name, r.score, r.games) for r in week] == [(1, "bo", 70, 1), (2, "cy", 50, 1),
                                                                   (3, "ann", 40, 1)]


def test_the_board_settles_finished_games_and_marks_the_player(tmp_path):
    store = FileDailyStore(tmp_path)
    for account, moves in (("alice", None), ("bob", None), ("carl", 3)):
        table = daily.start_daily(store, account, account, NOON, make_in(tmp_path / account), new_game_id)
        assert isinstance(table, Table)
        play_out(Table.resume(table.save_file), moves)

    def final_score(play: DailyPlay):
        path = tmp_path / play.account_id / "games" / f"{play.game_id}.jsonl"
        return daily.final_score(load(path).events)

    lines = daily.board_text(store, NOON, final_score, me="alice")
    committed = daily.todays_offer(store.secret(), NOON).seed_sha256
    assert lines[0] == f"Daily deal of 2026-12-03 (a UTC day): seed SHA-256 {committed}."
    yesterday = daily.daily_seed(store.secret(), date(2026, 12, 2))
    assert lines[1] == f"Yesterday's seed (2026-12-02): {yesterday} (SHA-256 {seed_sha256(yesterday)})."
    today = lines[lines.index("Today (2026-12-03):") + 1:lines.index("This week (from Monday 2026-11-30):")]
    assert len(today) == 2 and any(line.startswith("*") and "alice" in line for line in today)  # carl plays on
    scores = {p.account_id: p.score for p in store.plays(NOON.date(), NOON.date())}
    assert scores["carl"] is None and isinstance(scores["alice"], int) and scores["alice"] == scores["bob"]


def test_a_full_disk_when_a_score_is_settled_still_shows_the_board(tmp_path, monkeypatch):
    import errno

    from momiji_tui.store import daily as store_daily

    store = FileDailyStore(tmp_path)
    table = daily.start_daily(store, "alice", "alice", NOON, make_in(tmp_path), new_game_id)
    assert isinstance(table, Table)
    play_out(Table.resume(table.save_file))
    score = daily.final_score(load(table.save_file).events)

    def full(path, data, *, replace=False):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(store_daily, "write_file", full)
    lines = daily.board_text(store, NOON, lambda play: score, me="alice")  # the score is only not kept
    assert any(line.startswith("*  1. alice") and line.endswith(f"{score:>4}") for line in lines)
    assert store.plays(NOON.date(), NOON.date())[0].score is None  # the record as it was: settled next time


def test_a_daily_deal_ended_after_its_seed_was_shown_is_not_ranked(tmp_path, monkeypatch):
    from momiji_tui.session.lobby import Lobby, Player
    from momiji_tui.ui.lobby import LobbyApp

    before, after = datetime(2026, 12, 3, 23, 59, 50, tzinfo=UTC), datetime(2026, 12, 4, 0, 0, 30, tzinfo=UTC)
    lobby = Lobby(tmp_path / "served", seat_wait=None)
    lobby.daily, lobby.daily_clock = FileDailyStore(lobby.data_dir), lambda: after
    players = {}
    for account, ends in (("key-early", before), ("key-late", after)):  # both begin at 23:59:50 UTC
        player = players[account] = Player(account, account[4:])
        monkeypatch.setattr(store_log, "utc_now", lambda: before)
        table = daily.start_daily(lobby.daily, account, account[4:], before, make_in(lobby.player_dir(player)),
                                  new_game_id)
        assert isinstance(table, Table)
        resumed = Table.resume(table.save_file)
        play_out(resumed, 3)
        monkeypatch.setattr(store_log, "utc_now", lambda ends=ends: ends)
        play_out(resumed)  # "late" ends at 00:00:30, when the board shows the deal's seed to everyone
        resumed.close()
    try:
        lines = LobbyApp(lobby, players["key-late"]).daily_board()
    finally:
        lobby.close()
    assert any(line.startswith("Yesterday's seed (2026-12-03): ") for line in lines)
    ranked = [line for line in lines if line[1:5].strip().endswith(".")]
    assert any(" early " in line for line in ranked) and not any(" late " in line for line in ranked)


def test_a_damaged_play_record_is_kept_aside_and_the_daily_deal_can_be_played(tmp_path):
    store = FileDailyStore(tmp_path)
    record = tmp_path / "daily" / "plays" / "2026-12-03" / "alice.json"
    record.parent.mkdir(parents=True)
    record.write_bytes(b"\x00\x00 damaged \xff")  # no game recorded: nothing on the board or in the history
    assert store.history("alice") == []
    table = daily.start_daily(store, "alice", "alice", NOON, make_in(tmp_path), new_game_id)
    assert isinstance(table, Table)  # not "You have already played the daily deal of 2026-12-03"
    [play] = store.plays(NOON.date(), NOON.date())
    assert play.game_id == table.game_id
    [kept] = [p for p in record.parent.iterdir() if ".damaged-" in p.name and not p.name.endswith(".txt")]
    assert kept.read_bytes() == b"\x00\x00 damaged \xff"


def test_momiji_daily_locally_refuses_a_second_try_and_prints_your_history(isolated_dirs, monkeypatch, capsys):
    monkeypatch.setattr(store_log, "utc_now", lambda: NOON)
    path = cli_daily.start_local(isolated_dirs)
    assert not isinstance(path, str) and path.parent == isolated_dirs / "games"
    assert cli_daily.start_local(isolated_dirs) == path  # unfinished: continued, not dealt again
    play_out(Table.resume(path))
    assert cli_daily.start_local(isolated_dirs).startswith("You have already played the daily deal of 2026-12-03")
    monkeypatch.setattr(store_log, "utc_now", lambda: NOON + timedelta(days=1))
    code = cli.main(["daily", "--board"])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    score = daily.final_score(load(path).events)
    assert f"  2026-12-03  {score:>7}  {path.stem}" in out.splitlines()
    header = load(path).header
    assert f"Yesterday's seed (2026-12-03): {header['seed']} (SHA-256 {header['seed_sha256']})." in out


def test_the_daily_secret_is_made_once_and_kept_private(tmp_path):
    store = FileDailyStore(tmp_path)
    secret = store.secret()
    assert len(secret) == 32 and FileDailyStore(tmp_path).secret() == secret
    assert (tmp_path / "daily" / "secret").stat().st_mode & 0o077 == 0


@pytest.mark.parametrize("junk", [b"not hex at all\n", b"", b"\xff\xfe\x00", b"ab" * 8 + b"\n"],
                         ids=["text", "empty", "bytes", "short"])
def test_a_damaged_daily_secret_is_kept_aside_and_the_daily_deal_goes_on(tmp_path, junk):
    (tmp_path / "daily").mkdir()
    (tmp_path / "daily" / "secret").write_bytes(junk)
    table = daily.start_daily(FileDailyStore(tmp_path), "alice", "alice", NOON, make_in(tmp_path), new_game_id)
    assert isinstance(table, Table)
    table.close()
    kept = [p for p in (tmp_path / "daily").iterdir() if ".damaged-" in p.name and not p.name.endswith(".txt")]
    assert len(kept) == 1 and kept[0].read_bytes() == junk
    assert len(FileDailyStore(tmp_path).secret()) == 32


def test_a_damaged_daily_secret_on_a_read_only_disk_is_reported_and_never_overwritten(tmp_path, monkeypatch):
    from pathlib import Path

    from momiji_tui.store.errors import WriteFailed

    monkeypatch.syspath_prepend(str(Path(__file__).parents[1] / "store"))
    from store_faults import inject

    (tmp_path / "daily").mkdir()
    (tmp_path / "daily" / "secret").write_bytes(b"junk\n")
    inject(monkeypatch, {"create", "link", "rename"}, "EROFS")
    with pytest.raises(WriteFailed, match="read-only"):
        FileDailyStore(tmp_path).secret()
    assert [p.name for p in (tmp_path / "daily").iterdir()] == ["secret"]
    assert (tmp_path / "daily" / "secret").read_bytes() == b"junk\n"



def test_rules_2_2_a_daily_games_score_sheet_keeps_the_seed_for_the_next_day(tmp_path):
    from momiji_tui.session.deal_seed import seed_reveal_line

    table = daily.start_daily(FileDailyStore(tmp_path), "alice", "alice", NOON, make_in(tmp_path), new_game_id)
    assert isinstance(table, Table)
    resumed = Table.resume(table.save_file)
    play_out(resumed)
    resumed.close()
    assert resumed.daily == "2026-12-03" and load(table.save_file).header["daily"] == "2026-12-03"
    line = seed_reveal_line(resumed.state.seed, resumed.finished, resumed.daily)
    assert str(resumed.state.seed) not in line and "from the next UTC day" in line
    assert str(resumed.state.seed) in seed_reveal_line(resumed.state.seed, True)  # any other game shows it


def test_a_full_disk_claims_nothing_and_says_so_in_one_line(isolated_dirs, monkeypatch, capsys):
    import errno

    from momiji_tui.store import daily as store_daily
    from momiji_tui.store.errors import WriteFailed

    store = FileDailyStore(isolated_dirs)
    store.secret()

    def full(path, data, *, replace=False):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(store_daily, "write_file", full)
    monkeypatch.setattr(store_log, "utc_now", lambda: NOON)
    with pytest.raises(WriteFailed):
        store.claim(DailyPlay(NOON.date(), "local", "You", new_game_id()))
    assert store.plays(NOON.date(), NOON.date()) == []
    code = cli_daily.cmd_daily(type("Args", (), {"board": False})(), isolated_dirs)
    err = capsys.readouterr().err
    assert code == 1 and err.startswith("The daily deal cannot be started: ") and err.count("\n") == 1
