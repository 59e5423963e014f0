"""Every bot returns a legal command, over many states (2/3/4 seats, draft
and starter), and decides the same given the same view and seed."""

from __future__ import annotations

import pytest
from bot_helpers import sample_states

from momiji_tui.bots import LEVELS, Bot, make_bot
from momiji_tui.engine import decide, legal_commands, view

STATES = sample_states(120, seed=1)
BUDGET = {"hard": {"iterations": 12}}


@pytest.mark.parametrize("level", LEVELS)
def test_every_decision_is_a_legal_command(level):
    bot = make_bot(level, 3, **BUDGET.get(level, {}))
    assert isinstance(bot, Bot)
    states = STATES if level != "hard" else STATES[::2]
    for state in states:
        seat = state.current
        command = bot.choose(view(state, seat))
        assert command in legal_commands(state, seat), (level, command)
        decide(state, command)  # accepted


def test_states_cover_seats_modes_and_phases():
    assert {s.n_seats for s in STATES} == {2, 3, 4}
    assert {s.landscape_mode for s in STATES} == {"draft", "starter"}
    assert {s.phase for s in STATES} == {"draft", "play"}
    assert any(s.turn.main_done for s in STATES) and any(not s.turn.main_done for s in STATES)


@pytest.mark.parametrize("level", LEVELS)
def test_same_view_and_seed_same_decision(level):
    kw = BUDGET.get(level, {})
    a = make_bot(level, 11, **kw)
    b = make_bot(level, 11, **kw)
    states = STATES[:40:2]
    first = [a.choose(view(s, s.current)) for s in states]
    # a fresh bot, and the same bot asked again in another order, agree
    assert [b.choose(view(s, s.current)) for s in reversed(states)][::-1] == first
    assert [a.choose(view(s, s.current)) for s in states] == first


def test_bot_seed_matters_for_easy():
    states = [s for s in STATES if s.phase == "play"][:40]
    picks = {seed: [make_bot("easy", seed).choose(view(s, s.current)) for s in states] for seed in (1, 2)}
    assert picks[1] != picks[2]


def test_make_bot_rejects_unknown_level_and_bad_budgets():
    with pytest.raises(ValueError):
        make_bot("impossible", 0)
    with pytest.raises(ValueError):
        make_bot("hard", 0, time_limit=0.5)  # a time limit needs an injected clock


def test_bot_refuses_a_view_it_cannot_act_on():
    state = STATES[5]
    other = (state.current + 1) % state.n_seats
    for level in LEVELS:
        bot = make_bot(level, 0, **BUDGET.get(level, {}))
        with pytest.raises(ValueError):
            bot.choose(view(state, other))
        with pytest.raises(ValueError):
            bot.choose(view(state, None))


def test_hard_time_budget_uses_the_injected_clock():
    ticks = iter(range(10**6))
    clock = lambda: next(ticks) * 0.01  # noqa: E731 - a fake clock: 10 ms per reading
    bot = make_bot("hard", 5, time_limit=0.2, clock=clock)
    state = next(s for s in STATES if s.phase == "play" and len(legal_commands(s, s.current)) > 3)
    command = bot.choose(view(state, state.current))
    assert command in legal_commands(state, state.current)
    assert 1 <= bot.last_iterations <= 25
