"""The tournament runner: seat rotation, statistics, reports, CLI entry."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from momiji_tui.bots.tournament import (
    format_result, lineups, parse_bot, run_tournament, to_json, wilson,
)
from momiji_tui.bots.tournament_cli import main_tournament


def test_wilson_interval_matches_known_values():
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-3)
    assert wilson(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize("bots,seats",
                         [(["a", "b"], 2), (["a", "b", "c"], 4), (["a", "b"], 3), (["a", "b", "c", "d"], 2)])
def test_rotation_gives_every_bot_every_seat_equally(bots, seats):
    rot = lineups(bots, seats)
    for seat in range(seats):
        counts = Counter(lineup[seat] for lineup in rot)
        assert set(counts) == set(bots) and len(set(counts.values())) == 1


def test_parse_bot_reads_budget_keywords():
    assert parse_bot("hard:iterations=50:horizon=0", None) == ("hard", {"iterations": 50, "horizon": 0})
    assert parse_bot("hard", {"hard": {"iterations": 9}}) == ("hard", {"iterations": 9})
    level, kw = parse_bot("hard:time_limit=0.5", None)
    assert level == "hard" and kw["time_limit"] == 0.5 and callable(kw["clock"])


def test_parse_bot_reads_evaluation_weights():
    from momiji_tui.bots import make_bot
    from momiji_tui.bots.evaluate import DEFAULT_WEIGHTS

    level, kw = parse_bot("normal:w.opponent=0.8:w.growth=0", None)
    assert level == "normal"
    assert kw["weights"].opponent == 0.8 and kw["weights"].growth == 0.0
    assert kw["weights"].play_share == DEFAULT_WEIGHTS.play_share
    assert make_bot(level, 1, **kw).weights == kw["weights"]
    from momiji_tui.bots.hard import HARD_WEIGHTS

    _, kw = parse_bot("hard:w.opponent=0.8", None)  # Hard starts from its own weights
    assert kw["weights"].opponent == 0.8 and kw["weights"].play_share == HARD_WEIGHTS.play_share
    with pytest.raises(ValueError, match="unknown evaluation weight"):
        parse_bot("normal:w.nonsense=1", None)
    with pytest.raises(ValueError, match="needs a value"):
        parse_bot("hard:iterations", None)


@pytest.mark.parametrize(("spec", "why"), [
    ("hard:iterations=many", "must be a number"),
    ("hard:leaf=3", "must be a word"),
    ("hard:nonsense=1", "takes no option"),
    ("hard:seed=4", "takes no option"),
])
def test_parse_bot_refuses_what_hard_cannot_take(spec, why):
    """A Hard option of the wrong kind is refused when the spec is read,
    not in the middle of a tournament (a word used to reach the search)."""
    with pytest.raises(ValueError, match=why):
        parse_bot(spec, None)


def test_parse_bot_keeps_words_for_hards_word_options():
    assert parse_bot("hard:leaf=evaluate:leaf_reward=product", None) == (
        "hard", {"leaf": "evaluate", "leaf_reward": "product"})


def test_small_tournament_reports_every_bot():
    r = run_tournament(["normal", "easy"], games=6, seats=3, seed=3, keep_records=True)
    by = {s.bot: s for s in r.stats}
    assert sum(len(rec.lineup) for rec in r.records) == by["normal"].games + by["easy"].games == 18
    assert sum(s.wins for s in r.stats) == pytest.approx(6)
    for s in r.stats:
        assert 0 <= s.win_ci[0] <= s.win_rate <= s.win_ci[1] <= 1
        assert s.decisions > 0 and s.p95_decision_ms >= 0
    assert r.mean_rounds > 3
    assert {ls.landscape for ls in r.landscapes} <= {
        "spring", "bamboo", "lantern", "koi", "terrace", "bell", "bridge", "stones", "pagoda",
        "teahouse", "waterfall", "moss", "pier", "crane", "pine", "fox", "moongate", "festival"}
    assert r.landscapes
    text = format_result(r)
    assert "win %" in text and "Landscape balance" in text and "normal" in text
    data = json.loads(to_json(r))
    assert data["games"] == 6 and len(data["stats"]) == 2


def test_results_do_not_depend_on_jobs():
    one = run_tournament(["easy", "normal"], games=4, seats=2, seed=11, keep_records=True)
    two = run_tournament(["easy", "normal"], games=4, seats=2, seed=11, jobs=2, keep_records=True)
    assert [r.scores for r in one.records] == [r.scores for r in two.records]


def test_starter_mode_has_no_balance_report():
    r = run_tournament(["easy", "easy:"], games=2, seats=2, seed=1, landscape_mode="starter")
    assert r.landscapes == []


def test_main_tournament_prints_table_and_json(capsys):
    assert main_tournament(["--bots", "normal,easy", "--games", "2", "--seats", "2", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "normal" in out and "easy" in out and "95% CI" in out
    assert main_tournament(["--bots", "easy,normal", "--games", "2", "--json", "--mode", "starter"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seats"] == 2 and data["landscape_mode"] == "starter"


# ------------------------------------------------ seeds and counts


def test_deal_seeds_give_games_over_rotations_distinct_deals():
    from momiji_tui.bots.tournament import deal_seeds
    from momiji_tui.engine import create_game

    seeds = deal_seeds(4, games=16, rotations=2)
    assert seeds == [4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11]
    decks = {create_game(["a", "b"], seed=s)[0].deck for s in seeds}
    assert len(decks) == 8  # 16 games / 2 rotations, every deal a different shuffle
    assert len(set(deal_seeds(0, games=7, rotations=3))) == 3  # a partial last deal still counts
    with pytest.raises(ValueError, match="0 or more"):
        deal_seeds(-4, games=16, rotations=2)


def test_rules_2_a_negative_tournament_seed_is_refused_not_folded():
    with pytest.raises(ValueError, match="0 or more"):
        run_tournament(["easy", "easy:"], games=2, seats=2, seed=-4, landscape_mode="starter")


def test_result_says_how_many_deals_were_played():
    r = run_tournament(["easy", "easy:"], games=4, seats=2, seed=9, landscape_mode="starter", keep_records=True)
    assert r.deals == 2 and len({rec.deal_seed for rec in r.records}) == 2
    assert "4 games on 2 deals" in format_result(r)
    one = run_tournament(["easy", "easy:"], games=2, seats=2, seed=9, landscape_mode="starter")
    assert "2 games on 1 deal," in format_result(one)


@pytest.mark.parametrize(("kw", "message"), [({"games": 0}, "at least 1 game"), ({"seats": 5}, "2, 3 or 4"),
                                             ({"jobs": 0}, "at least 1 job")])
def test_a_tournament_with_nothing_to_play_is_refused(kw, message):
    args = {"games": 2, "seats": 2, "seed": 0, "jobs": 1} | kw
    with pytest.raises(ValueError, match=message):
        run_tournament(["easy", "easy:"], landscape_mode="starter", **args)


def test_landscape_balance_needs_a_minimum_sample():
    """Two games give every landscape one or two seats: no z, no outlier, and
    the report says there were too few games (was: z = ±1000000, outliers)."""
    r = run_tournament(["normal", "easy"], games=2, seats=2, seed=4)
    assert r.landscapes and all(ls.z is None and not ls.outlier for ls in r.landscapes)
    text = format_result(r)
    assert "too few games" in text and "OUTLIER" not in text and "1000000" not in text
    json.loads(to_json(r))


def test_landscape_balance_tests_a_landscape_with_enough_seats():
    from momiji_tui.bots.tournament import MIN_BALANCE_SEATS, GameRecord, landscape_balance, summarize

    def record(g: int, panoramas, shares) -> GameRecord:
        return GameRecord(g, g, ("a", "a"), (1, 0), shares, (0, 0), panoramas, 5, (1, 1), ((0.1,), (0.1,)))

    n = MIN_BALANCE_SEATS
    records = [record(g, (("spring",), ("bamboo",)), (1.0, 0.0) if g % 3 else (0.0, 1.0)) for g in range(n)]
    rows = {ls.landscape: ls for ls in landscape_balance(records, summarize(records, ["a"]))}
    assert rows["spring"].seats_with == n and rows["spring"].z is not None and rows["spring"].z > 0
    few = landscape_balance(records[: n - 1], summarize(records[: n - 1], ["a"]))
    assert all(ls.z is None for ls in few)


def test_a_tournament_streamed_in_parts_reports_as_the_whole_run(capsys, monkeypatch):
    """--stream in two parts (--first-game), read back in any order by
    --report, gives the tables of one run of all the games (docs/BALANCE.md:
    long runs kept as they go)."""
    import io
    import re

    args = ["--bots", "easy,easy:", "--seats", "2", "--seed", "3", "--mode", "random"]
    assert main_tournament([*args, "--games", "8"]) == 0
    whole = capsys.readouterr().out
    assert main_tournament([*args, "--games", "4", "--stream"]) == 0
    first = capsys.readouterr().out
    assert main_tournament([*args, "--games", "4", "--first-game", "4", "--stream"]) == 0
    second = capsys.readouterr().out
    assert len(first.splitlines()) == 5 and '"header"' in first.splitlines()[0]
    monkeypatch.setattr("sys.stdin", io.StringIO(second + first + second.splitlines()[2] + "\n"))
    assert main_tournament(["--report"]) == 0
    report = capsys.readouterr().out

    def no_clock(text: str) -> str:
        text = re.sub(r"wall time [^\n]*", "", text)
        return "\n".join(line[:70] for line in text.splitlines())  # think times differ run to run
    assert no_clock(report) == no_clock(whole)
    assert "8 games on 4 deals" in report


def test_report_refuses_lines_of_two_tournaments(capsys, monkeypatch):
    import io

    assert main_tournament(["--bots", "easy,easy:", "--games", "2", "--stream"]) == 0
    a = capsys.readouterr().out
    assert main_tournament(["--bots", "easy,easy:", "--games", "2", "--seed", "9", "--stream"]) == 0
    b = capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.StringIO(a + b))
    with pytest.raises(SystemExit):
        main_tournament(["--report"])
    assert "another tournament" in capsys.readouterr().err
