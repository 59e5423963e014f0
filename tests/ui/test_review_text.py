"""The review in words (ui/models/review_text.py): the sparkline's scale, a
command in the game's words, the costliest turns before every turn."""

from __future__ import annotations

from helpers import cards

from momiji_tui import engine
from momiji_tui.engine import events as ev
from momiji_tui.session.review import Review, ReviewedDecision, ReviewedTurn
from momiji_tui.ui.models.review_text import command_text, points, review_text, sparkline


def test_sparkline_is_on_an_absolute_scale():
    assert sparkline([0.0, 0.13, 0.5, 0.99, 1.0]) == "▁▂▅██"
    assert sparkline([]) == ""


def test_commands_in_the_games_words():
    # As the table writes cards (no copy letter: a new player read "K1c" as a code).
    assert command_text(engine.Play(0, tuple(cards("M2a C1b")), ("right",))) == "play M2 C1 (new pile right)"
    assert command_text(engine.Collect(0, ("M", "G"))) == "collect Maple + Ginkgo"
    assert command_text(engine.UseLandscape(0, "spring")) == "use Mountain Spring"
    assert command_text(engine.EndTurn(0)) == "end the turn"
    assert points(-0.184) == "−18" and points(0.03) == "+3" and points(0.001) == "±0"


def test_costliest_turns_come_first():
    end, collect = engine.EndTurn(0), engine.Collect(0, ("M",))
    turns = (ReviewedTurn(1, (ReviewedDecision(5, 1, end, 0.5, end, 0.5),)),
             ReviewedTurn(2, (ReviewedDecision(9, 2, collect, 0.3, end, 0.55),)))
    text = review_text(Review("g", 0, "You", 20, 100, turns)).plain
    assert text.index("Costliest turns") < text.index("Turn 2: −25 points") < text.index("Every turn")
    assert "  −25  collect Maple 30% · Hard: end the turn 55%" in text
    assert "    ✓  end the turn 50%" in text
    assert "Win chance by turn: ▅▃  first 50%, last 30%" in text


def test_a_turn_that_rounds_to_nothing_lost_is_not_among_the_costliest():
    """Found by a new player: "Costliest turns" listed turns that read
    "nothing lost" (a cost under half a point of win chance)."""
    end = engine.EndTurn(0)
    turns = (ReviewedTurn(1, (ReviewedDecision(5, 1, end, 0.500, end, 0.503),)),)
    review = Review("g", 0, "You", 20, 100, turns)
    assert review.worst == ()


def test_a_play_reads_as_the_log_put_it_not_as_its_listed_twin():
    """RULES §4.2: M0 sent right then K0 sent left into an empty row makes
    the row K0 M0, as K0 M0 both sent right does; the review searched the
    listed twin (right, right) but tells the play as the log did."""
    m0, k0 = cards("M0a K0a")
    listed = engine.Play(0, (k0, m0), ("right", "right"))
    logged = [*[ev.TurnEnded(1)] * 7, ev.CardsPlayed(0, (m0, k0), ("right", "left"), "mixed")]
    hard = engine.Collect(0, ("M",))
    turns = (ReviewedTurn(1, (ReviewedDecision(7, 1, listed, 0.4, hard, 0.5),)),)
    text = review_text(Review("g", 0, "You", 8, 100, turns), width=200, events=logged).plain
    assert "play M0 (new pile, right end), K0 (new pile, left end) 40% · Hard: collect Maple 50%" in text
    assert "right, right" not in text
    # Without the log (or when the log does not hold that play) the command is told as it is.
    assert "play K0 M0 (new piles right, right) 40%" in review_text(Review("g", 0, "You", 8, 100, turns)).plain
