"""Keys typed ahead of the screen (a burst, as one SSH read or a fast
typist brings them): each key acts, in order, on the table the key before
it made, as if the player had waited for the screen (RULES §4.1's paid
reveal then a column, in Learn to play's first lesson)."""

from __future__ import annotations

from helpers import until_human_or_end, until_screen
from textual import events

from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.screens.table import TableScreen


def burst(app, *keys: str) -> None:
    """Post ``keys`` back to back, as a driver posts the keys of one read."""
    for key in keys:
        app.post_message(events.Key(key, key if len(key) == 1 else None))


async def test_a_column_key_typed_right_after_the_reveal_takes_the_revealed_column(isolated_dirs):
    app = MomijiApp(isolated_dirs, bot_delay=0, learn=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await until_screen(pilot, TableScreen)
        await until_human_or_end(pilot)
        screen = app.screen
        assert "G" not in screen.draft.present  # the Ginkgo column comes with the reveal
        burst(app, "r", "G")
        for _ in range(6):
            await pilot.pause()
        assert app.table.done == 1  # the paid reveal (RULES §4.1)
        assert screen.draft.columns == ["G"] and screen.draft.selected == []  # the column, not a Ginkgo pile
        assert not screen.message_is_error
