"""Setup defects, each reproduced first: the Crane Island preview and the
menu's Continue key."""

from __future__ import annotations

from helpers import situation, until_screen
from rich.text import Text

from momiji_tui import engine
from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.models.move_draft import MoveDraft
from momiji_tui.ui.models.new_game import NewGameOptions
from momiji_tui.ui.models.table_preview import preview_text
from momiji_tui.ui.screens.menu import MenuScreen
from momiji_tui.ui.screens.table import TableScreen


def _crane_preview(hand: str, row: list[str], pick: int) -> tuple[str, object]:
    table = situation(hand=hand, row=row, panorama=("crane", "spring", "pier"))
    d = MoveDraft(0, check=table.check)
    d.set_view(table.view(0), table.legal(0))
    assert d.start_landscape("crane")
    d.toggle_card(pick)
    shown = preview_text(d, lambda binding_id: binding_id, Text("")).plain
    return shown, engine.explain(table.view(0), d.landscape_command("crane"))


def test_rules_1_5_crane_preview_refuses_an_illegal_placement_before_enter():
    # C2 onto a Cherry pile topped by a 0 jumps a value (RULES §1.5: normal placement rules).
    shown, reason = _crane_preview("C2a", ["C0a"], 0)
    assert reason is not None
    assert reason in shown
    assert "→" not in shown  # not offered as a placement


def test_rules_1_5_crane_preview_shows_a_legal_placement():
    shown, reason = _crane_preview("C1a", ["C0a"], 0)
    assert reason is None
    assert "→" in shown and "on Cherry" in shown


def _continue_shown(app: MomijiApp) -> bool:
    return any(b.binding.action == "continue" for b in app.screen.active_bindings.values())


async def test_menu_offers_continue_only_with_an_unfinished_game(isolated_dirs):
    app = MomijiApp(isolated_dirs, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until_screen(pilot, MenuScreen)
        assert not _continue_shown(app)
        app.start_game(NewGameOptions(seats=2, seed=3))
        await until_screen(pilot, TableScreen)
        await pilot.press("q")
        await until_screen(pilot, MenuScreen)
        assert _continue_shown(app)
