"""``momiji tournament --report`` fed what a shell can hand it: a header
with fields missing, lines of another tournament, records that do not fit,
a torn last line (docs/BALANCE.md: long runs kept as they go). Bad input is
one usage line (exit 2), never a traceback and never a wrong table."""

from __future__ import annotations

import io
import json

import pytest

from momiji_tui.bots.tournament_cli import main_tournament

ARGS = ["--bots", "easy,easy:", "--seats", "2", "--seed", "3", "--mode", "starter"]


@pytest.fixture(scope="module")
def stream() -> list[str]:
    """The --stream lines of a 4-game tournament (header first), played once."""
    out = io.StringIO()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("sys.stdout", out)
        assert main_tournament([*ARGS, "--games", "4", "--stream"]) == 0
    return out.getvalue().splitlines(keepends=True)


def _report(monkeypatch, capsys, text: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    try:
        code = main_tournament(["--report"])
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def _game(line: str, **change: object) -> str:
    d = json.loads(line)
    d["game"].update(change)
    return json.dumps(d) + "\n"


def _header(line: str, **change: object) -> str:
    d = json.loads(line)
    d["header"].update(change)
    for k in [k for k, v in change.items() if v is None]:
        del d["header"][k]
    return json.dumps(d) + "\n"


@pytest.mark.parametrize("header", [
    {"bots": None}, {"seats": None, "seed": None}, {"seats": "two"}, {"bots": []}, {"format": "something-else"},
])
def test_a_header_missing_or_garbling_its_fields_is_one_usage_line(stream, monkeypatch, capsys, header):
    code, out, err = _report(monkeypatch, capsys, _header(stream[0], **header) + "".join(stream[1:]))
    assert code == 2 and out == ""
    assert "--report: line 1: not the header of momiji tournament --stream" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(("change", "why"), [
    ({"scores": [40]}, "2 seats"),                                   # a seat missing: was ValueError from max()
    ({"lineup": ["hard", "easy"]}, "line-up"),                       # another tournament's bots
    ({"deal_seed": 99}, "deal"),                                     # another tournament's seed
    ({"game": "x"}, "game number"),
])
def test_a_record_that_is_not_one_of_the_headers_games_is_refused_by_its_line(stream, monkeypatch, capsys,
                                                                              change, why):
    text = stream[0] + stream[1] + _game(stream[2], **change) + "".join(stream[3:])
    code, out, err = _report(monkeypatch, capsys, text)
    assert code == 2 and out == ""
    assert "--report: line 3: not a game of this tournament" in err and why in err
    assert "Traceback" not in err


def test_a_torn_last_line_is_left_out_and_said_the_rest_reported(stream, monkeypatch, capsys):
    code, whole, _ = _report(monkeypatch, capsys, "".join(stream[:4]))
    assert code == 0 and "3 games" in whole
    code, out, err = _report(monkeypatch, capsys, "".join(stream[:4]) + stream[4][:40])  # killed mid-write
    assert code == 0
    assert out.splitlines()[1:] == whole.splitlines()[1:]  # the first line holds the wall time
    assert "--report: line 5: skipped a game line cut short (a run stopped while writing it)" in err


# A run cut short mid-line, then continued on the same line (found by a new user's trial).
TRIAL_ARGS = ["--bots", "easy,easy:", "--seats", "2", "--seed", "3"]


def _trial_stream(capsys: pytest.CaptureFixture[str], first: int, games: int) -> str:
    assert main_tournament([*TRIAL_ARGS, "--games", str(games), "--first-game", str(first), "--stream"]) == 0
    return capsys.readouterr().out


def test_report_skips_a_game_line_cut_short_and_reads_the_part_appended_after_it(capsys, monkeypatch):
    first = _trial_stream(capsys, 0, 3)
    second = _trial_stream(capsys, 2, 2)  # games 2 and 3: game 2 played again after the cut
    lines = first.splitlines(keepends=True)
    cut = lines[3][:120]  # game 2's line, cut mid-write, no newline
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(lines[:3]) + cut + second))
    assert main_tournament(["--report"]) == 0
    out = capsys.readouterr()
    assert "4 games on 2 deals" in out.out
    assert "line 4: skipped a game line cut short" in out.err


def test_report_skips_a_cut_last_line(capsys, monkeypatch):
    lines = _trial_stream(capsys, 0, 3).splitlines(keepends=True)
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(lines[:3]) + lines[3][:50]))
    assert main_tournament(["--report"]) == 0
    out = capsys.readouterr()
    assert "2 games on 1 deal" in out.out
    assert "line 4: skipped a game line cut short" in out.err


def test_report_still_refuses_what_is_not_a_stream(capsys, monkeypatch):
    header = _trial_stream(capsys, 0, 1).splitlines()[0]
    monkeypatch.setattr("sys.stdin", io.StringIO(header + '\n{"game": 5}\n'))
    with pytest.raises(SystemExit):
        main_tournament(["--report"])
    err = capsys.readouterr().err
    assert "line 2: not a tournament line" in err
    assert "subscriptable" not in err  # Python's words, not the player's


def test_report_does_not_claim_a_wall_time_the_stream_never_recorded(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(_trial_stream(capsys, 0, 2)))
    assert main_tournament(["--report"]) == 0
    out = capsys.readouterr().out
    assert "wall time 0 s" not in out
    assert "wall time not recorded (--report)" in out
