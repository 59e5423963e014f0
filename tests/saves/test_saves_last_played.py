""""Last played" across the games of a library (``store/play_order.py``):
Continue, the saved games and ``momiji list`` follow the order the games
were played in where the clock disagrees, and a time in the future is shown
as now. The clock is the store's (``store.log.utc_now``), injected."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from saves_helpers import play, saved_game

import momiji_tui.store.log as log_module
from momiji_tui import cli
from momiji_tui.session.saves import describe_saved_games, latest_unfinished_game
from momiji_tui.session.table import Table
from momiji_tui.store import GameLog, list_games, load

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


def _clock(monkeypatch, moment: datetime) -> None:
    monkeypatch.setattr(log_module, "utc_now", lambda: moment)


def _listed(data_dir) -> list[str]:
    return [row.game_id for row in describe_saved_games(data_dir)]


def test_a_game_played_with_the_clock_set_back_a_day_is_continued_and_listed_first(isolated_dirs, monkeypatch,
                                                                                     capsys):
    _clock(monkeypatch, NOW)
    older = saved_game(isolated_dirs, seed=1, commands=3).stem
    assert _listed(isolated_dirs) == [older]  # an index made before the clock is set back
    _clock(monkeypatch, NOW - timedelta(days=1))
    newer = saved_game(isolated_dirs, seed=2, commands=3).stem
    assert _listed(isolated_dirs) == [newer, older]
    assert [g.game_id for g in list_games(isolated_dirs)] == [newer, older]
    assert latest_unfinished_game(isolated_dirs).game_id == newer  # what Continue opens
    assert cli.main(["list"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line[:8].isdigit()]
    assert [line.split()[0] for line in rows] == [newer, older]


def test_a_game_saved_with_the_clock_a_year_fast_is_not_first_once_another_is_played(isolated_dirs,
                                                                                      monkeypatch):
    _clock(monkeypatch, NOW + timedelta(days=365))  # the clock a year fast for this game
    fast = saved_game(isolated_dirs, seed=1, commands=3).stem
    _clock(monkeypatch, NOW)
    assert _listed(isolated_dirs) == [fast]
    (row,) = describe_saved_games(isolated_dirs)
    assert row.played == f"{NOW:%Y-%m-%d %H:%M}"  # a time in the future is shown as now
    _clock(monkeypatch, NOW + timedelta(minutes=5))
    later = saved_game(isolated_dirs, seed=2, commands=3).stem
    _clock(monkeypatch, NOW + timedelta(minutes=7))
    assert _listed(isolated_dirs) == [later, fast]
    assert [g.game_id for g in list_games(isolated_dirs)] == [later, fast]
    assert latest_unfinished_game(isolated_dirs).game_id == later
    # Resumed and played again, the fast game is first again: by the order of play.
    _clock(monkeypatch, NOW + timedelta(minutes=9))
    table = play(Table.resume(isolated_dirs / "games" / f"{fast}.jsonl"), commands=1, seed=3)
    table.close()
    assert _listed(isolated_dirs) == [fast, later]


def _as_format_5(path) -> None:
    """Rewrite a save as a momiji of format 5 wrote it: no play-order stamps."""
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    lines[0]["format_version"] = 5
    for event in lines[1:]:
        event.pop("play_order", None)
    path.write_text("".join(json.dumps(obj, separators=(",", ":")) + "\n" for obj in lines))


def test_old_unstamped_saves_resume_and_list_after_stamped_ones_by_time(isolated_dirs, monkeypatch):
    _clock(monkeypatch, NOW - timedelta(hours=3))
    old_early = saved_game(isolated_dirs, seed=1, commands=3)
    _clock(monkeypatch, NOW - timedelta(hours=2))
    old_late = saved_game(isolated_dirs, seed=2, commands=3)
    for path in (old_early, old_late):
        _as_format_5(path)
        assert load(path).play_order is None
    _clock(monkeypatch, NOW - timedelta(days=2))  # a stamped game, played with the clock set back
    stamped = saved_game(isolated_dirs, seed=3, commands=3).stem
    _clock(monkeypatch, NOW)
    assert _listed(isolated_dirs) == [stamped, old_late.stem, old_early.stem]
    # The old game resumes where it stopped; its next move is stamped and puts it first.
    table = Table.resume(old_early)
    before = len(table.events)
    play(table, commands=1, seed=4)
    table.close()
    loaded = load(old_early)
    assert len(loaded.events) > before and loaded.play_order is not None
    assert old_early.with_name(old_early.name + ".v5-backup").is_file()  # the original kept
    assert _listed(isolated_dirs) == [old_early.stem, stamped, old_late.stem]


def test_two_apps_at_once_may_share_a_play_order_then_time_decides(isolated_dirs, monkeypatch):
    _clock(monkeypatch, NOW)
    first = saved_game(isolated_dirs, seed=1, commands=3)
    second = saved_game(isolated_dirs, seed=2, commands=3)
    one = GameLog.open_for_append(first)
    two = GameLog.open_for_append(second, holder="another momiji")
    # the clock past both moves: a move dated in the future would count as now, and then the ids decide
    _clock(monkeypatch, NOW + timedelta(minutes=10))
    one.extend([{"type": "Probe"}], now=NOW + timedelta(minutes=2))
    two.extend([{"type": "Probe"}], now=NOW + timedelta(minutes=1))
    one.close()
    two.close()
    games = list_games(isolated_dirs)  # the store's own list: no rules check of the probe
    assert games[0].play_order == games[1].play_order
    assert [g.game_id for g in games] == [first.stem, second.stem]
