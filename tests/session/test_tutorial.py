"""The guided first game's script (session/tutorial.py) and its gate table
(session/tutorial_table.py), without a terminal: the fixed deal is a real
deal, every scripted move is an ordinary legal command that teaches what
its step says, the gate refuses any other move, skip and resume work."""

from __future__ import annotations

import pytest

from momiji_tui import engine
from momiji_tui.engine import events as ev
from momiji_tui.engine.cards import card_by_name, cards_of_types
from momiji_tui.engine.rules_data import HAND_LIMIT, torii_supply
from momiji_tui.session import tutorial as script
from momiji_tui.session.table import Table
from momiji_tui.session.tutorial_table import OffScript, TutorialTable


def played(upto: int | None = None) -> tuple[engine.GameState, list[ev.Event], list[list[ev.Event]]]:
    """The script's first ``upto`` moves (all: None) on the engine: the
    state, every event, and each move's events."""
    events = script.opening_events()
    state = engine.fold(events)
    per_move = []
    for move in script.MOVES[:upto]:
        assert state.current == move.seat
        state, new = engine.run(state, move.accepts[0])
        events += new
        per_move.append(new)
    return state, events, per_move


def step_events(key: str) -> list[ev.Event]:
    """The events of the player's moves of step ``key``."""
    index = next(i for i, s in enumerate(script.STEPS) if s.key == key)
    _, _, per_move = played()
    return [e for move, new in zip(script.MOVES, per_move, strict=True)
            if move.seat == script.YOU and move.step == index for e in new]


def test_rules_2_2_the_tutorial_deck_is_the_whole_deck_of_its_four_types():
    assert sorted(script.DECK) == cards_of_types(script.TYPES)
    assert len(script.TYPES) == 4 and len(script.OBJECTIVES) == 4  # 2 seats: players + 2 (RULES §2.1, §1.4)
    created = script.opening_events()[0]
    assert isinstance(created, ev.GameCreated) and created.landscape_mode == "starter"


def test_rules_6_7_the_script_plays_to_the_end_and_its_score_sheet():
    state, events, _ = played()
    assert state.phase == "ended"
    assert [e.reason for e in events if isinstance(e, ev.EndTriggered)] == ["torii"]
    assert state.torii_left == 0 and sum(p.closed for s in state.seats for p in s.row) == torii_supply(2)
    sheet = engine.score(state)
    you, easy = sheet.seats
    assert (you.total, easy.total, sheet.winners) == (36, 29, (0,))
    assert [o.points for o in you.objectives] == [10] and [o.points for o in easy.objectives] == [3]
    lines = script.score_explained(sheet, ["You", "Easy"], state.objectives)
    assert "You, Maple pile: top card 3 × 4 cards = 12." in lines
    assert "Shrine Path: Easy meets it (2), not its owner (You is): 3." in lines
    assert any("score nothing" in line for line in lines) and lines[-1].startswith("Totals: You 36, Easy 29.")


def test_rules_4_1_step_collect_pays_1_acorn_to_reveal_then_takes_a_whole_column():
    kinds = step_events("collect")
    assert ev.AcornsPaid(0, 1, "reveal") in kinds
    collected = [e for e in kinds if isinstance(e, ev.ColumnCollected)]
    assert [(e.leaf_type, len(e.cards)) for e in collected] == [("G", 2)]


def test_rules_4_2_step_pile_starts_a_pile_with_a_0_and_a_1():
    (play,) = [e for e in step_events("pile") if isinstance(e, ev.CardsPlayed)]
    assert [engine.CARD_NAME[c] for c in play.cards] == ["M0e", "M1c"] and play.sides[0] in ("left", "right")


def test_rules_1_5_5_1_step_waterfall_reveals_free_and_the_hand_limit_discards():
    kinds = step_events("waterfall")
    assert ev.LandscapeUsed(0, "waterfall") in kinds
    assert not any(isinstance(e, ev.AcornsPaid) and e.reason == "reveal" for e in kinds)
    (discard,) = [e for e in kinds if isinstance(e, ev.CardsDiscarded)]
    assert discard.reason == "hand limit"


def test_rules_4_2_4_4_step_mixed_earns_an_acorn_pair_and_exchanges():
    kinds = step_events("mixed")
    assert ev.AcornsGained(0, 2, "acorn pairs") in kinds
    assert ev.AcornsGained(0, 1, "exchange") in kinds


def test_rules_4_2_step_close_closes_maple_with_a_3_and_a_torii_after_the_spring():
    kinds = step_events("close")
    assert ev.LandscapeUsed(0, "spring") in kinds
    assert any(isinstance(e, ev.PileClosed) and e.seat == 0 for e in kinds)


