"""A save of an older rules version replays under its own rules.

``fixtures/rules-2026.11-1.jsonl`` is a seeded Normal-vs-Normal drafted game
(deal 1) written under rules 2026.11-1, when the Tea House cost 1 acorn;
seat 0 drafts and uses it. Rules 2026.11-2 made it cost 2 (RULES §1.5,
docs/BALANCE.md), and the same bots then play another game (they diverge at
event 24), so only an engine that keeps each version's rules replays it.
"""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

from old_rules_game import bot_game

from momiji_tui.engine import events as ev
from momiji_tui.engine import fold, from_dict, score
from momiji_tui.engine.rules_data import RULES_VERSION
from momiji_tui.session.table import validate_log
from momiji_tui.store import load

FIXTURE = Path(__file__).parent / "fixtures" / "rules-2026.11-1.jsonl"
OLD = "2026.11-1"
OLD_TOTALS = [79, 54]  # the final score when the fixture was made (rules 2026.11-1)


def test_rules_1_5_old_version_save_replays_to_the_same_final_score():
    saved = load(FIXTURE, validate=validate_log)
    assert saved.header["rules_version"] == OLD != RULES_VERSION
    events = [from_dict(e) for e in saved.events]
    state = fold(events)
    assert state.rules.version == OLD and state.rules.landscape_cost("teahouse") == 1
    assert [s.total for s in score(state).seats] == OLD_TOTALS
    paid = [e for e, nxt in pairwise(events)
            if isinstance(nxt, ev.LandscapeUsed) and nxt.landscape == "teahouse"]
    assert paid == [ev.AcornsPaid(0, 1, "landscape")], "the fixture must use the Tea House at 1 acorn"


def test_rules_1_5_old_version_game_is_decided_again_under_its_own_rules():
    """Re-playing the same seeded bots under the fixture's version makes every
    decision again (``decide`` under ``GameState.rules``): the same events,
    so the same final score."""
    saved = load(FIXTURE, validate=validate_log)
    replayed = bot_game(1, OLD)
    assert replayed == [from_dict(e) for e in saved.events]
    assert [s.total for s in score(fold(replayed)).seats] == OLD_TOTALS
