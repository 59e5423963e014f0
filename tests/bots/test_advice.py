"""The advice core (bots/advice.py): Hard's ranking from one seat's view."""

from __future__ import annotations

import dataclasses
import random

import pytest
from bot_helpers import sample_states

from momiji_tui.bots.advice import advise
from momiji_tui.bots.hard import HardBot
from momiji_tui.engine import legal_commands, view
from momiji_tui.engine.view import determinize

STATES = sample_states(36, seed=17)
PLAY = [s for s in STATES if s.phase == "play" and len(legal_commands(s, s.current)) > 3]


def test_advice_best_is_hards_choice_and_every_choice_is_legal_rules_8():
    for i, state in enumerate(STATES[::3]):
        v = view(state, state.current)
        advice = advise(v, seed=i, iterations=20)
        assert advice.choices, "a seat to move always has a legal command"
        assert advice.best.command == HardBot(i, iterations=20).choose(v)
        legal = legal_commands(state, state.current)
        assert all(c.command in legal for c in advice.choices)
        assert all(0.0 <= c.win_chance <= 1.0 for c in advice.choices)
        if state.phase == "play" and len(advice.choices) > 1:
            assert sum(c.visits for c in advice.choices) == 20


def test_same_view_seed_and_iterations_same_advice():
    v = view(PLAY[0], PLAY[0].current)
    assert advise(v, seed=3, iterations=25) == advise(v, seed=3, iterations=25)


def test_include_puts_the_players_own_move_among_the_choices():
    state = PLAY[1]
    v = view(state, state.current)
    plain = {c.command for c in advise(v, seed=1, iterations=10).choices}
    outside = [c for c in legal_commands(state, state.current) if c not in plain]
    assert outside, "the state has commands Normal's ranking leaves out"
    advice = advise(v, seed=1, iterations=10, include=[outside[-1]])
    assert outside[-1] in {c.command for c in advice.choices}


def test_include_refuses_a_command_that_is_not_legal():
    state = PLAY[1]
    v = view(state, state.current)
    other = view(PLAY[2], PLAY[2].current)
    illegal = next(c for c in legal_commands(PLAY[2], other.seat) if c not in legal_commands(state, v.seat))
    with pytest.raises(ValueError, match="not a legal command"):
        advise(v, seed=1, iterations=5, include=[illegal])


def test_should_stop_ends_the_search_with_the_best_so_far():
    v = view(PLAY[0], PLAY[0].current)
    polls = []

    def stop() -> bool:
        polls.append(1)
        return len(polls) > 4

    advice = advise(v, seed=2, iterations=500, should_stop=stop)
    assert sum(c.visits for c in advice.choices) == 4
    at_once = advise(v, seed=2, iterations=500, should_stop=lambda: True)
    assert at_once.choices and all(c.visits == 0 for c in at_once.choices)
    assert len({c.win_chance for c in at_once.choices}) == 1  # the position's own estimate


def test_a_seat_not_to_move_gets_no_advice():
    state = PLAY[0]
    with pytest.raises(ValueError):
        advise(view(state, (state.current + 1) % state.n_seats), seed=0, iterations=5)


def test_same_view_different_hidden_cards_same_advice_rules_8():
    """Fairness: true states that differ only in what the seat cannot see
    (deck order, opponents' unseen cards) give that seat the same advice."""
    for i, state in enumerate(PLAY[:4]):
        v = view(state, state.current)
        truths = [determinize(v, random.Random(300 + k)) for k in range(3)]
        assert len({t.deck[t.deck_pos:] for t in truths}) > 1 or v.deck_size <= 1
        advices = set()
        for t in truths:
            seen = view(t, v.seat)
            assert seen == v
            advices.add(advise(dataclasses.replace(seen), seed=i, iterations=15))
        assert len(advices) == 1
