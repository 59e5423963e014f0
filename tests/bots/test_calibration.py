"""The win chance's calibration (bots/calibration.py, calibration_games.py):
binning by tenths, the Brier score, Platt's fit, the shipped map, and the
positions of a small seeded set of bot games."""

from __future__ import annotations

import random

import pytest

from momiji_tui.bots import calibration as cal
from momiji_tui.bots.calibration_games import Position, game_positions


def test_tenths_bin_by_the_estimate_and_average_each_tenth():
    pairs = [(0.05, 1.0), (0.05, 0.0), (0.1, 0.0), (0.19, 1.0), (0.95, 1.0), (1.0, 1.0), (0.0, 0.5)]
    bins = cal.tenths(pairs)
    assert [(b.lo, b.count) for b in bins] == [(0.0, 3), (0.1, 2), (0.9, 2)]  # 1.0 is in the last tenth
    assert bins[0].estimate == pytest.approx(0.1 / 3) and bins[0].observed == pytest.approx(0.5)
    assert bins[1].estimate == pytest.approx(0.145) and bins[1].observed == pytest.approx(0.5)
    assert bins[2].observed == 1.0
    assert cal.tenths([]) == []


def test_brier_is_the_mean_squared_error():
    assert cal.brier([(0.8, 1.0), (0.3, 0.0), (0.5, 0.5)]) == pytest.approx((0.04 + 0.09 + 0.0) / 3)
    with pytest.raises(ValueError):
        cal.brier([])


def test_isotonic_fit_pools_violators_into_rising_blocks():
    """Pool adjacent violators: (0.1, 1) then (0.2, 0) fall, so they pool
    (rate ½), and (0.5, 0) falls below that, so it joins them (⅓); an equal
    rate pools too ((0.6, 1), (0.9, 1)): the knots' rates strictly rise."""
    pairs = [(0.1, 1.0), (0.2, 0.0), (0.5, 0.0), (0.6, 1.0), (0.9, 1.0)]
    assert cal.fit(pairs, min_block=0) == ((0.267, 0.333), (0.75, 1.0))
    knots = cal.fit(pairs, min_block=3)  # every block at least 3 pairs: one knot left
    assert knots == ((0.46, 0.6),)
    assert cal.interpolate(((0.2, 0.1), (0.6, 0.5)), 0.4) == pytest.approx(0.3)
    assert cal.interpolate(((0.2, 0.1), (0.6, 0.5)), 0.0) == 0.1  # flat beyond the ends
    assert cal.interpolate(((0.2, 0.0), (0.6, 1.0)), 0.9) == cal.HIGHEST  # never "certain"
    with pytest.raises(ValueError):
        cal.fit([])


def test_isotonic_fit_calibrates_a_seeded_miscalibrated_estimate():
    """An estimate whose true chance is raw² (too hopeful): the fitted map
    brings every tenth with 100 positions within 5 points, and scores better."""
    rng = random.Random(34)
    pairs = []
    for _ in range(4000):
        raw = rng.random()
        pairs.append((raw, 1.0 if rng.random() < raw * raw else 0.0))
    knots = cal.fit(pairs)
    assert [y for _x, y in knots] == sorted(y for _x, y in knots)
    assert len(knots) <= len(pairs) / cal.MIN_BLOCK
    fitted = [(cal.interpolate(knots, p), y) for p, y in pairs]
    assert cal.brier(fitted) < cal.brier(pairs)
    for row in cal.tenths(fitted):
        if row.count >= 100:
            assert abs(row.observed - row.estimate) < 0.05, row
    raw_gaps = [abs(r.observed - r.estimate) for r in cal.tenths(pairs)]
    assert max(raw_gaps) > 0.2  # the raw estimate was far off


def test_the_shipped_map_is_monotone_and_keeps_chances_inside_0_1():
    for seats in (2, 3, 4, 5):
        values = [cal.calibrated(k / 20, seats) for k in range(21)]
        assert values == sorted(values) and all(0.0 <= v <= 1.0 for v in values)


