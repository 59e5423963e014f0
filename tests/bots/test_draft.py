"""The bots' draft (RULES §2.1): every landscape is drafted on its measured
merit, so none is never picked, and a better-measured one is picked more."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from momiji_tui.bots.draft import MERIT_2_SEATS, MERIT_4_SEATS, draft_pick, ranked_picks
from momiji_tui.engine.commands import DraftPick, EndTurn
from momiji_tui.engine.rules_data import LANDSCAPES, PARTS


@pytest.mark.parametrize("table", [MERIT_2_SEATS, MERIT_4_SEATS])
def test_rules_2_1_every_landscape_has_a_measured_merit(table):
    assert set(table) == set(LANDSCAPES)
    assert all(se > 0 for _, se in table.values())


@pytest.mark.parametrize("part", PARTS)
def test_rules_2_1_the_worst_measured_of_every_offer_is_sometimes_drafted(part):
    rng = random.Random(5)
    names = [lid for lid, (p, _, _) in LANDSCAPES.items() if p == part]
    for offer in combinations(names, 2):  # the second pick of a 2-seat round
        legal = [DraftPick(0, lid) for lid in offer]
        worst = min(offer, key=lambda lid: MERIT_2_SEATS[lid][0])
        best = max(offer, key=lambda lid: MERIT_2_SEATS[lid][0])
        picks = [draft_pick(legal, 2, rng).landscape for _ in range(600)]
        assert picks.count(worst) > 0, offer
        if MERIT_2_SEATS[best][0] - MERIT_2_SEATS[worst][0] >= 1.0:
            assert picks.count(best) > picks.count(worst), offer


def test_rules_2_1_ranked_picks_are_the_offer_with_measured_means_and_reproducible():
    legal = [DraftPick(1, lid) for lid in ("koi", "bell", "spring", "lantern")] + [EndTurn(1)]
    ranked = ranked_picks(legal, 4, random.Random(9))
    assert sorted(c.landscape for c, _ in ranked) == ["bell", "koi", "lantern", "spring"]
    assert all(mean == MERIT_4_SEATS[c.landscape][0] for c, mean in ranked)
    assert ranked == ranked_picks(legal, 4, random.Random(9))
    with pytest.raises(ValueError):
        ranked_picks([EndTurn(1)], 2, random.Random(0))
