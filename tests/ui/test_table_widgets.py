"""The table's regions are widgets that redraw only when what they show
changed: a key press in the hand leaves the other seats' rows
alone; a change of the game redraws them."""

from __future__ import annotations

import pytest
from helpers import cards, scripted_bot, sit, situation

from momiji_tui.ui.app import MomijiApp


@pytest.fixture
def app(isolated_dirs):
    return MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)


def count_redraws(widgets) -> dict[int, int]:
    """Wrap each widget's ``refresh`` and ``render`` to count calls (by id)."""
    counts = {id(w): 0 for w in widgets}
    for w in widgets:
        key = id(w)
        for name in ("refresh", "render"):
            original = getattr(w, name)

            def counted(*args, _original=original, _key=key, **kwargs):
                counts[_key] += 1
                return _original(*args, **kwargs)

            setattr(w, name, counted)
    return counts


async def test_a_key_in_the_hand_does_not_redraw_the_opponents_rows(app):
    table = situation(hand="M0a C1a O1b", row=["M0c"], other_row=["K0a K1b"], seats=3)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, table)
        await pilot.pause()
        opponents = list(screen.query("#opponents, #opponents *"))
        assert opponents
        hand = screen.query_one("#hand")
        counts = count_redraws(opponents)
        hand_counts = count_redraws([hand])
        for key in ("1", "right", "2", "escape"):
            await pilot.press(key)
            await pilot.pause()
        assert screen.selected == []  # selected 1, then 2, then Esc cleared them
        assert hand_counts[id(hand)] > 0  # the hand did redraw
        assert sum(counts.values()) == 0, counts  # the other rows did not


async def test_a_change_of_the_game_redraws_the_changed_row_only(app):
    table = situation(hand="M1a", row=["M0c"], other_row=["K0a K1b"], seats=3)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, table)
        await pilot.pause()
        rows = screen.query_one("#opponents").rows
        before = [r.renders for r in rows]
        await pilot.press("1", "enter")  # play M1 on the Maple pile: only your row changes
        await pilot.pause()
        assert app.table.state.seats[0].row[0].cards == cards("M0c M1a")
        assert [r.renders for r in rows] == before
        assert "×2" in str(screen.query_one("#you").content)