def test_noise_shrinks_with_the_budget_and_the_shown_figure_is_rounded_to_it():
    assert cal.noise(400) == pytest.approx(cal.noise(100) / 2)
    assert cal.cost_noise(25) == pytest.approx(2 * cal.cost_noise(100))
    with pytest.raises(ValueError):
        cal.noise(0)
    assert cal.about(0.614, 200) == 60 and cal.about(0.638, 200) == 65
    assert cal.about(0.0, 200) == 0 and cal.about(1.0, 200) == 100
    assert cal.about(0.64, 1) == 60  # one iteration: too noisy for a 5-point step


def test_positions_of_a_seeded_game_are_reproducible_and_scored():
    first = list(game_positions(2, 0, 7, per_game=3, iterations=4, noise_every=2))
    again = list(game_positions(2, 0, 7, per_game=3, iterations=4, noise_every=2))
    assert first == again and len(first) == 3
    share = {p.seat: p.won for p in first}
    assert all(share[p.seat] == p.won for p in first)  # one outcome per seat: its share of the win
    assert set(share.values()) <= {0.0, 0.5, 1.0} and sum(share.values()) <= 1.0
    assert all(0.0 <= p.raw <= 1.0 and 0.0 <= p.played <= 1.0 for p in first)
    assert [p.raw2 is not None for p in first] == [True, False, True]  # every 2nd sample: a second search
    assert [p.decision for p in first] == sorted(p.decision for p in first)


def test_the_report_bins_and_scores_a_small_seeded_set():
    rng = random.Random(3)
    samples = []
    for game in range(60):
        for k in range(5):
            raw = rng.random()
            won = 1.0 if rng.random() < raw else 0.0
            samples.append(Position(2, game, k, 0, raw, raw, won, raw if k == 0 else None, raw if k == 0 else None))
    text = cal.report(samples)
    assert "#### 2 seats: 300 positions from 60 games" in text
    assert text.count("| tenth | positions |") == 3  # raw, calibrated, calibrated by the other half's knots
    rows = [line for line in text.splitlines() if line.startswith("| 0.")]
    raw_rows = cal.tenths([(s.raw, s.won) for s in samples])
    assert len(raw_rows) == 10 and sum(r.count for r in raw_rows) == 300
    assert rows[:10] == [f"| {r.lo:.1f}–{r.lo + 0.1:.1f} | {r.count} | {r.estimate:.3f} | {r.observed:.3f} "
                         f"| {100 * (r.observed - r.estimate):+.1f} |" for r in raw_rows]
    assert f"Brier: raw {cal.brier([(s.raw, s.won) for s in samples]):.4f}" in text
    assert "Noise between two seeds (60 positions): win chance sd 0.000" in text
    with pytest.raises(ValueError):
        cal.report([])


def test_the_smallest_block_is_a_count_so_more_positions_give_finer_knots():
    """``MIN_BLOCK`` is a number of positions, not a share: the same seeded
    outcomes three times over keep blocks of the same size, so the fit has
    at least as many knots (a share would have pooled them 3× coarser)."""
    rng = random.Random(4)
    pairs = [(raw, 1.0 if rng.random() < raw * raw else 0.0) for raw in (rng.random() for _ in range(1000))]
    more = pairs + [(raw, 1.0 if rng.random() < raw * raw else 0.0) for raw, _ in pairs * 2]
    assert len(cal.fit(more)) > len(cal.fit(pairs))


def test_the_four_seat_map_follows_the_measured_table():
    """docs/BOTS.md, "Win chance calibration", 4 seats: a raw 0.45 won about
    a quarter of the time, a raw 0.9 about nine in ten."""
    assert 0.23 < cal.calibrated(0.45, 4) < 0.29
    assert cal.calibrated(0.9, 4) > 0.9
    assert cal.calibrated(0.02, 4) == cal.LOWEST
