""""Last played" follows the events' own order where the clock disagrees
(ARCHITECTURE "Saves"): a later move is never older than an earlier one of
the same game, and a time in the future (a clock set fast) counts as now."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta

from store_helpers import GAME_A, GAME_B, make_events, make_header, raw_lines

import momiji_tui.store.log as log_module
from momiji_tui.store import GameLog, list_games, load

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


def _clock(monkeypatch, moment):
    monkeypatch.setattr(log_module, "utc_now", lambda: moment)


def test_a_clock_set_a_year_fast_keeps_no_game_first_for_a_year(isolated_dirs, monkeypatch):
    _clock(monkeypatch, NOW - timedelta(hours=2))
    with GameLog.create(isolated_dirs, make_header(GAME_A)) as fast:
        fast.extend(make_events(1), now=NOW + timedelta(days=365))  # the clock a year fast
    _clock(monkeypatch, NOW - timedelta(hours=1))
    with GameLog.create(isolated_dirs, make_header(GAME_B)) as later:
        later.extend(make_events(1), now=NOW + timedelta(minutes=1))  # played after, at the right time
    _clock(monkeypatch, NOW + timedelta(minutes=5))
    games = list_games(isolated_dirs)
    assert games[0].last_played <= NOW + timedelta(minutes=5)
    assert {g.game_id: g.last_played for g in games}[GAME_A] == NOW + timedelta(minutes=5)  # future: now


def test_a_clock_set_back_never_makes_a_later_move_older(isolated_dirs, monkeypatch):
    _clock(monkeypatch, NOW)
    with GameLog.create(isolated_dirs, make_header(GAME_A)) as log:
        log.extend(make_events(1), now=NOW)
        log.extend(make_events(1), now=NOW - timedelta(days=1))  # the clock set back a day
    loaded = load(log.path)
    assert loaded.last_played == NOW


def test_an_old_file_dated_backwards_is_read_by_its_latest_move(isolated_dirs, monkeypatch):
    _clock(monkeypatch, NOW - timedelta(days=3))
    with GameLog.create(isolated_dirs, make_header(GAME_A)) as log:
        log.extend(make_events(1), now=NOW)
    path = log.path
    _clock(monkeypatch, NOW + timedelta(days=2))
    data = path.read_bytes() + (b'{"type":"CardsPlayed","seat":1,"cards":[3],"saved_at":"'
                                + (NOW - timedelta(days=1)).isoformat(timespec="milliseconds").encode() + b'"}\n')
    path.write_bytes(data)  # written by a momiji that trusted a clock set back
    assert load(path).last_played == NOW


def test_the_next_play_order_is_read_from_the_files_and_never_from_what_is_not_a_stamp(isolated_dirs):
    from momiji_tui.store.play_order import next_play_order

    folder = isolated_dirs / "games"
    assert next_play_order(folder) == 1  # no folder yet
    with GameLog.create(isolated_dirs, make_header(GAME_A), events=make_events(1)) as log:
        log.extend(make_events(2))
    assert load(log.path).play_order == 2 and next_play_order(folder) == 3
    late = b'{"type":"CardsPlayed","seat":1,"cards":[3],"play_order":%s}\n'
    for name, tail in [("torn", b'{"type":"GameEnded","play_order":999'),  # no "\n": cut off, not saved
                       ("bool", late % b"true"), ("text", late % b'"99"'), ("huge", late % b"9007199254740993"),
                       ("broken", b'{"play_order":77,\n')]:
        (folder / f"{name}.jsonl").write_bytes(raw_lines({"format": "momiji-log"}) + tail)
    os.mkfifo(folder / "fifo.jsonl")  # never read: it would never end
    assert next_play_order(folder) == 3
    with GameLog.open_for_append(log.path) as again:  # the game's own next move
        again.extend(make_events(1))
    assert load(log.path).play_order == 3
