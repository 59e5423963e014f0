"""``momiji tournament --report`` on the lines a real long run leaves behind
(README: ``--stream`` keeps a run as it goes, ``>> FILE``; docs/BALANCE.md).

A run stopped while it writes a game line (killed, the machine lost power)
leaves that line cut short, without its newline; the next part appended to
the same file (``--first-game K … >> FILE``) then starts on that same line.
The report must still count every whole game and say what it skipped,
never refuse the whole file (bad input never loses data)."""

from __future__ import annotations

import io

import pytest

from momiji_tui.bots.tournament_cli import main_tournament

ARGS = ["--bots", "easy,easy:", "--seats", "2", "--seed", "3"]


def _stream(capsys: pytest.CaptureFixture[str], first: int, games: int) -> str:
    assert main_tournament([*ARGS, "--games", str(games), "--first-game", str(first), "--stream"]) == 0
    return capsys.readouterr().out


def test_report_skips_a_game_line_cut_short_and_reads_the_part_appended_after_it(capsys, monkeypatch):
    first = _stream(capsys, 0, 3)
    second = _stream(capsys, 2, 2)  # games 2 and 3: game 2 played again after the cut
    lines = first.splitlines(keepends=True)
    cut = lines[3][:120]  # game 2's line, cut mid-write, no newline
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(lines[:3]) + cut + second))
    assert main_tournament(["--report"]) == 0
    out = capsys.readouterr()
    assert "4 games on 2 deals" in out.out
    assert "line 4: skipped a game line cut short" in out.err


def test_report_skips_a_cut_last_line(capsys, monkeypatch):
    lines = _stream(capsys, 0, 3).splitlines(keepends=True)
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(lines[:3]) + lines[3][:50]))
    assert main_tournament(["--report"]) == 0
    out = capsys.readouterr()
    assert "2 games on 1 deal" in out.out
    assert "line 4: skipped a game line cut short" in out.err


def test_report_still_refuses_what_is_not_a_stream(capsys, monkeypatch):
    header = _stream(capsys, 0, 1).splitlines()[0]
    monkeypatch.setattr("sys.stdin", io.StringIO(header + '\n{"game": 5}\n'))
    with pytest.raises(SystemExit):
        main_tournament(["--report"])
    err = capsys.readouterr().err
    assert "line 2: not a tournament line" in err
    assert "subscriptable" not in err  # Python's words, not the player's


def test_report_does_not_claim_a_wall_time_the_stream_never_recorded(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(_stream(capsys, 0, 2)))
    assert main_tournament(["--report"]) == 0
    out = capsys.readouterr().out
    assert "wall time 0 s" not in out
    assert "wall time not recorded (--report)" in out
