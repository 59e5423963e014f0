"""At 80×24, with 4 seats and the longest names
allowed (16 characters, ``-2`` and `` (guest)`` after them: session/names.py),
no line of the table is cut or wrapped: every line each region draws is on
screen whole, on one row, at the start of the game, mid-game (many piles, a
full hand, landscapes used, objectives owned) and in the last round. The
help screen's lines are never cut either.
"""

from __future__ import annotations

import dataclasses
import re

import pytest
from helpers import scripted_bot, sit, situation, until_screen

from momiji_tui.engine.cards import CARD_TYPE, CARD_VALUE
from momiji_tui.engine.rules_data import HAND_LIMIT
from momiji_tui.engine.state import Pile
from momiji_tui.session.names import GUEST_MARK
from momiji_tui.ssh.identity import MAX_DISPLAY_NAME
from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.screens.help import HelpScreen, help_markdown
from textual.widgets import MarkdownViewer
from momiji_tui.ui.widgets.table_regions import MessageLine, PreviewLine, Region

SIZE = (80, 24)
YOU = "W" * MAX_DISPLAY_NAME
OTHERS = [f"{'W' * MAX_DISPLAY_NAME}-{i}{GUEST_MARK}" for i in (2, 3, 4)]  # the longest labels


def long_names(table, names=(YOU, *OTHERS)):
    """``table`` with every seat under ``names`` (by default the longest
    names a lobby can show)."""
    for seat, name in zip(table.state.seats, names, strict=True):
        seat.name = name
    table.seats[:] = [dataclasses.replace(c, name=n) for c, n in zip(table.seats, names, strict=True)]
    return table


def start():
    return long_names(situation(hand="G0d C0b O3a Z2c K1a M0a", display="G1a G2b Z0a K3b", seats=4))


def mid_game(names=(YOU, *OTHERS), seats=4):
    """Five or six piles a seat, 12 hand cards, landscapes used, objectives owned."""
    table = situation(
        hand="G0d C0b O3a Z2c K1a M0a M1b C1a G1b K0b Z0a Z1c", seats=seats, acorns=13,
        row=["O0a O1a O2a O3b", "M0c M1a M1c", "C0a C1b C2a", "K0c K0d", "G0a G1a G2a"], closed=("O",),
        display="G2b Z1a K3b G3a M3a M2b", discard="C2c",
        other_row=["K0a K1b K2a", "Z0b Z1b Z2a Z3a", "M0b M1d M2a", "G0b G1c", "C0c C1c C1d C2b"],
        owners={"acorns": 1, "zeros": 0, "piles": seats - 1}, used=("spring", "waterfall"),
        objectives=("zeros", "acorns", "piles", "torii", "type-C", "top-sum"),
    )
    state = table.state
    for seat in state.seats[1:]:
        seat.used = ["spring"]
    deck = list(state.deck)
    for seat in state.seats[2:]:  # six piles of three each, from the deck
        for leaf in state.types:
            pile = sorted((c for c in deck if CARD_TYPE[c] == leaf), key=CARD_VALUE.__getitem__)[:3]
            if pile:
                seat.row.append(Pile(leaf, pile, False))
            deck = [c for c in deck if c not in pile]
    state.deck = tuple(deck)
    return long_names(table, names[:seats])


def mid_game_3_seats():
    return mid_game(seats=3)


def last_round():
    table = mid_game()
    table.state.end_trigger = "deck"
    table.state.deck = ()
    table.state.round = 14
    return table


def screen_rows(app) -> list[str]:
    """The screen as text, one string per row."""
    return ["".join(seg.text for seg in strip) for strip in app.screen._compositor.render_strips()]


def cut_lines(app) -> list[str]:
    """Every line a region draws that is not on screen whole, on one row (the
    message and preview lines are prose: wrapped between words, in their two
    lines)."""
    rows = screen_rows(app)
    problems = []
    for region in app.screen.query(Region):
        if not region.display or region.data is None:
            continue
        box = region.content_region
        content = region.content
        if isinstance(region, (MessageLine, PreviewLine)):
            lines = [line.plain for line in content.wrap(app.console, box.width)]
        else:
            lines = (content.plain if hasattr(content, "plain") else str(content)).split("\n")
        for i, line in enumerate(lines):
            line = line.rstrip()
            if not line:
                continue
            y = box.y + i
            shown = rows[y][box.x:box.x + box.width].rstrip() if i < box.height and y < len(rows) else ""
            if shown != line:
                problems.append(f"{region.id or type(region).__name__}: {line!r} shows as {shown!r}")
    return problems


@pytest.mark.parametrize("stage", [start, mid_game, mid_game_3_seats, last_round], ids=lambda f: f.__name__)
async def test_no_table_line_is_cut_at_80x24_with_4_seats_and_longest_names(isolated_dirs, stage):
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
    async with app.run_test(size=SIZE) as pilot:
        screen = await sit(pilot, stage())
        await pilot.pause()
        assert cut_lines(app) == []
        hand = screen.query_one("#hand").content.plain
        if len(screen.draft.hand) > HAND_LIMIT:
            assert "·" not in hand  # every hand card has its key (the 11th+ too)


async def test_no_help_line_is_cut_at_80x24(isolated_dirs):
    """Paged through whole, the help shows every word of its text whole on a
    row (Rich folds a word only when it is wider than its cell), nothing
    wider than the screen."""
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
    async with app.run_test(size=SIZE) as pilot:
        await sit(pilot, mid_game())
        await pilot.press("question_mark")
        await until_screen(pilot, HelpScreen)
        viewer = app.screen.query_one(MarkdownViewer)
        seen: list[str] = []
        for _ in range(80):  # bounded: the help is about 25 pages at 80×24
            seen += screen_rows(app)
            before = viewer.scroll_y
            await pilot.press("pagedown")
            await pilot.pause()
            if viewer.scroll_y == before:
                break
        shown = "\n".join(seen)
        words = set(re.findall(r"[A-Za-z']{4,}", help_markdown(app)))
        assert sorted(w for w in words if w not in shown) == []
        assert [w for w in app.screen.query("*") if w.region.right > SIZE[0]] == []
