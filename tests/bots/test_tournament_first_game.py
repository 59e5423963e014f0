"""``momiji tournament --first-game K``: a late part of a long run costs
what its own games cost, not a list of every earlier game's deal (a run in
parts, docs/BALANCE.md)."""

from __future__ import annotations

import tracemalloc

from momiji_tui.bots.tournament import run_tournament


def test_a_part_far_into_a_run_plays_its_game_without_holding_the_earlier_deals():
    first = 3_000_000
    tracemalloc.start()
    try:
        result = run_tournament(["easy", "easy:"], 1, 2, 5, landscape_mode="starter", first_game=first,
                                keep_records=True)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    (record,) = result.records
    assert record.game == first and record.deal_seed == 5 + first // 2  # game g plays deal seed + g // R
    assert peak < 20_000_000, f"{peak / 1e6:.0f} MB for one game"
