"""The paired comparison of two tournament streams (bench/paired.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.paired import load, main, mean_and_half_width


def _stream(path: Path, games: list[tuple[int, tuple[str, str], tuple[int, int]]]) -> str:
    lines = [json.dumps({"header": {"format": "momiji-tournament-records"}})]
    for g, lineup, scores in games:
        share = [1.0 if s == max(scores) else 0.0 for s in scores]
        lines.append(json.dumps({"game": {"game": g, "lineup": list(lineup), "scores": list(scores),
                                          "win_share": share}}))
    path.write_text("\n".join(lines) + "\n{\"game\": {\"ga", encoding="utf-8")  # a run stopped mid-line
    return str(path)


def test_games_are_matched_by_number_and_the_bot_found_in_either_seat(tmp_path):
    old = _stream(tmp_path / "old.jsonl", [(0, ("hard", "normal"), (50, 40)), (1, ("normal", "hard"), (45, 40)),
                                           (2, ("hard", "normal"), (30, 31))])
    new = _stream(tmp_path / "new.jsonl", [(1, ("normal", "hard:leaf=learned"), (40, 48)),
                                           (0, ("hard:leaf=learned", "normal"), (50, 44))])
    assert load(old, "hard") == {0: (1.0, 10), 1: (0.0, -5), 2: (0.0, -1)}
    assert load(new, "hard") == {1: (1.0, 8), 0: (1.0, 6)}


def test_the_paired_difference_is_new_minus_old_on_the_common_games(tmp_path, capsys):
    old = _stream(tmp_path / "old.jsonl", [(0, ("hard", "normal"), (50, 40)), (1, ("normal", "hard"), (45, 40))])
    new = _stream(tmp_path / "new.jsonl", [(0, ("hard", "normal"), (50, 44)), (1, ("normal", "hard"), (40, 48)),
                                           (7, ("hard", "normal"), (1, 90))])
    assert main([old, new]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("old: 2 games, wins 50.0%")
    assert out[2].startswith("new − old: wins +50.0 ± 98.0 points, margin +4.50 ± 16.66")


def test_streams_without_a_common_game_say_so(tmp_path, capsys):
    old = _stream(tmp_path / "old.jsonl", [(0, ("hard", "normal"), (50, 40))])
    new = _stream(tmp_path / "new.jsonl", [(1, ("normal", "hard"), (40, 48))])
    assert main([old, new]) == 1
    assert "no game is in both streams" in capsys.readouterr().out


def test_one_value_has_no_spread():
    assert mean_and_half_width([3.0]) == (3.0, 0.0)
    assert mean_and_half_width([1.0, 3.0]) == pytest.approx((2.0, 1.96 * 1.0))
