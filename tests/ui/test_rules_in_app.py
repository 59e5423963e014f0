"""The rules of record in the app: docs/RULES.md whole, opened at the section
a message or form cites (``RULES §4.2`` → "4.2 Play leaf cards")."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from textual.widgets import Select

from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.models.paths import rules_text
from momiji_tui.ui.models.rules_sections import (
    cited_section, cited_sections, find_heading, section_headings, section_of,
    shown_section,
)
from momiji_tui.ui.screens.help import HelpScreen
from momiji_tui.ui.screens.menu import MenuScreen
from momiji_tui.ui.screens.new_game import NewGameScreen
from momiji_tui.ui.screens.rules import RulesScreen
from momiji_tui.ui.widgets.rules_viewer import RulesViewer

from helpers import scripted_bot, situation, sit, until_screen

PACKAGE = Path(__file__).resolve().parents[2] / "momiji_tui"


def shown_strings() -> list[str]:
    """Every string literal of the package that is not a docstring: what the
    app can show (messages, labels, form options; f-strings' pieces too)."""
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = set()
        for node in ast.walk(tree):
            for stmt in getattr(node, "body", []) if isinstance(getattr(node, "body", None), list) else []:
                if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
                    docstrings.add(id(stmt.value))
        out += [node.value for node in ast.walk(tree)
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings]
    return out


def cited_in_app() -> set[str]:
    return {s for text in shown_strings() for s in cited_sections(text)}


def test_rules_text_is_the_rules_of_record():
    assert rules_text() == (PACKAGE.parent / "docs" / "RULES.md").read_text(encoding="utf-8")


def test_citations_and_headings_are_read():
    assert cited_sections("You may exchange only once per turn (RULES §3, §4.4).") == ["3", "4.4"]
    assert cited_section("a column (RULES §4.1).") == "4.1"
    assert cited_section("Draft (RULES §2.1)") == "2.1"
    assert cited_section("no citation §4 here") is None
    assert section_of("4.2 Play leaf cards") == "4.2"
    assert section_of("3. The turn") == "3"
    assert section_of("Rules versions") is None
    assert section_headings("## 3. The turn\n### 3.1 x\n## Notes\n") == {"3": "3. The turn", "3.1": "3.1 x"}


def test_every_rules_section_the_app_cites_is_in_the_rules():
    """Grep of the package's shown strings: each ``RULES §N`` names a heading of docs/RULES.md."""
    cited = cited_in_app()
    assert {"2.1", "3", "4.1", "4.2", "5.1", "7", "8"} <= cited  # the scan finds the app's messages
    headings = section_headings(rules_text())
    assert sorted(s for s in cited if shown_section(headings, s) is None) == []
    from momiji_tui.ui.screens.help import help_markdown  # the help cites "§4.2" without "RULES"

    in_help = set(re.findall(r"§\s*(\d+(?:\.\d+)*)", help_markdown()))
    assert {"4.4", "4.3", "1.5"} <= in_help
    assert sorted(s for s in in_help if shown_section(headings, s) is None) == []
    # RULES §5 numbers its steps without headings: §5.1 shows §5, whose first step is the hand limit
    assert shown_section(headings, "5.1") == "5" and "1. **Hand limit**" in rules_text()


async def test_every_cited_section_opens_in_the_app(tmp_path):
    """Each cited section scrolls the in-app rules to its heading (one rules
    screen, every section in turn: mounting the rules costs seconds)."""
    app = MomijiApp(tmp_path, bot_delay=0, make_bot=scripted_bot)
    headings = section_headings(rules_text())
    async with app.run_test(size=(80, 24)) as pilot:
        await until_screen(pilot, MenuScreen)
        app.push_screen(RulesScreen("8"))
        await until_screen(pilot, RulesScreen)
        viewer = app.screen.query_one(RulesViewer)
        for _ in range(50):
            if viewer.shown == "8":
                break
            await pilot.pause()
        for section in sorted(cited_in_app()):
            assert viewer.goto_section(section), section
            await pilot.pause()
            assert viewer.shown == shown_section(headings, section)
            block, _ = find_heading([(t, b) for _l, t, b in viewer.document.table_of_contents], section)
            assert viewer.document.query_one(f"#{block}").region.y <= 2, section  # the heading is at the top


async def test_f2_opens_the_section_the_message_line_cites(tmp_path):
    app = MomijiApp(tmp_path, bot_delay=0, make_bot=scripted_bot)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, situation(hand="M1a C2a", display="G1a G2a", acorns=0))
        await pilot.press("r")  # a reveal costs an acorn (RULES §4.1)
        await pilot.pause()
        cited = cited_section(screen.message.plain)
        assert cited == "4.1", screen.message.plain
        await pilot.press("f2")
        await until_screen(pilot, RulesScreen)
        viewer = app.screen.query_one(RulesViewer)
        for _ in range(50):
            if viewer.shown is not None:
                break
            await pilot.pause()
        assert viewer.shown == shown_section(section_headings(rules_text()), cited)
        await pilot.press("escape")
        assert app.screen is screen


