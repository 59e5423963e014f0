"""Sentences about an Oak say "an Oak" (the one leaf type whose name starts
with a vowel): the refusal of a play that skips a value (RULES §4.2) and the
info key's words for a 0 (RULES §4.2)."""

from __future__ import annotations

from momiji_tui.engine.cards import card_by_name
from momiji_tui.engine.placement import Misplaced, placement
from momiji_tui.ui.models.info_text import card_info


def test_rules_4_2_a_card_that_skips_a_value_on_an_oak_pile_is_refused_in_good_english():
    refused = placement({"O": 0}, set(), [card_by_name("O2a")], [], jump_step=0)
    assert isinstance(refused, Misplaced)
    assert "cannot go on an Oak 0:" in refused.message(), refused.message()
    maple = placement({"M": 0}, set(), [card_by_name("M2a")], [], jump_step=0)
    assert isinstance(maple, Misplaced) and "cannot go on a Maple 0:" in maple.message()


def test_rules_4_2_info_on_an_oak_0_says_it_starts_an_oak_pile():
    assert ": starts an Oak pile at either end of your row" in card_info(card_by_name("O0a")).plain
    assert ": starts a Maple pile at either end of your row" in card_info(card_by_name("M0a")).plain
