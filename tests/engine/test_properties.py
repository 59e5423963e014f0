"""Property tests over random legal games: the end is reached, cards are
conserved, the log folds to the live state, events survive JSON, listed
commands are accepted, views determinize consistently."""

from __future__ import annotations

import json
import random

from momiji_tui.engine import (
    apply, decide, determinize, events as ev, fold, from_dict, legal_commands, score, to_dict, view,
)

from engine_games import games, walk
from engine_helpers import check_conservation


@games
def test_property_random_legal_play_reaches_the_end(seed, seats, mode):
    last = events = None
    for step in walk(seed, seats, mode):
        _before, _command, _new, last, events = step
    assert last is not None and last.phase == "ended"
    assert isinstance(events[-1], ev.GameEnded)
    # §6: every seat has had the same number of turns, and a trigger happened.
    assert len({s.turns for s in last.seats}) == 1
    assert last.end_trigger in ("deck", "torii")
    assert last.deck_size == 0 or last.torii_left == 0
    assert score(last).winners
    for seat in range(seats):
        assert legal_commands(last, seat) == []


@games
def test_property_cards_are_conserved_after_every_event(seed, seats, mode):
    state = None
    for before, _command, new, after, _events in walk(seed, seats, mode):
        state = before
        for event in new:
            state = apply(state, event)
            check_conservation(state)
            assert state.torii_left >= 0
            assert all(s.acorns >= 0 for s in state.seats)
        assert state == after


@games
def test_property_fold_of_events_equals_live_state(seed, seats, mode):
    for i, (_before, _command, _new, after, events) in enumerate(walk(seed, seats, mode)):
        if i % 25 == 0 or after.phase == "ended":
            assert fold(events) == after


@games
def test_property_event_dict_and_json_round_trip(seed, seats, mode):
    after = events = None
    for step in walk(seed, seats, mode):
        _before, _command, _new, after, events = step
    text = "\n".join(json.dumps(to_dict(e), ensure_ascii=False) for e in events)
    decoded = [from_dict(json.loads(line)) for line in text.splitlines()]
    assert decoded == events
    for event in events:
        assert from_dict(to_dict(event)) == event
    assert fold(decoded) == after


@games
def test_property_every_listed_command_is_accepted(seed, seats, mode):
    rng = random.Random(seed + 1)
    for before, _command, _new, _after, _events in walk(seed, seats, mode):
        snapshot = before.clone()
        legal = legal_commands(before, before.current)
        for command in rng.sample(legal, min(4, len(legal))):
            decide(before, command)  # raises IllegalCommand if not accepted
        assert before == snapshot
        for seat in range(seats):
            if seat != before.current:
                assert legal_commands(before, seat) == []


@games
def test_property_determinize_agrees_with_the_view(seed, seats, mode):
    rng = random.Random(seed + 3)
    for i, (before, _command, _new, after, _events) in enumerate(walk(seed, seats, mode)):
        if i % 7 and after.phase != "ended":
            continue
        for state in (before, after):
            for seat in (*range(seats), None):
                v = view(state, seat)
                world = determinize(v, rng)
                assert view(world, seat) == v
                check_conservation(world)
                assert world.deck_size == state.deck_size
                for mine, real in zip(world.seats, state.seats, strict=True):
                    assert len(mine.hand) == len(real.hand)
                    assert mine.known == real.known
                    assert not set(mine.known) - set(mine.hand)
                if seat is not None:
                    assert world.seats[seat].hand == state.seats[seat].hand
                    # what the seat to move may do never depends on hidden cards
                    assert legal_commands(world, seat) == legal_commands(state, seat)
