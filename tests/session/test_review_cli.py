"""``momiji replay ID --review``: the review printed, a text
progress, Ctrl-C cancels with a clean message and exit 130, nothing cached."""

from __future__ import annotations

import pytest
from review_helpers import FakeAdvisor, saved_finished_game

from momiji_tui import cli
from momiji_tui.session import review
from momiji_tui.session.table import BOT, HUMAN, SeatConfig, Table
from momiji_tui.store.review_cache import review_cache_path


@pytest.fixture
def advisor(monkeypatch) -> FakeAdvisor:
    stand_in = FakeAdvisor()
    monkeypatch.setattr(review, "advise", stand_in)
    return stand_in


def test_replay_review_prints_the_turns_and_caches_them(isolated_dirs, advisor, capsys):
    save = saved_finished_game(isolated_dirs)
    game_id = save.name.removesuffix(".jsonl")
    assert cli.main(["replay", game_id, "--review"]) == 0
    out, err = capsys.readouterr()
    assert "Costliest turns" in out and "Turn 1:" in out and "Win chance by turn: " in out
    assert "Reviewing with the Hard bot: 0 of" in err and "decisions" in err
    assert review_cache_path(save).exists()
    calls = len(advisor.calls)
    assert cli.main(["replay", game_id, "--review"]) == 0
    assert len(advisor.calls) == calls  # the second look is read from the cache
    again = capsys.readouterr()
    assert again.out == out and again.err == f"Note: {cli.FROM_CACHE}\n"


def test_ctrl_c_cancels_the_review_cleanly(isolated_dirs, monkeypatch, capsys):
    save = saved_finished_game(isolated_dirs)
    inner = FakeAdvisor()

    def interrupted(view, **kwargs):
        if len(inner.calls) == 3:
            raise KeyboardInterrupt
        return inner(view, **kwargs)

    monkeypatch.setattr(review, "advise", interrupted)
    assert cli.main(["replay", save.name.removesuffix(".jsonl"), "--review"]) == 130
    err = capsys.readouterr().err
    assert err.rstrip().endswith(cli.REVIEW_CANCELLED) and "Traceback" not in err
    assert not review_cache_path(save).exists()
    assert [p.name for p in save.parent.iterdir() if p.name.endswith(".tmp")] == []


def test_unfinished_game_review_is_refused_in_words(isolated_dirs, advisor, capsys):
    table = Table.new([SeatConfig("You", HUMAN), SeatConfig("Kaede", BOT, "easy")], seed=3, data_dir=isolated_dirs)
    table.close()
    assert cli.main(["replay", table.game_id, "--review"]) == 1
    err = capsys.readouterr().err
    assert "No review: Only a finished game can be reviewed; this one is still in progress." in err
    assert advisor.calls == []
