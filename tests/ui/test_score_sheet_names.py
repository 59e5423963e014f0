"""The score sheet's seat names are text (ui/models/score_sheet.py): a name
typed with brackets is shown as typed, never read as Rich markup."""

from __future__ import annotations

import pytest
from rich.console import Console

from momiji_tui.engine.scoring import ScoreSheet, SeatScore
from momiji_tui.ui.models.score_sheet import score_table


@pytest.mark.parametrize("width", [None, 30], ids=["wide", "narrow"])
def test_rules_7_a_seat_named_with_markup_brackets_heads_its_column_as_typed(width):
    sheet = ScoreSheet((SeatScore(0, (), 3, (), 3), SeatScore(1, (), 1, (), 1)), (0,), False)
    console = Console(record=True, width=80, color_system=None)
    console.print(score_table(sheet, ["[/]ann[b", "[Kaede]"], {}, width=width))
    shown = console.export_text()
    if width is None:  # (a narrow sheet folds each name over several lines)
        assert "[/]ann[b" in shown and "[Kaede]" in shown
