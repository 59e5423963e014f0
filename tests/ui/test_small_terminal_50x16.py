"""Found by a new-player trial at 50×16, the smallest size the menu and the
saved games fit: the keys a newcomer needs stay in the menu's footer, the
saved-games detail shows every seat, and after a paid reveal (RULES §4.1)
the ends key ``s`` tells the player to collect a column."""

from __future__ import annotations

from fit_helpers import long_game, screen_lines
from helpers import situation, until_screen

from momiji_tui.engine import Reveal
from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.models.move_draft import MoveDraft
from momiji_tui.ui.screens.menu import MenuScreen
from momiji_tui.ui.screens.saved import SavedGamesScreen

SIZE = (50, 16)


async def test_at_50x16_the_menu_footer_keeps_quit_and_help(isolated_dirs):
    long_game(isolated_dirs, commands=4)  # an unfinished game: "c Continue" is offered too
    app = MomijiApp(isolated_dirs, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await until_screen(pilot, MenuScreen)
        for _ in range(20):  # bounded: the footer fills in after the screen shows (a busy CI read it blank)
            footer = screen_lines(app)[-1]
            if footer.strip():
                break
            await pilot.pause()
        assert "q Quit" in footer and "? Help" in footer and "c Continue" in footer, footer


async def test_at_50x16_the_saved_games_detail_shows_its_last_seat(isolated_dirs):
    long_game(isolated_dirs)  # finished: 4 seats with the longest names
    app = MomijiApp(isolated_dirs, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await until_screen(pilot, MenuScreen)
        await pilot.press("s")
        await until_screen(pilot, SavedGamesScreen)
        await pilot.pause()
        shown = " ".join(screen_lines(app))
        assert "Ginnan-Momijigar (easy)" in shown, "\n".join(screen_lines(app))


def test_rules_4_1_after_a_paid_reveal_the_ends_key_says_to_collect_a_column():
    table = situation(hand="M1a C0b", display="O1b", deck_top="G0a G1a K2a Z0a", acorns=2)
    table.submit(Reveal(0))
    d = MoveDraft(0, check=table.check)
    d.set_view(table.view(0), table.legal(0))
    assert d.reason("ends") == "You revealed cards for a collect: choose a column to collect first (RULES §4.1)."
    d.toggle_card(0)  # a card selected, as if to play it
    assert d.reason("ends") == "You revealed cards for a collect: choose a column to collect first (RULES §4.1)."
