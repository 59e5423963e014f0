"""The live score and the race for objectives, pure:
scored from what a seat's view shows, they equal the engine's score sheet
(RULES §7) and objective winners (RULES §1.4) at every turn of a whole game,
and at its end. Piles read as cards: every seat's points, the cards beneath
bracketed (RULES §8)."""

from __future__ import annotations

from helpers import ScriptedBot, situation

from momiji_tui.engine.scoring import objective_measure, objective_winners, score
from momiji_tui.session.table import BOT, HUMAN, SeatConfig, Table
from momiji_tui.ui.models.live_score import leaders, live_sheet
from momiji_tui.ui.models.render import pile_text, row_text
from momiji_tui.ui.models.standings import leader_text, standings
from momiji_tui.ui.models.table_heads import objective_token, objectives_line


def test_live_score_and_standings_equal_the_engine_at_every_turn_and_the_end_rules_7_and_1_4():
    seats = [SeatConfig("You", HUMAN), SeatConfig("Kaede", BOT, "easy"), SeatConfig("Ginnan", BOT, "easy"),
             SeatConfig("Sakura", BOT, "easy")]
    table = Table.new(seats, seed=5)
    step = 0
    checked = 0
    while True:
        state = table.state
        for viewer in (0, 2):
            view = table.view(viewer)
            if state.phase != "play" and not table.finished:
                continue
            sheet, truth = live_sheet(view), score(state)
            assert [s.total for s in sheet.seats] == [s.total for s in truth.seats]
            assert leaders(sheet) == truth.winners
            for standing in standings(view):
                assert standing.measures == tuple(objective_measure(standing.objective, s) for s in state.seats)
                assert set(standing.leaders) == objective_winners(standing.objective, state.seats)
                assert standing.you_meet == (viewer in standing.leaders)
                assert standing.owner == state.owners.get(standing.objective)
            checked += 1
        if table.finished:
            assert live_sheet(table.view(0)) == table.score()  # the sheet the end screen shows
            break
        table.submit(ScriptedBot(step).choose(table.view(table.current)))
        step += 1
    assert checked > 100 and any(s.owner is not None for s in standings(table.view(0)))


def test_an_objective_nobody_has_is_led_by_none_yet_rules_1_4():
    view = situation(row=["M0a M1b"], objectives=("torii", "zeros")).view(0)
    torii, zeros = standings(view)
    assert (torii.best, torii.leaders, torii.you_meet) == (0, (), False)
    assert leader_text(view, torii) == "none yet"
    assert (zeros.best, zeros.leaders, zeros.you_meet) == (1, (0,), True)
    assert leader_text(view, zeros) == "you (1)"


def test_piles_show_points_and_the_cards_beneath_bracketed_on_every_seat_rules_7_and_8():
    view = situation(row=["C0a C1b C1c C2a"], closed=(), other_row=["K0a K1b K2a K3a"]).view(0)
    mine, other = view.seats[0].row[0], view.seats[1].row[0]
    assert pile_text(mine).plain == "•C2 ×4=8 (0,1,1)"
    assert pile_text(other).plain.endswith("×4=12 (0,1,2)")
    assert pile_text(mine, memory=True).plain == "•C2 ×4=8"
    # Too narrow for every bracket: the longest piles lose theirs first, the counts stay.
    narrow = row_text(view.seats[1], width=12).plain
    assert "×4=12" in narrow and "(" not in narrow


def test_the_objectives_line_keeps_its_tokens_unchanged_and_shows_a_new_race_rules_1_4():
    """Each objective's token is kept by its race: drawing the line
    again reads the same, a token handed out is a copy (changing it changes
    no later line), and a race that changed is shown anew."""
    view = situation(row=["M0a M1b"], objectives=("torii", "zeros")).view(0)
    race = standings(view)
    first = objectives_line(view, race, 3, pagoda=False, short=False, listed=False, width=80).plain
    token = objective_token(view, 2, race[1], 12, text=True)
    token.append(" CHANGED")
    token.stylize("bold")
    assert objectives_line(view, race, 3, pagoda=False, short=False, listed=False, width=80).plain == first
    assert "CHANGED" not in objective_token(view, 2, race[1], 12, text=True).plain
    other = situation(row=["M0a M1b"], objectives=("torii", "zeros"), other_row=["K0a K1b"]).view(0)
    again = objectives_line(other, standings(other), 3, pagoda=False, short=False, listed=False, width=80).plain
    assert first.endswith("2 Fallen Seeds ▲1 you ✓ (most 0s in your piles)")
    assert again.endswith("2 Fallen Seeds ▲1 you,Bot 1 ✓ (most 0s in your piles)")
