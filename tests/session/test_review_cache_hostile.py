"""The review cache is a hint, never the truth (ARCHITECTURE "Saves"): a
cache edited to hold a card no deck has, leaf types as numbers, moves the
seat never made, escape sequences, or a FIFO in its place is recomputed,
never shown and never waited on."""

from __future__ import annotations

import json
import os

import pytest
from review_helpers import FakeAdvisor, saved_finished_game

from momiji_tui.safe_text import UNSAFE
from momiji_tui.session.review_saved import review_saved_game
from momiji_tui.store.review_cache import review_cache_path


def _edit(path, change) -> None:
    data = json.loads(path.read_text())
    change(data["review"])
    path.write_text(json.dumps(data))


def _card_plus_900(review):
    played = next(d["command"] for d in review["decisions"] if d["command"].get("cards"))
    review["decisions"][0]["best"] = {**played, "cards": [c + 900 for c in played["cards"]]}


def _leaf_types_as_numbers(review):
    review["decisions"][0]["best"] = {"kind": "Collect", "seat": review["seat"], "leaf_type": 7}


def _passed_every_move(review):
    for d in review["decisions"]:
        d["command"] = {"kind": "Pass", "seat": review["seat"]}


def _escape_in_the_name(review):
    review["seat_name"] = "\x1b]2;PWNED\x07\x1b[2J"


def _best_is_a_move_never_legal(review):
    review["decisions"][0]["best"] = {"kind": "Collect", "seat": review["seat"], "leaf_type": "\x1b[2J"}


@pytest.mark.parametrize("edit", [_card_plus_900, _leaf_types_as_numbers, _passed_every_move,
                                  _escape_in_the_name, _best_is_a_move_never_legal])
def test_an_edited_cache_is_recomputed_not_shown(isolated_dirs, edit):
    save = saved_finished_game(isolated_dirs)
    first = review_saved_game(save, iterations=3, advisor=FakeAdvisor())
    _edit(review_cache_path(save), edit)
    calls = FakeAdvisor()
    again = review_saved_game(save, iterations=3, advisor=calls)
    assert calls.calls and not again.from_cache and again.review == first.review and again.cache_ignored


def test_the_cache_as_written_is_still_read(isolated_dirs):
    save = saved_finished_game(isolated_dirs)
    review_saved_game(save, iterations=3, advisor=FakeAdvisor())
    calls = FakeAdvisor()
    assert review_saved_game(save, iterations=3, advisor=calls).from_cache and not calls.calls


def test_a_fifo_in_place_of_the_cache_is_never_waited_on(isolated_dirs):
    save = saved_finished_game(isolated_dirs)
    os.mkfifo(review_cache_path(save))  # a reader that followed it would block for ever
    calls = FakeAdvisor()
    outcome = review_saved_game(save, iterations=3, advisor=calls)
    assert calls.calls and not outcome.from_cache and outcome.cache_ignored


def test_a_link_to_a_device_in_place_of_the_cache_is_not_read(isolated_dirs):
    save = saved_finished_game(isolated_dirs)
    review_cache_path(save).symlink_to("/dev/zero")
    calls = FakeAdvisor()
    assert not review_saved_game(save, iterations=3, advisor=calls).from_cache and calls.calls


def test_escape_sequences_in_a_cache_never_reach_stdout(isolated_dirs, capsys):
    save = saved_finished_game(isolated_dirs)
    review_saved_game(save, iterations=3, advisor=FakeAdvisor())
    path = review_cache_path(save)
    path.write_text(path.read_text().replace('"seat_name":"You"', '"seat_name":"You\\u001b]2;PWNED\\u0007"'))
    assert "PWNED" in path.read_text()
    # what momiji replay ID --review prints: from the cache only if it holds up, always through SafeStream
    outcome = review_saved_game(save, iterations=3, advisor=FakeAdvisor())
    assert not outcome.from_cache and "PWNED" not in outcome.review.seat_name
    with cli_streams():
        print("a name read from a cache: You\x1b]2;PWNED\x07\x9b2J")
    out = capsys.readouterr()
    assert not [c for c in UNSAFE.findall(out.out) if c != "\n"]


def cli_streams():
    """The streams every ``momiji`` command prints through."""
    import contextlib
    import sys

    from momiji_tui.safe_text import guard_std_streams

    @contextlib.contextmanager
    def guarded():
        before = guard_std_streams()
        try:
            yield
        finally:
            sys.stdout, sys.stderr = before
    return guarded()
