"""The replay model (session/replay.py): event and turn steps over a saved game."""

from __future__ import annotations

import pytest
from saves_helpers import play, saved_game

from momiji_tui import engine
from momiji_tui.engine import events as ev
from momiji_tui.session.replay import TURN_BREAKS, Replay
from momiji_tui.session.saves import open_saved
from momiji_tui.session.table import BOT, SeatConfig, Table


@pytest.fixture(scope="module")
def finished_events() -> list[ev.Event]:
    """A whole drafted 3-seat game (engine only, no files)."""
    seats = [SeatConfig(f"Bot {i}", BOT, "easy") for i in range(3)]
    return play(Table.new(seats, seed=11, landscape_mode="draft"), seed=11).events


def test_forward_to_the_end_equals_the_final_state(finished_events):
    r = Replay(finished_events)
    assert r.position == 1 and r.finished and r.open_hands
    seen = 1
    while not r.at_end:
        r.step(1)
        seen += 1
        assert r.event is finished_events[r.position - 1]
    assert seen == len(finished_events)
    assert r.state == engine.fold(finished_events)
    assert r.step(1) == len(finished_events)  # clamped at the end


def test_back_to_the_start_equals_the_setup_state(finished_events):
    r = Replay(finished_events)
    r.end()
    while r.position > 1:
        before = r.position
        r.step(-1)
        assert r.position == before - 1
    assert r.state == engine.fold(finished_events[:1])
    assert r.step(-5) == 1  # clamped at the start
    assert isinstance(r.event, ev.GameCreated)


@pytest.mark.parametrize("every", [1, 7, 64, 100_000])
def test_every_position_is_the_fold_of_its_prefix(finished_events, every):
    r = Replay(finished_events, snapshot_every=every)
    for i in [*range(1, len(finished_events) + 1, 5), len(finished_events)]:
        assert r.state_at(i) == engine.fold(finished_events[:i])
    # state_at hands out copies: changing one never changes the replay
    s = r.state_at(3)
    s.seats[0].acorns += 100
    assert r.state_at(3) == engine.fold(finished_events[:3])
    with pytest.raises(IndexError):
        r.state_at(0)
    with pytest.raises(IndexError):
        r.state_at(len(finished_events) + 1)


def test_turn_steps_land_on_turn_boundaries(finished_events):
    r = Replay(finished_events)
    starts = r.turn_starts
    assert starts[0] == 1 and starts[-1] == len(finished_events)
    # every inner stop follows a draft pick, the start of play or the end of a turn
    for p in starts[1:-1]:
        assert isinstance(finished_events[p - 1], TURN_BREAKS)
    breaks = [i + 1 for i, e in enumerate(finished_events) if isinstance(e, ev.TurnEnded)]
    assert set(breaks) <= set(starts)
    visited = [r.position]
    while not r.at_end:
        visited.append(r.jump_turn(1))
    assert visited == list(starts)
    back = [r.position]
    while r.position > 1:
        back.append(r.jump_turn(-1))
    assert back == list(reversed(starts))
    # a turn start in play is a fresh turn of the seat whose turn it is
    for p in starts[1:-1]:
        if isinstance(finished_events[p - 1], ev.TurnEnded):
            state = r.state_at(p)
            assert not state.turn.main_done and state.turn.landscape is None
            assert state.current == (finished_events[p - 1].seat + 1) % 3


def test_from_inside_a_turn_back_goes_to_that_turns_start_first(finished_events):
    r = Replay(finished_events)
    k = len(r.turn_starts) // 2
    start, nxt = r.turn_starts[k], r.turn_starts[k + 1]
    assert nxt - start > 1, "pick a turn with several events"
    r.seek(start + 1)
    assert r.turn_index == k
    assert r.jump_turn(-1) == start
    r.seek(start + 1)
    assert r.jump_turn(1) == nxt
    assert r.jump_turn(2) == r.turn_starts[k + 3]
    assert r.seek_turn(10**6) == len(finished_events) and r.seek_turn(-3) == 1


def test_an_unfinished_game_shows_only_what_the_seat_could_know(isolated_dirs):
    path = saved_game(isolated_dirs, seed=5, commands=10)
    r = Replay.from_dicts(open_saved(path).events)
    assert not r.finished and not r.open_hands
    r.end()
    v = r.view(0)
    assert v.seats[0].hand is not None and v.seats[1].hand is None
    assert r.view(1).seats[0].hand is None
    # a draw by the other seat is told as a count only
    for i in range(1, len(r) + 1):
        e = r.events[i - 1]
        if isinstance(e, ev.CardsDealt | ev.CardsDrawn) and e.seat == 1:
            assert r.narrate(0, i).startswith("Bo ") and any(ch.isdigit() for ch in r.narrate(0, i))
            assert engine.cards.CARD_NAME[e.cards[0]][:2] not in r.narrate(0, i).split()


def test_a_finished_game_shows_every_hand_and_names_every_card(finished_events):
    r = Replay(finished_events)
    r.seek(r.turn_starts[12])
    v = r.view(0)
    state = r.state
    assert [s.hand for s in v.seats] == [tuple(s.hand) for s in state.seats]
    dealt = next(i for i, e in enumerate(finished_events, 1) if isinstance(e, ev.CardsDealt) and e.seat == 2)
    line = r.narrate(0, dealt)
    assert line.startswith("Bot 2 was dealt ")
    assert engine.cards.CARD_NAME[finished_events[dealt - 1].cards[0]][:2] in line


def test_a_log_that_is_no_game_is_refused():
    with pytest.raises(ValueError):
        Replay([])
    with pytest.raises(ValueError):
        Replay([ev.TurnEnded(0)])
