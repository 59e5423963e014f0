"""RULES §3, §5.1 in bot games: the hand-limit discard ends the turn.

Seeded games of Normal bots (the issue found "collect to 12, discard 4,
exchange 2: the turn ends with 6 cards" in about 4 games of 10): no turn has
an action after its hand-limit discard, and every turn ends with a hand of at
most 8 cards, exactly 8 when a discard was due.
"""

from __future__ import annotations

import functools

import pytest

from momiji_tui.bots import make_bot
from momiji_tui.engine import create_game, events as ev, fold, run, view
from momiji_tui.engine.rules_data import HAND_LIMIT

# What RULES §5 itself does after the discard: top-up, end check, the turn's end.
END_OF_TURN = (ev.DisplayRevealed, ev.EndTriggered, ev.TurnEnded, ev.GameEnded)


@functools.cache
def normal_game(seed: int, seats: int, mode: str) -> list[tuple[int, list, int]]:
    """Each turn of a seeded Normal-bot game: (seat, its events, hand size at its end)."""
    state = fold(create_game([f"N{i}" for i in range(seats)], seed=seed, landscape_mode=mode,
                             game_id=f"n{seed}"))
    bots = [make_bot("normal", seed * 10 + i) for i in range(seats)]
    turns: list[tuple[int, list, int]] = []
    current: list = []
    while state.phase != "ended":
        seat = state.current
        state, new = run(state, bots[seat].choose(view(state, seat)))
        current += new
        if any(isinstance(e, ev.TurnEnded) for e in new):
            turns.append((seat, current, len(state.seats[seat].hand)))
            current = []
    return turns


# Seeds 2 and 12 reproduced the defect on the old engine (a Normal bot
# discarded to 8, then exchanged or used a landscape); the others add seats
# and the draft.
GAMES = [(2, 4, "starter"), (12, 2, "starter"), (1, 3, "draft"), (5, 2, "draft"), (1004, 3, "starter")]


@pytest.mark.parametrize(("seed", "seats", "mode"), GAMES)
def test_rules_5_1_bots_never_act_after_the_hand_limit_discard(seed, seats, mode):
    turns = normal_game(seed, seats, mode)
    for seat, events, hand_at_end in turns:
        assert hand_at_end <= HAND_LIMIT, (seat, events)
        discards = [i for i, e in enumerate(events)
                    if isinstance(e, ev.CardsDiscarded) and e.reason == "hand limit"]
        if not discards:
            continue
        assert hand_at_end == HAND_LIMIT, (seat, events)
        after = events[discards[0] + 1:]
        assert all(isinstance(e, END_OF_TURN) for e in after), (seat, events)
        assert not any(isinstance(e, ev.DisplayRevealed) and e.reason != "top-up" for e in after)


def test_rules_5_1_these_bot_games_do_reach_the_hand_limit():
    """The property above is only worth something if discards happen."""
    due = sum(
        any(isinstance(e, ev.CardsDiscarded) and e.reason == "hand limit" for e in events)
        for game in GAMES for _, events, _ in normal_game(*game)
    )
    assert due >= 3
