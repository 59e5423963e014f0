"""Hard's leaf reward (``hard.leaf_win``): how the seats' values at a
playout's leaf become a win-probability-like number for the bot's seat."""

from __future__ import annotations

import math
import random
from itertools import islice

import pytest
from bot_helpers import states_along_game

from momiji_tui.bots.evaluate import turns_left
from momiji_tui.bots.hard import FULL_GAME, HardBot, leaf_win
from momiji_tui.bots.tournament import parse_bot
from momiji_tui.engine import GameState, legal_commands, view


def test_product_reward_counts_every_opponent():
    # Seat 0 ahead of all three gets more than ahead of two and level with one:
    # under "best" only the leader among the others counts, so the two tie.
    ahead_of_all = [50.0, 40.0, 40.0, 40.0]
    ahead_of_two = [50.0, 40.0, 40.0, 50.0]
    beaten_by_one = [50.0, 40.0, 40.0, 60.0]
    assert leaf_win(ahead_of_all, 0, 8.0, "product") > leaf_win(ahead_of_two, 0, 8.0, "product")
    assert leaf_win(ahead_of_two, 0, 8.0, "product") > leaf_win(beaten_by_one, 0, 8.0, "product")
    # the two trailing seats count too: pulling further ahead of them helps
    assert leaf_win([50.0, 30.0, 30.0, 50.0], 0, 8.0, "product") > leaf_win(ahead_of_two, 0, 8.0, "product")
    assert leaf_win([50.0, 30.0, 30.0, 50.0], 0, 8.0, "best") == leaf_win(ahead_of_two, 0, 8.0, "best")


def test_product_reward_is_a_probability_and_fair_at_a_level_table():
    for n in (2, 3, 4):
        level = [42.0] * n
        assert leaf_win(level, 0, 8.0, "product") == pytest.approx(0.5 ** (n - 1))
    assert 0.0 < leaf_win([0.0, 200.0, 200.0, 200.0], 0, 8.0, "product") < 1e-9
    assert leaf_win([200.0, 0.0, 0.0, 0.0], 0, 8.0, "product") == pytest.approx(1.0)


@pytest.mark.parametrize("values", [[50.0, 40.0], [30.0, 45.5], [12.0, 12.0]])
def test_product_and_best_agree_at_two_seats(values):
    for me in (0, 1):
        for base in (0.0, -7.5, 3.0):
            assert leaf_win(values, me, 8.0, "product", base) == leaf_win(values, me, 8.0, "best", base)


def _early_play_state(seats: int) -> GameState:
    """The 6th decision of the play phase (main action to take) of a seeded starter game."""
    play = (s for s in states_along_game(seats, "starter", 5) if s.phase == "play" and not s.turn.main_done)
    return next(islice(play, 5, None))


def test_product_searches_as_best_at_two_seats_and_differently_at_four():
    # one opponent: the same rewards to the bit, so the same visits and estimates
    two = _early_play_state(2)
    assert (HardBot(7, iterations=16, leaf_reward="product").search(view(two, two.current))
            == HardBot(7, iterations=16).search(view(two, two.current)))
    four = _early_play_state(4)
    assert (HardBot(7, iterations=16, leaf_reward="product").search(view(four, four.current))
            != HardBot(7, iterations=16).search(view(four, four.current)))


def test_baseline_shifts_every_margin():
    # a world where the seat already trails the leader by 10: keeping that gap is even
    assert leaf_win([40.0, 50.0, 30.0, 30.0], 0, 8.0, "best", base=-10.0) == pytest.approx(0.5)
    ahead = 1.0 / (1.0 + math.exp(-20.0 / 8.0))  # 10 ahead of a trailing seat, plus the 10 of the baseline
    assert leaf_win([40.0, 50.0, 30.0, 30.0], 0, 8.0, "product", base=-10.0) == pytest.approx(0.5 * ahead ** 2)


def test_unknown_reward_is_refused_by_name():
    with pytest.raises(ValueError, match="unknown leaf_reward 'median'"):
        leaf_win([1.0, 2.0], 0, 8.0, "median")
    with pytest.raises(ValueError, match="unknown leaf_reward"):
        HardBot(1, leaf_reward="median")


def test_tournament_spec_selects_the_reward():
    level, kw = parse_bot("hard:leaf_reward=product:scale=6.0", None)
    assert level == "hard" and kw == {"leaf_reward": "product", "scale": 6.0}
    assert HardBot(1, **kw).leaf_reward == "product"


def _endgame_state() -> GameState:
    """A 2-seat play state with a main action to take and at most 3 of the
    seat's turns left (RULES §6): Hard's playouts run to the end there."""
    return next(s for s in states_along_game(2, "starter", 5)
                if s.phase == "play" and not s.turn.main_done and turns_left(s, s.current) <= 3
                and len(legal_commands(s, s.current)) > 2)


def test_end_scale_rewards_the_final_margin_from_zero():
    # RULES §7: a playout to the end scores the final margin; with end_scale it
    # is sigma(margin / end_scale), the world's standing (base) ignored, while
    # the win estimate stays sigma(margin / scale).
    state = _endgame_state()
    me = state.current
    bot = HardBot(3, end_scale=2.0)
    reward, win = bot._playout(state.clone(), me, random.Random(9), FULL_GAME, base=5.0, to_win=True)
    old_reward, old_win = bot._playout(state.clone(), me, random.Random(9), FULL_GAME, base=5.0)
    assert win == old_win
    margin = 8.0 * math.log(win / (1.0 - win))
    assert reward == pytest.approx(1.0 / (1.0 + math.exp(-margin / 2.0)))
    assert old_reward == pytest.approx(1.0 / (1.0 + math.exp(-(margin - 5.0) / 8.0)))


def test_end_scale_changes_only_the_endgame_search():
    early = _early_play_state(2)
    assert (HardBot(7, iterations=24, end_scale=2.0).search(view(early, early.current))
            == HardBot(7, iterations=24).search(view(early, early.current)))
    late = _endgame_state()
    assert (HardBot(7, iterations=24, end_scale=2.0).search(view(late, late.current))
            != HardBot(7, iterations=24).search(view(late, late.current)))
