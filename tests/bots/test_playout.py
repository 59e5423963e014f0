"""The fast move sampler and the playout policy only build legal commands."""

from __future__ import annotations

import random

import pytest
from bot_helpers import sample_states

from momiji_tui.bots.playout import greedy_policy_command, policy_command, prefilter, random_command, step
from momiji_tui.engine import create_game, decide, fold, legal_commands


@pytest.mark.parametrize("sampler", [random_command, policy_command, greedy_policy_command])
@pytest.mark.parametrize("n_seats,mode", [(2, "starter"), (3, "draft"), (4, "starter"), (2, "draft")])
def test_sampled_commands_are_accepted_by_decide_in_whole_games(sampler, n_seats, mode):
    rng = random.Random(n_seats * 7 + len(mode))
    for game in range(12 if sampler is not greedy_policy_command else 3):
        state = fold(create_game([f"P{i}" for i in range(n_seats)], seed=game, landscape_mode=mode))
        decisions = 0
        while state.phase != "ended":
            command = sampler(state, state.current, rng)
            state = step(state, command)  # raises IllegalCommand if decide rejects it
            decisions += 1
            assert decisions < 5000
        assert state.phase == "ended"


def test_sampler_commands_are_legal_commands_up_to_equivalent_cards():
    """Every sampled command is accepted by ``decide`` in varied mid-game states
    (boosts, reveals, discards), and the sampler reaches every command kind."""
    rng = random.Random(5)
    kinds = set()
    for state in sample_states(150, seed=3):
        for _ in range(6):
            command = random_command(state, state.current, rng)
            decide(state, command)
            kinds.add(type(command).__name__)
    assert {"Collect", "Play", "Reveal", "EndTurn", "Exchange", "UseLandscape", "DraftPick"} <= kinds


def test_prefilter_keeps_a_subset_with_every_main_action():
    for state in sample_states(60, seed=9):
        legal = legal_commands(state, state.current)
        kept = prefilter(state, legal, state.current)
        assert kept and all(c in legal for c in kept)
        main_kinds = ("Collect", "Play", "Reveal", "ActivateObjective", "Pass", "EndTurn")
        main = [c for c in legal if type(c).__name__ in main_kinds]
        assert all(c in kept for c in main)


def test_step_changes_state_like_run():
    from momiji_tui.engine import run

    state = fold(create_game(["a", "b"], seed=4))
    command = legal_commands(state, state.current)[0]
    expected, _ = run(state, command)
    before = state.clone()
    assert step(state, command) == expected
    assert state == before  # unchanged
