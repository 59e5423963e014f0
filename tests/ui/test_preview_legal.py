"""The preview line and the refusals offer only what the engine's legal
commands allow (``engine/legal.py``): no reveal without its acorn, no
exchange with fewer than 2 cards, no objective without its cost; a
landscape refused for acorns names every landscape's cost. No Textual."""

from __future__ import annotations

from helpers import situation
from rich.text import Text

from momiji_tui.engine.state import TurnState
from momiji_tui.ui.models.move_draft import MoveDraft
from momiji_tui.ui.models.table_preview import preview_text


def shown(table) -> str:
    d = MoveDraft(0, check=table.check)
    d.set_view(table.view(0), table.legal(0))
    return preview_text(d, lambda binding_id: binding_id.removeprefix("table."), Text("")).plain


def test_rules_4_1_the_paid_reveal_is_offered_only_with_an_acorn():
    assert "reveal reveals 4 more" in shown(situation(hand="M1a M2b", display="O1b", acorns=1))
    assert "reveal" not in shown(situation(hand="M1a M2b", display="O1b", acorns=0))


def test_rules_4_4_the_exchange_is_offered_only_with_2_cards_in_hand():
    done = TurnState(main_done=True)
    assert "exchange exchanges 2 cards" in shown(situation(hand="M1a M2b", acorns=0, turn=done))
    for hand in ("", "M1a"):
        assert "exchange" not in shown(situation(hand=hand, acorns=0, turn=done))


def test_rules_4_3_after_a_midday_landscape_only_the_main_actions_allowed_are_named():
    boosted = TurnState(landscape="waterfall")
    poor = shown(situation(hand="M0a M1b", display="O1b", acorns=0, turn=boosted))
    assert "Waterfall this turn" in poor and "objective" not in poor
    assert "collect" in poor and "play" in poor
    rich = shown(situation(hand="M0a M1b", display="O1b", acorns=3, turn=boosted))
    assert "collect, play or take an objective" in rich


def test_rules_4_5_no_acorn_for_any_landscape_names_every_landscape_cost():
    table = situation(hand="M1a M2b", display="O1b", acorns=0, panorama=("spring", "waterfall", "teahouse"))
    d = MoveDraft(0, check=table.check)
    d.set_view(table.view(0), table.legal(0))
    reason = d.reason("landscape")
    assert reason is not None and "RULES §4.5" in reason
    assert "Mountain Spring" not in reason and "Tea House 2 acorns" in reason and "you have none" in reason


def test_rules_4_1_a_column_is_offered_only_when_the_display_has_one():
    assert "a column (its capital letter) to collect" in shown(situation(hand="M0a M1b", display="O1b"))
    empty = shown(situation(hand="M0a M1b", display="", acorns=0))
    assert "collect" not in empty and empty.startswith("Select cards (1–2 or click) to play.")