def test_rules_4_3_step_objective_activates_shrine_path():
    assert ev.ObjectiveActivated(0, "torii") in step_events("objective")


def test_rules_6_step_end_takes_the_last_torii_and_uses_the_pier():
    kinds = step_events("end")
    assert ev.EndTriggered(0, "torii") in kinds and ev.LandscapeUsed(0, "pier") in kinds


def test_every_step_cites_rules_and_one_landscape_of_each_part_is_used():
    assert all("RULES §" in step.text for step in script.STEPS)
    used = {m.accepts[0].landscape for m in script.MOVES if isinstance(m.accepts[0], engine.UseLandscape)}
    assert used == {"spring", "waterfall", "pier"}  # sunrise, midday, dusk (RULES §1.5)


def test_progress_reads_every_point_of_the_script_from_the_events_hints_aside():
    _, events, per_move = played()
    assert script.progress(events) == len(script.MOVES)
    opening = script.opening_events()
    so_far = list(opening)
    for k, new in enumerate(per_move):
        assert script.progress(so_far) == k
        so_far += [*new, ev.HintShown(0, 50)] if k % 5 == 0 else new
    assert script.progress(so_far) == len(script.MOVES)
    assert not script.is_tutorial(engine.create_game(["You", "Easy"], seed=1))


def test_progress_accepts_a_play_given_in_another_order():
    state, events, _ = played(script.MOVES.index(next(m for m in script.MOVES if m.step == 3 and m.beat == 0)))
    reordered = engine.Play(0, (card_by_name("G0b"), card_by_name("M2b")), ("right",))
    assert script.accepts(state, script.progress(events), reordered)
    assert script.progress(events + engine.decide(state, reordered)) == script.progress(events) + 1


@pytest.fixture
def tutorial(isolated_dirs):
    table = TutorialTable.begin(data_dir=isolated_dirs)
    yield table
    table.close()


def test_a_legal_move_off_the_lesson_gets_try_and_changes_nothing(tutorial):
    before = tutorial.state.clone()
    with pytest.raises(OffScript, match="try r: reveal"):
        tutorial.submit(engine.Collect(0, ("C",)))  # legal (RULES §4.1), not this lesson's
    assert tutorial.state == before and tutorial.done == 0
    assert len(tutorial.log.loaded.events) == len(tutorial.events)


def test_an_illegal_move_gets_the_rules_reason_not_try(tutorial):
    with pytest.raises(engine.IllegalCommand, match=r"RULES §4\.2") as refused:
        tutorial.submit(engine.Play(0, (card_by_name("G3b"),)))
    assert not isinstance(refused.value, OffScript)


def test_skip_plays_the_step_and_easy_plays_the_script(tutorial):
    tutorial.skip()
    assert tutorial.lesson().number == 2 and tutorial.bot_to_move() == 1
    tutorial.submit(tutorial.bot_command(1))
    tutorial.submit(tutorial.bot_command(1))
    assert tutorial.current == 0 and tutorial.lesson().beat_text.startswith("Select Maple 0")


def test_a_left_tutorial_resumes_at_its_step(tutorial):
    while tutorial.lesson().number < 4:
        tutorial.skip() if tutorial.bot_to_move() is None else tutorial.submit(tutorial.bot_command(1))
    tutorial.record([ev.HintShown(0, 40)])
    path, done = tutorial.log.path, tutorial.done
    tutorial.close()
    resumed = TutorialTable.adopt(Table.resume(path))
    try:
        assert isinstance(resumed, TutorialTable) and resumed.done == done
        assert resumed.lesson().step.key == "mixed"
        assert len(resumed.state.seats[0].hand) <= HAND_LIMIT
    finally:
        resumed.close()


def test_a_tutorial_saved_under_older_rules_reads_back_under_its_own():
    from momiji_tui.engine.rules_data import RULES_BY_VERSION

    for version in RULES_BY_VERSION:
        events = script.opening_events("tutorial", version)
        state = engine.fold(events)
        for move in script.MOVES[:10]:
            state, new = engine.run(state, move.accepts[0])
            events += new
        assert script.is_tutorial(events) and script.progress(events) == 10, version


def test_a_tutorial_save_with_a_move_off_the_script_resumes_as_a_game_that_goes_on(tutorial):
    path = tutorial.log.path
    tutorial.close()
    edited = Table.resume(path)  # the save edited by hand: a legal move the lesson never asks for
    edited.submit(engine.Collect(0, ("C",)))
    edited.close()
    resumed = TutorialTable.adopt(Table.resume(path))
    try:
        resumed.submit(engine.EndTurn(0))  # the turn goes on: not stuck on the lesson's next move
        assert not isinstance(resumed, TutorialTable)
    finally:
        resumed.close()
