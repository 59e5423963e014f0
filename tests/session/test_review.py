"""The post-game review: decisions read back from the log, fair
views (RULES §8), reproducible figures, the cache beside the save."""

from __future__ import annotations

import errno

import pytest
from review_helpers import FakeAdvisor, played_events, saved_finished_game

from momiji_tui import engine
from momiji_tui.bots.advice import Advice
from momiji_tui.engine import events as ev
from momiji_tui.session.review import (
    ReviewCancelled, decision_seed, review_from_dict, review_game, review_to_dict,
)
from momiji_tui.session.review_moves import decision_points
from momiji_tui.session.review_saved import NOT_FINISHED, ReviewRefused, review_events, review_saved_game
from momiji_tui.store import _fs, delete_game, review_cache
from momiji_tui.store.review_cache import review_cache_path


@pytest.fixture(scope="module")
def game() -> list[ev.Event]:
    return played_events(2, seed=5)


def test_rules_8_review_sees_only_the_seats_view_folded_to_that_point(game):
    advisor = FakeAdvisor()
    points = list(decision_points(game, 0))
    review_game(game, 0, iterations=3, advisor=advisor)
    assert len(advisor.calls) == len(points) > 10
    for point, (seen, _seed) in zip(points, advisor.calls, strict=True):
        assert seen == engine.view(engine.fold(game[:point.position]), 0)
        assert seen.seats[1].hand is None  # the other hand stays hidden


def test_every_decision_is_the_seats_own_command_and_replays_the_log(game):
    """Each found command, decided in the state folded to its position, makes
    the log's next events (up to which copy of a card of one kind moved)."""
    for point in decision_points(game, 1):
        state = engine.fold(game[:point.position])
        assert point.command.seat == 1 and state.current == 1
        assert point.command in engine.legal_commands(state, 1)  # what Hard's search can rank
        made = engine.decide(state, point.command)
        assert [type(e) for e in made] == [type(e) for e in game[point.position:point.position + len(made)]]


def test_review_lists_turns_worst_first_and_a_series(game):
    review = review_game(game, 0, iterations=100, advisor=FakeAdvisor())
    assert [t.turn for t in review.turns] == sorted({t.turn for t in review.turns})
    assert len(review.series) == len(review.turns) > 5
    worst = review.worst
    noise = review.noise
    assert 1 <= len(worst) <= 3
    assert [t.blame(noise) for t in worst] == sorted((t.blame(noise) for t in worst), reverse=True)
    assert worst[0].blame(noise) == max(t.blame(noise) for t in review.turns)
    for d in review.decisions:
        assert d.cost == pytest.approx(max(0.0, d.best_chance - d.chance))


def test_review_blames_no_loss_within_the_searchs_noise(game):
    """A decision is blamed only when its cost exceeds the noise between two
    searches at the review's budget (docs/BOTS.md, "Win chance calibration"):
    the same costs blamed at 100 iterations are noise at 4."""
    from momiji_tui.bots.calibration import cost_noise
    from momiji_tui.session.review import BLAME_SIGMAS

    sure = review_game(game, 0, iterations=100, advisor=FakeAdvisor())
    assert sure.noise == pytest.approx(BLAME_SIGMAS * cost_noise(100))
    small = [d for d in sure.decisions if 0 < d.cost <= sure.noise]
    big = [d for d in sure.decisions if d.cost > sure.noise]
    assert big and all(t.blame(sure.noise) == sum(d.cost for d in t.decisions if d.cost > sure.noise)
                       for t in sure.turns)
    assert all(t.blame(sure.noise) < t.cost for t in sure.turns if any(d in small for d in t.decisions))
    noisy = review_game(game, 0, iterations=1, advisor=FakeAdvisor())
    assert noisy.noise > max(d.cost for d in noisy.decisions) and noisy.worst == ()


def test_review_figures_are_reproducible_from_the_log(game):
    a, b = FakeAdvisor(), FakeAdvisor()
    first = review_game(game, 0, iterations=3, advisor=a)
    again = review_game(list(game), 0, iterations=3, advisor=b)
    assert first == again
    assert [s for _, s in a.calls] == [decision_seed(game[0].game_id, p.position) for p in decision_points(game, 0)]
    assert review_from_dict(review_to_dict(first)) == first


def test_review_with_hard_is_reproducible(game):
    """The real search (tiny budget) gives the same figures twice."""
    short = game[:60] + [ev.GameEnded()]
    one = review_game(short, 0, iterations=4)
    two = review_game(short, 0, iterations=4)
    assert one == two and one.decisions
    assert all(0.0 <= d.chance <= 1.0 for d in one.decisions)


def test_cancel_stops_the_review_and_writes_nothing(isolated_dirs):
    save = saved_finished_game(isolated_dirs)
    calls = FakeAdvisor()
    with pytest.raises(ReviewCancelled):
        review_saved_game(save, iterations=3, advisor=calls, should_stop=lambda: len(calls.calls) >= 2)
    assert len(calls.calls) == 2
    assert not review_cache_path(save).exists()