async def test_f2_on_the_new_game_form_opens_the_focused_fields_section(tmp_path):
    app = MomijiApp(tmp_path, bot_delay=0, make_bot=scripted_bot)
    async with app.run_test(size=(80, 24)) as pilot:
        await until_screen(pilot, MenuScreen)
        await pilot.press("n")
        await until_screen(pilot, NewGameScreen)
        for field, section in (("#landscapes", "2.1"), ("#memory", "8")):
            app.screen.query_one(field, Select).focus()
            await pilot.pause()
            await pilot.press("f2")
            await until_screen(pilot, RulesScreen)
            viewer = app.screen.query_one(RulesViewer)
            for _ in range(50):
                if viewer.shown is not None:
                    break
                await pilot.pause()
            assert viewer.shown == section
            await pilot.press("escape")
            await until_screen(pilot, NewGameScreen)


async def test_the_help_opens_the_full_rules_and_a_key_pressed_at_once_is_safe(tmp_path):
    """F2 in the help opens the rules at the top; keys pressed before the
    document is filled neither crash nor lose the section asked for."""
    app = MomijiApp(tmp_path, bot_delay=0, make_bot=scripted_bot, new_game=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await until_screen(pilot, MenuScreen)
        await pilot.press("question_mark", "f2")
        await until_screen(pilot, RulesScreen)
        assert app.screen_stack[-2].__class__ is HelpScreen
        assert app.screen.query_one(RulesViewer).shown is None
        await pilot.press("escape", "escape")
        await until_screen(pilot, MenuScreen)
        viewer = RulesViewer(rules_text(), section="6")
        assert viewer.goto_section("7") is False and viewer.pending == "7"  # not mounted yet: kept
        app.push_screen(RulesScreen("5.1"))
        await pilot.press("f2")  # closes it, maybe before the document is filled
        await until_screen(pilot, MenuScreen)



def test_how_to_play_explains_the_exchange_objectives_and_landscapes():
    """The help's how to play: what an exchange is (RULES §4.4), that only
    activated objectives score, owner 10 and others 3 (RULES §4.3, §7), and
    each starter landscape named in full with its power (RULES §1.5)."""
    from momiji_tui.engine.rules_data import LANDSCAPES, STARTER_PANORAMA
    from momiji_tui.ui.models.help_text import RULES as HOW_TO_PLAY

    text = " ".join(HOW_TO_PLAY.split())
    assert "## Exchange (§4.4)" in HOW_TO_PLAY
    assert "discard 2 cards from your hand (face up, to the discard pile) and gain 1 acorn" in text
    assert "**Only activated objectives score**" in text
    assert "its owner scores 10, every other seat meeting it scores 3" in text
    rules = " ".join(rules_text().split())
    assert "Only activated objectives score." in rules and "the owner 10, every other seat 3" in rules
    assert "Discard 2 cards from your hand (face up, to the discard pile) and gain 1 acorn." in rules
    for lid in STARTER_PANORAMA:
        _part, name, power = LANDSCAPES[lid]
        assert f"**{name}**" in text and power in text


async def test_rules_missing_from_the_installation_are_reported_not_a_crash(tmp_path, monkeypatch):
    """A broken installation (docs/RULES.md absent): the rules screen says so."""
    import momiji_tui.ui.screens.rules as rules_screen

    def missing() -> str:
        raise FileNotFoundError("momiji-tui's docs/RULES.md is missing from this installation")

    monkeypatch.setattr(rules_screen, "rules_text", missing)
    app = MomijiApp(tmp_path, bot_delay=0, make_bot=scripted_bot)
    async with app.run_test(size=(80, 24)) as pilot:
        await until_screen(pilot, MenuScreen)
        app.push_screen(RulesScreen("4.2"))
        await until_screen(pilot, RulesScreen)
        viewer = app.screen.query_one(RulesViewer)
        for _ in range(50):
            if viewer.document.table_of_contents:
                break
            await pilot.pause()
        assert [t for _l, t, _b in viewer.document.table_of_contents] == ["The rules could not be read"]
        assert viewer.shown is None
        await pilot.press("escape")
        await until_screen(pilot, MenuScreen)
