"""Hints recorded in the game log: ``HintShown`` is outside the
rules: the fold counts it per seat, an undo keeps the count, and no bot
decides differently for it (RULES §8: it hides nothing and shows nothing)."""

from __future__ import annotations

from momiji_tui.bots.base import view_digest
from momiji_tui.engine import Exchange, Undo, create_game, fold, legal_commands, run, view
from momiji_tui.engine import events as ev
from momiji_tui.engine.narrate import narrate


def _start():
    events = create_game(["Aki", "Bo"], seed=3)
    return fold(events), list(events)


def test_hint_shown_is_counted_per_seat_in_the_state_and_every_view():
    state, events = _start()
    seat = state.current
    events += [ev.HintShown(seat, 61), ev.HintShown(seat, 58)]
    folded = fold(events)
    assert folded.hints[seat] == 2 and folded.hints[1 - seat] == 0
    assert view(folded, 1 - seat).hints == folded.hints  # a hint is public: every seat sees it was used
    assert fold(events[:-2]).hints in ((), (0, 0))


def test_a_hint_changes_no_bot_digest_and_no_rule_state():
    state, events = _start()
    after = fold(events + [ev.HintShown(state.current, 50)])
    assert view_digest(view(after, state.current)) == view_digest(view(state, state.current))
    assert legal_commands(after, state.current) == legal_commands(state, state.current)
    assert after.turn.since_checkpoint == state.turn.since_checkpoint


def test_an_undo_after_a_hint_takes_back_the_actions_and_keeps_the_hint():
    state, events = _start()
    seat = state.current
    exchange = next(c for c in legal_commands(state, seat) if isinstance(c, Exchange))
    state, new = run(state, exchange)
    events += new
    events.append(ev.HintShown(seat, 40))
    state = fold(events)
    state, new = run(state, Undo(seat))
    events += new
    assert state.hints[seat] == 1
    assert fold(events) == state


def test_narrate_says_a_seat_asked_for_a_hint():
    assert narrate(ev.HintShown(0, 61), 0, ["Aki", "Bo"]) == "You asked for a hint (Hard's estimate: 61%)."
    assert narrate(ev.HintShown(0, 61), 1, ["Aki", "Bo"]) == "Aki asked for a hint (Hard's estimate: 61%)."