def test_second_look_is_read_from_the_cache_without_search(isolated_dirs):
    save = saved_finished_game(isolated_dirs)
    first_calls, second_calls = FakeAdvisor(), FakeAdvisor()
    first = review_saved_game(save, iterations=3, advisor=first_calls)
    assert first_calls.calls and first.cached and not first.from_cache
    second = review_saved_game(save, iterations=3, advisor=second_calls)
    assert second_calls.calls == [] and second.from_cache
    assert second.review == first.review


# The last: nested too deep for Python's JSON reader (RecursionError, found by trying to break it).
@pytest.mark.parametrize("damage", [b"", b"{not json", b'{"key": {}, "review": {}}', b"\xff\xfe",
                                    b"[" * 100_000 + b"]" * 100_000])
def test_damaged_or_stale_cache_is_recomputed(isolated_dirs, damage):
    save = saved_finished_game(isolated_dirs)
    first = review_saved_game(save, iterations=3, advisor=FakeAdvisor())
    review_cache_path(save).write_bytes(damage)
    calls = FakeAdvisor()
    again = review_saved_game(save, iterations=3, advisor=calls)
    assert calls.calls and not again.from_cache and again.review == first.review


def test_cache_with_a_broken_review_inside_is_recomputed(isolated_dirs):
    save = saved_finished_game(isolated_dirs)
    review_saved_game(save, iterations=3, advisor=FakeAdvisor())
    path = review_cache_path(save)
    path.write_text(path.read_text().replace('"chance":', '"chance":"x","was":', 1))
    calls = FakeAdvisor()
    assert not review_saved_game(save, iterations=3, advisor=calls).from_cache and calls.calls


def test_other_iterations_or_seat_are_not_taken_from_the_cache(isolated_dirs):
    save = saved_finished_game(isolated_dirs)
    review_saved_game(save, iterations=3, advisor=FakeAdvisor())
    for options in ({"iterations": 4}, {"seat": 1}):
        calls = FakeAdvisor()
        assert not review_saved_game(save, advisor=calls, **{"iterations": 3, **options}).from_cache


def test_disk_full_means_no_cache_but_a_review(isolated_dirs, monkeypatch):
    save = saved_finished_game(isolated_dirs)

    def full(*_args, **_kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(_fs, "write_all", full)
    outcome = review_saved_game(save, iterations=3, advisor=FakeAdvisor())
    assert outcome.review.decisions and not outcome.cached
    assert not review_cache_path(save).exists()
    assert [p.name for p in save.parent.iterdir() if p.name.endswith(".tmp")] == []


def test_read_only_games_dir_reviews_without_caching(isolated_dirs, monkeypatch):
    save = saved_finished_game(isolated_dirs)

    def read_only(*_args, **_kwargs):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(review_cache, "write_file", read_only)
    for _ in range(2):  # nothing cached: each look searches again, and works
        calls = FakeAdvisor()
        outcome = review_saved_game(save, iterations=3, advisor=calls)
        assert outcome.review.decisions and not outcome.cached and calls.calls


def test_unfinished_game_is_refused_in_words(game):
    with pytest.raises(ReviewRefused, match="finished game"):
        review_events(game[:40], 0, advisor=FakeAdvisor())
    assert "still in progress" in NOT_FINISHED


def test_deleting_the_game_deletes_its_cached_review(isolated_dirs):
    save = saved_finished_game(isolated_dirs)
    review_saved_game(save, iterations=3, advisor=FakeAdvisor())
    assert review_cache_path(save).exists()
    delete_game(isolated_dirs, save.name.removesuffix(".jsonl"))
    assert not save.exists() and not review_cache_path(save).exists()


def test_hints_and_seat_changes_in_the_log_are_not_decisions(game):
    """A HintShown or SeatControlChanged between moves (recorded by the
    session, never a command) leaves the decisions as they were."""
    points = list(decision_points(game, 0))
    at = {p.position for p in points[:5]}
    noisy: list[ev.Event] = []
    for i, e in enumerate(game):
        if i in at:
            noisy += [ev.HintShown(0, 40), ev.SeatControlChanged(0, "player", None, "back")]
        noisy.append(e)
    again = list(decision_points(noisy, 0))
    assert [(p.turn, p.command) for p in again] == [(p.turn, p.command) for p in points]


def test_a_decision_without_advice_is_left_out(game):
    """The bot pool answers an empty advice when it gives up: no crash, no figures."""
    inner = FakeAdvisor()

    def sometimes_empty(view, **kwargs):
        advice = inner(view, **kwargs)
        return Advice(()) if len(inner.calls) % 2 else advice

    review = review_game(game, 0, iterations=3, advisor=sometimes_empty)
    assert 0 < len(review.decisions) < len(inner.calls)
