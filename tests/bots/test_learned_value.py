"""The leaf value learned by self-play (bots/learned_value.py, bots/value_fit.py)."""

from __future__ import annotations

import io
import json
import random

import pytest
from bot_helpers import states_along_game

from momiji_tui.bots import make_bot
from momiji_tui.bots.hard import HardBot
from momiji_tui.bots.learned_value import COEFFICIENTS, FEATURES, features, learned_values
from momiji_tui.bots.tournament import parse_bot
from momiji_tui.bots.value_fit import Position, fit, fit_positions, game_positions, holdout_report
from momiji_tui.bots.value_fit_cli import main as value_fit_main
from momiji_tui.engine import legal_commands, run, score, view

PLAY = [s for s in states_along_game(2, "draft", 35, every=5) if s.phase == "play"]
FOUR = [s for s in states_along_game(4, "draft", 36, every=9) if s.phase == "play"]


def test_every_seat_count_has_one_coefficient_per_feature():
    assert set(COEFFICIENTS) == {2, 4}
    assert all(len(k) == len(FEATURES) for k in COEFFICIENTS.values())
    for state in (PLAY[3], FOUR[3]):
        assert all(len(features(state, i)) == len(FEATURES) for i in range(state.n_seats))
        assert len(learned_values(state)) == state.n_seats


@pytest.mark.parametrize("states", [PLAY, FOUR], ids=["2 seats", "4 seats"])
def test_more_acorns_rank_a_seat_higher(states):
    """RULES §7: an acorn is a point at the end; a seat given 4 more acorns
    than its twin position is valued higher, the other seats unchanged."""
    for state in states[::4]:
        better = state.clone()
        better.seats[0].acorns += 4
        before, after = learned_values(state), learned_values(better)
        assert after[0] > before[0] + 2.0
        assert after[1:] == before[1:]


def test_the_ended_game_is_valued_at_its_real_score():
    """RULES §7: at the end the value is the score sheet's total."""
    state = PLAY[-1]
    bot = make_bot("normal", 5)
    while state.phase != "ended":
        state, _ = run(state, bot.choose(view(state, state.current)))
    assert learned_values(state) == [float(s.total) for s in score(state).seats]


def test_fit_recovers_a_known_linear_rule():
    rng = random.Random(4)
    rows = [[rng.uniform(-3, 3) for _ in range(4)] for _ in range(200)]
    k = fit(rows, [2 * a - b + 0.5 * c + 7 * d for a, b, c, d in rows], ridge=1e-9)
    assert k == pytest.approx([2.0, -1.0, 0.5, 7.0], abs=1e-6)


def test_a_seeded_self_play_run_fits_the_same_constants_twice():
    """The generating games are seeded: the same run gives the same
    positions and so the same fitted constants."""
    runs = [[p for g in range(2) for p in game_positions(2, g, 35)] for _ in range(2)]
    assert runs[0] == runs[1]
    assert all(len(p.x) == 2 and len(p.x[0]) == len(FEATURES) and len(p.final) == 2 for p in runs[0])
    k = fit_positions(runs[0])
    assert k == fit_positions(runs[1]) and len(k) == len(FEATURES)
    _, text = holdout_report(runs[0], every=2)
    assert "learned" in text and "seat_value" in text


def test_the_cli_streams_positions_and_fits_them(capsys, monkeypatch):
    assert value_fit_main(["--seats", "2", "--games", "2", "--seed", "35"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert Position(**json.loads(lines[0])).seats == 2
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines)))
    assert value_fit_main(["--fit"]) == 0
    out = capsys.readouterr().out
    assert "difference R2" in out and "plan*time" in out


def test_hard_takes_the_learned_leaf_from_a_tournament_spec():
    level, kw = parse_bot("hard:leaf=learned:iterations=20", None)
    assert (level, kw) == ("hard", {"leaf": "learned", "iterations": 20})
    bot = make_bot(level, 3, **kw)
    state = next(s for s in PLAY if not s.turn.main_done and len(legal_commands(s, s.current)) > 1)
    v = view(state, state.current)
    command = bot.choose(v)
    assert command in legal_commands(state, state.current)
    assert make_bot(level, 3, **kw).choose(v) == command


def test_an_unknown_leaf_is_refused():
    with pytest.raises(ValueError, match="unknown leaf value"):
        HardBot(1, leaf="neural")
