"""Seeded bot games pinned to their exact results (faster bots, not
one decision changed).

The expected values were recorded when the bots' play last changed on
purpose. A speed-up must give the very same games; a change that
makes a bot play differently (a weight, a budget, a tie-break, a float sum in
another order) fails here and must say so: re-pin only for a deliberate
change of play.
"""

from __future__ import annotations

import pytest

from momiji_tui.bots import evaluate, plan
from momiji_tui.bots.tournament import play_game

# (line-up, deal seed, game, tournament seed, landscape mode) →
# (scores, acorns, decisions per seat)
PINNED = [
    ((("normal", "normal:"), 11, 0, 3, "random"), ((46, 22), (5, 11), (34, 36))),
    ((("normal:", "normal"), 12, 1, 3, "random"), ((49, 49), (3, 8), (38, 39))),
    ((("normal", "normal:", "normal", "normal:"), 13, 0, 3, "random"),
     ((37, 23, 59, 18), (11, 8, 7, 6), (31, 38, 31, 32))),
    ((("normal", "easy", "easy"), 14, 0, 3, "draft"), ((57, 13, 15), (8, 1, 2), (36, 36, 39))),
    ((("hard:iterations=12:leaf=evaluate", "normal"), 15, 0, 3, "random"), ((48, 41), (3, 2), (40, 46))),
    ((("normal", "hard:iterations=12:leaf=evaluate"), 16, 1, 3, "starter"), ((64, 60), (5, 7), (43, 39))),
    # Hard's default leaf, learned by self-play (pinned when it became the default)
    ((("hard:iterations=12", "normal"), 15, 0, 3, "random"), ((57, 51), (9, 7), (41, 45))),
    ((("normal", "hard:iterations=12"), 16, 1, 3, "starter"), ((50, 60), (6, 3), (45, 39))),
]


def _result(game: tuple) -> tuple[tuple[int, ...], ...]:
    lineup, deal, number, seed, mode = game
    r = play_game(lineup, deal, number, seed, landscape_mode=mode)
    return r.scores, r.acorns, r.decisions


@pytest.mark.parametrize(("game", "expected"), PINNED, ids=[f"{'-'.join(g[0])}-deal{g[1]}" for g, _ in PINNED])
def test_seeded_bot_games_end_with_the_pinned_scores_rules_7(game, expected):
    assert _result(game) == expected


def test_the_evaluation_memos_emptied_at_every_turn_play_the_same_games(monkeypatch):
    """Memos that are always nearly empty (emptied every 3 plans or seat
    values) and warm ones give the same games: the memos only save work."""
    monkeypatch.setattr(plan, "PLAN_CACHE_SIZE", 3)
    monkeypatch.setattr(evaluate, "SEAT_CACHE_SIZE", 3)
    plan._PLAN_CACHE.clear()
    evaluate._SEAT_CACHES.clear()
    for game, expected in (PINNED[0], PINNED[4]):
        assert _result(game) == expected
