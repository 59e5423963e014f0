"""The printing commands in a pipe: a reader that goes away early
(``momiji list | head -1``) ends the command quietly with the shell's
status for SIGPIPE (141), never a traceback; a reader that stays gets it all.

The reader is gone before the command writes (the pipe's read end is closed
first), so every run meets the closed pipe: no timing involved.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from review_helpers import FakeAdvisor, saved_finished_game

from momiji_tui import cli
from momiji_tui.session import review
from momiji_tui.session.table import BOT, HUMAN, SeatConfig, Table

MOMIJI = [sys.executable, "-m", "momiji_tui.cli"]


def into_closed_pipe(argv: list[str]) -> subprocess.CompletedProcess[str]:
    """Run ``momiji argv`` with stdout a pipe whose reader has already gone."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run([*MOMIJI, *argv], stdin=subprocess.DEVNULL, stdout=write_end,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(write_end)


def assert_quiet_end(result: subprocess.CompletedProcess[str]) -> None:
    assert result.returncode == cli.BROKEN_PIPE_STATUS, result.stderr
    assert "Traceback" not in result.stderr and "BrokenPipe" not in result.stderr, result.stderr
    assert "Exception ignored" not in result.stderr, result.stderr


@pytest.fixture
def finished_game(isolated_dirs, monkeypatch) -> str:
    """A finished game whose review is already kept beside it (so the
    subprocess reads it rather than running the Hard bot)."""
    save = saved_finished_game(isolated_dirs)
    game_id = save.name.removesuffix(".jsonl")
    monkeypatch.setattr(review, "advise", FakeAdvisor())
    assert cli.main(["replay", game_id, "--review"]) == 0
    return game_id


def test_list_and_review_into_a_closed_pipe_end_quietly(finished_game, isolated_dirs):
    for _ in range(3):  # more games than one pipe write
        Table.new([SeatConfig("Ada", HUMAN), SeatConfig("Bo", BOT, "easy")], seed=1, data_dir=isolated_dirs).close()
    assert_quiet_end(into_closed_pipe(["list"]))
    review_run = into_closed_pipe(["replay", finished_game, "--review"])
    assert_quiet_end(review_run)
    assert cli.FROM_CACHE not in review_run.stderr  # it ended at the first line written


def test_export_simulate_tournament_into_a_closed_pipe_end_quietly(finished_game, tmp_path):
    assert_quiet_end(into_closed_pipe(["export", finished_game, str(tmp_path / "copy.jsonl")]))
    assert (tmp_path / "copy.jsonl").exists()  # the work was done; only the report was lost
    assert_quiet_end(into_closed_pipe(["simulate", "--games", "1", "--bots", "easy", "--seed", "2"]))
    assert_quiet_end(into_closed_pipe(["tournament", "--bots", "easy,easy:", "--games", "2", "--seats", "2",
                                       "--seed", "0", "--mode", "starter", "--jobs", "1"]))


def test_a_reader_that_stays_gets_everything(finished_game):
    listed = subprocess.run([*MOMIJI, "list"], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                            timeout=120)
    assert listed.returncode == 0 and finished_game in listed.stdout and listed.stderr == ""
    reviewed = subprocess.run([*MOMIJI, "replay", finished_game, "--review"], stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=120)
    assert reviewed.returncode == 0 and "Costliest turns" in reviewed.stdout
