"""The tournament's balance mode (``--mode random``): panoramas dealt
at random, every landscape's excess and every objective's owner-win effect."""

from __future__ import annotations

from collections import Counter

import pytest

from momiji_tui.bots.balance import MIN_BALANCE_SEATS, objective_balance
from momiji_tui.bots.balance_mode import random_panoramas
from momiji_tui.bots.tournament import GameRecord, format_result, run_tournament, summarize
from momiji_tui.bots.tournament_cli import main_tournament
from momiji_tui.engine import create_game, fold
from momiji_tui.engine.rules_data import LANDSCAPES, PARTS
from momiji_tui.engine.state import DRAFT


def dealt(deal: int, seats: int):
    state = fold(create_game([f"s{i}" for i in range(seats)], seed=deal, landscape_mode="draft"))
    return random_panoramas(state, deal)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_rules_2_1_random_panoramas_give_each_seat_one_landscape_per_part(seats):
    state = dealt(7, seats)
    assert state.phase != DRAFT
    for seat in state.seats:
        assert [LANDSCAPES[lid][0] for lid in seat.panorama] == list(PARTS)
    every = [lid for seat in state.seats for lid in seat.panorama]
    assert len(set(every)) == len(every)  # no two seats share one (RULES §2.1)
    assert [s.panorama for s in dealt(7, seats).seats] == [s.panorama for s in state.seats]  # seeded by the deal


def test_random_panoramas_deal_every_landscape_about_equally_often():
    """600 deals at 2 seats: each part's six landscapes are dealt 1,200 times
    in all, 200 each expected; seeded, so the counts are fixed."""
    counts = Counter(lid for deal in range(600) for seat in dealt(deal, 2).seats for lid in seat.panorama)
    assert set(counts) == set(LANDSCAPES)  # Koi Pond and Pine Ridge too
    assert all(160 <= n <= 240 for n in counts.values()), counts


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_balance_mode_reports_landscapes_and_objectives(seats):
    r = run_tournament(["easy", "easy:"], games=2, seats=seats, seed=3, landscape_mode="random",
                       keep_records=True)
    assert r.landscapes and r.objectives
    assert {ls.landscape for ls in r.landscapes} == {lid for rec in r.records for p in rec.panoramas for lid in p}
    revealed = {o for rec in r.records for o, _ in rec.objectives}
    assert {ob.objective for ob in r.objectives} <= revealed
    text = format_result(r)
    assert "landscapes: random" in text and "Landscape balance: too few games" in text
    assert "Objectives: win rate of the seat that activated it" in text


def test_objective_owner_effect_with_enough_games():
    """Seat 0 owns "zeros" and seat 1 "ones"; seat 0 wins 3 games of 4:
    "zeros" shows +25 points of excess and "ones" -25, both outliers."""
    n = 2 * MIN_BALANCE_SEATS
    records = [GameRecord(g, g, ("a", "a"), (10, 5), (0.0, 1.0) if g % 4 == 0 else (1.0, 0.0), (0, 0),
                          ((), ()), 10, (1, 1), ((), ()), objectives=(("zeros", 0), ("ones", 1), ("acorns", -1)))
               for g in range(n)]
    rows = {ob.objective: ob for ob in objective_balance(records, summarize(records, ["a"]))}
    assert set(rows) == {"zeros", "ones"}  # never owned: no row
    assert rows["zeros"].owners == n and rows["zeros"].rate_with == 0.75
    assert rows["zeros"].excess == pytest.approx(0.25) and rows["ones"].excess == pytest.approx(-0.25)
    assert rows["zeros"].outlier and rows["ones"].outlier


def test_tournament_cli_takes_the_random_mode_and_a_rules_version(capsys):
    assert main_tournament(["--bots", "easy,easy:", "--games", "2", "--mode", "random",
                            "--rules", "2026.11-1"]) == 0
    out = capsys.readouterr().out
    assert "landscapes: random, rules 2026.11-1" in out
    with pytest.raises(SystemExit):
        main_tournament(["--bots", "easy", "--rules", "1999.01-1"])
