"""Fairness: bots see only their view, and worlds sampled from a view agree
with it (research/anchors.md §3.3: no leak of hidden cards)."""

from __future__ import annotations

import random

import pytest
from bot_helpers import sample_states, states_along_game

from momiji_tui.bots import make_bot
from momiji_tui.engine import view
from momiji_tui.engine.cards import cards_of_types
from momiji_tui.engine.state import TurnState
from momiji_tui.engine.view import determinize

PLAY_STATES = [s for s in sample_states(90, seed=7) if s.phase == "play"]


def _mid_game_views():
    """Views from mid-game states where opponents hold known and unknown cards."""
    out = []
    for n in (2, 3, 4):
        for s in states_along_game(n, "draft", 500 + n, every=7):
            if s.phase == "play" and s.round >= 3:
                out.append(view(s, s.current))
    return out


@pytest.mark.parametrize("v", _mid_game_views()[:24])
def test_every_sampled_world_agrees_with_the_view(v):
    rng = random.Random(3)
    for _ in range(10):
        world = determinize(v, rng)
        assert view(world, v.seat) == v
        cards = list(world.deck[world.deck_pos:]) + list(world.display) + list(world.discard)
        for s in world.seats:
            cards += s.hand + [c for p in s.row for c in p.cards]
        assert sorted(cards) == cards_of_types(v.types)
        for s, sv in zip(world.seats, v.seats, strict=True):
            assert all(c in s.hand for c in sv.known)  # seen collected: stays in that hand


def test_views_do_have_hidden_and_known_cards():
    views = _mid_game_views()
    assert any(any(sv.known for i, sv in enumerate(v.seats) if i != v.seat) for v in views)
    # The deck may empty during a turn (a reveal, Bamboo Grove): the end is
    # triggered when that turn ends (RULES §5 step 3).
    assert all(v.deck_size > 0 or v.end_trigger or v.turn != TurnState() for v in views)


@pytest.mark.parametrize("level,budget", [("hard", {"iterations": 40}), ("hard", {"iterations": 40, "leaf": "learned"}),
                                          ("normal", {}), ("easy", {})])
def test_decision_is_identical_across_true_states_behind_one_view(level, budget):
    """True states that differ only in what the seat cannot see (deck order,
    opponents' unseen cards) get the same decision for the same bot seed."""
    checked = 0
    for i, state in enumerate(PLAY_STATES[:12]):
        v = view(state, state.current)
        truths = [determinize(v, random.Random(100 + k)) for k in range(4)]
        assert len({t.deck[t.deck_pos:] for t in truths}) > 1 or v.deck_size <= 1
        decisions = set()
        for t in truths:
            assert view(t, v.seat) == v
            bot = make_bot(level, 42 + i, **budget)
            decisions.add(bot.choose(view(t, t.current)))
        assert len(decisions) == 1
        checked += 1
    assert checked == 12


def test_hard_decision_depends_on_its_own_seed_not_the_game():
    """Two different bot seeds may decide differently, but each is stable."""
    state = next(s for s in PLAY_STATES if not s.turn.main_done)
    v = view(state, state.current)
    a1 = make_bot("hard", 1, iterations=30).choose(v)
    a2 = make_bot("hard", 1, iterations=30).choose(v)
    assert a1 == a2
