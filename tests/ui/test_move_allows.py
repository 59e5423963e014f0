"""The footer's question, "does this key apply now?", answered from the legal
commands and the selection (``MoveDraft.allows``: ``move_draft.ALLOWED``,
``QUICK`` and undo) agrees with the
engine's reasons (``MoveDraft.reason``, RULES §3–§5) on every view of random
games: a key is offered exactly when pressing it would not be refused."""

from __future__ import annotations

import random

import pytest
from helpers import situation

from momiji_tui.engine import create_game, fold, legal_commands, run, view
from momiji_tui.engine.state import TurnState
from momiji_tui.ui.models.move_draft import GAME_ACTIONS, MoveDraft
from momiji_tui.ui.models.move_draft import ALLOWED, QUICK

NAMES = ["You", "Kaede", "Ginnan", "Sakura"]
TWELVE = "M0a M1a M2a C0a C1a C2a O0a O1a O2a G0a G1a G2a"


def views_of(seed: int, seats: int, mode: str):
    """Every (state, seat) of a seeded random game, for the seat to move
    and the one after it."""
    rng = random.Random(seed)
    state = fold(create_game(NAMES[:seats], seed=seed, landscape_mode=mode))
    for _ in range(3000):  # bounded: a game ends in a few hundred commands
        if state.phase == "ended":
            yield state, 0
            return
        yield state, state.current
        yield state, (state.current + 1) % seats
        legal = legal_commands(state, state.current)
        state, _ = run(state, rng.choice(legal))
    raise AssertionError("no end after 3000 commands")


@pytest.mark.parametrize(("seed", "seats", "mode"), [(1, 2, "starter"), (2, 3, "draft"), (3, 4, "starter"),
                                                      (4, 2, "draft"), (5, 3, "starter")])
def test_rules_3_a_key_is_offered_exactly_when_the_engine_would_take_it(seed, seats, mode):
    asked = {action: [0, 0] for action in [*ALLOWED, *QUICK]}  # how often each was allowed, and refused
    for state, seat in views_of(seed, seats, mode):
        draft = MoveDraft(seat)
        draft.set_view(view(state, seat), legal_commands(state, seat))
        for selection in ((), tuple(draft.hand[:1]), tuple(draft.hand[:2]), tuple(draft.hand[-2:])):
            draft.selected = list(selection)
            for action in sorted(GAME_ACTIONS):
                allowed = draft.allows(action)
                assert allowed == (draft.reason(action) is None), (seed, action, selection, state.turn)
                if (action in ALLOWED or action in QUICK) and draft.my_turn:
                    asked[action][0 if allowed else 1] += 1
    # Each quick answer met both answers on its turns (else it was not put to the test).
    met_both = {action for action, (yes, no) in asked.items() if yes and no}
    assert met_both >= {"collect", "reveal", "end_turn", "undo", "play", "exchange"}, asked


def test_rules_3_every_quick_answer_is_for_an_action_of_the_view_or_the_selection():
    from momiji_tui.ui.models.move_draft import REASONS, SELECTION_ACTIONS

    assert set(ALLOWED) == set(REASONS) - SELECTION_ACTIONS
    assert set(QUICK) == SELECTION_ACTIONS - {"confirm"}  # ⏎ is the hint screen's too (``why_not``)


@pytest.mark.parametrize(("turn", "offered"), [(TurnState(main_done=True), True), (TurnState(), False)])
def test_rules_5_1_discard_is_offered_exactly_when_the_engine_would_take_it(turn, offered):
    """Random games seldom end a main action over the hand limit: a hand
    of twelve, before and after the main action."""
    table = situation(hand=TWELVE, turn=turn)
    draft = MoveDraft(0, check=table.check)
    draft.set_view(table.view(0), table.legal(0))
    for action in sorted(GAME_ACTIONS):
        assert draft.allows(action) == (draft.reason(action) is None), action
    assert draft.allows("discard") is offered
