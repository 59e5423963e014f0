"""A guest is named the same wherever their name shows: at the table, the heads
of other seats and the turn line say ``zed-2 (guest)`` as the lobby and the
move log do; only a line too narrow for the whole name drops the mark."""

from __future__ import annotations

import dataclasses

from helpers import situation

from momiji_tui.ui.models.render import short_label
from momiji_tui.ui.models.table_heads import opponent_head


def test_a_guest_at_a_shared_table_keeps_the_guest_mark_in_the_heads_when_it_fits():
    table = situation(hand="G0d C0b", display="G1a G2b", seats=2)
    seat = dataclasses.replace(table.view(0).seats[1], name="zed-2 (guest)")
    head = opponent_head(seat, current=False, level=None, score=0, leads=False, width=80)
    assert "zed-2 (guest)" in head.plain
    assert short_label("zed-2 (guest)", 16) == "zed-2 (guest)"
    assert short_label("WWWWWWWWWWWWWWWW-2 (guest)", 10) == "WWWWWW…W-2"  # too narrow: no mark, cut
