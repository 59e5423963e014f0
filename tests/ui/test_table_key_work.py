"""The work a key press at the table does, counted (never timed).

A confirm draws each region once (the accepted command's table change
draws the new view; nothing is drawn from the old one first) and asks the
table for the legal commands once; a select measures the hand's height once;
a footer line seen before is not rendered again; a layout that resizes a
region does not make it ask for a second one.
"""

from __future__ import annotations

import pytest
from helpers import plain, scripted_bot, sit, situation
from textual.geometry import Size
from textual.widget import Widget

from momiji_tui.session.table import Table
from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.widgets.table_regions import HandRegion, YouRegion


@pytest.fixture
def app(isolated_dirs):
    return MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)


async def test_rules_4_2_a_confirmed_play_draws_the_hand_and_your_row_once(app, monkeypatch):
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, situation(hand="M0a C1a", display="O1b"))
        await pilot.press("1")
        await pilot.pause()
        hand, you = screen.query_one(HandRegion), screen.query_one(YouRegion)
        before = (hand.renders, you.renders)
        legal: list[int] = []
        original = Table.legal

        def counted(self, seat):
            legal.append(seat)
            return original(self, seat)

        monkeypatch.setattr(Table, "legal", counted)
        await pilot.press("enter")  # plays M0a alone (RULES §4.2)
        for _ in range(3):  # bounded: the table change arrives as a message
            await pilot.pause()
        assert "M0" in plain(you) and "M0" not in plain(hand)
        assert (hand.renders - before[0], you.renders - before[1]) == (1, 1)
        assert len(legal) == 1  # the new view's legal commands, asked once


async def test_a_select_measures_the_hands_height_once(app, monkeypatch):
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, situation(hand="M0a C1a", display="O1b"))
        await pilot.press("1", "1")  # the hand drawn once at its width (at mount it had none)
        await pilot.pause()
        hand = screen.query_one(HandRegion)
        measured: list[str] = []
        original = Widget.get_content_height

        def counted(self, *args, **kwargs):
            measured.append(type(self).__name__)
            return original(self, *args, **kwargs)

        monkeypatch.setattr(Widget, "get_content_height", counted)
        renders = hand.renders
        await pilot.press("1")
        await pilot.pause()
        assert hand.renders == renders + 1 and "[" in plain(hand)
        # At most once (a text whose lines all fit is measured by
        # counting its lines, without Textual's wrap: then 0).
        assert measured.count("HandRegion") <= 1


async def test_a_footer_line_seen_before_is_not_rendered_again(app):
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, situation(hand="M0a C1a", display="O1b"))
        await pilot.press("1", "1")  # selected then unselected: both footers drawn
        await pilot.pause()
        footer = screen.footer
        renders = footer.renders
        await pilot.press("1")
        await pilot.pause()
        assert "⏎ Confirm" in footer.render_line(0).text  # what the screen shows
        assert footer.renders == renders
        await pilot.press("1")
        await pilot.pause()
        assert "⏎ Confirm" not in footer.render_line(0).text and footer.renders == renders


async def test_a_footer_line_is_rendered_again_at_a_new_width(app):
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, situation(hand="M0a C1a", display="O1b"))
        await pilot.pause()
        renders = screen.footer.renders
        await pilot.resize_terminal(100, 24)
        await pilot.pause()
        await pilot.pause()
        assert screen.footer.renders > renders
        assert len(screen.footer.render_line(0).text) == 100


async def test_a_region_resized_by_a_layout_asks_for_no_second_layout(app, monkeypatch):
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, situation(hand="M0a C1a", display="O1b"))
        await pilot.pause()
        you = screen.query_one(YouRegion)
        layouts: list[str] = []
        original = Widget.refresh

        def refresh(self, *regions, layout: bool = False, **kw):
            if layout:
                layouts.append(type(self).__name__)
            return original(self, *regions, layout=layout, **kw)

        monkeypatch.setattr(Widget, "refresh", refresh)
        you.virtual_size = Size(you.virtual_size.width, you.virtual_size.height + 3)
        screen.query_one("#spacer").virtual_size = Size(5, 5)
        assert layouts == []


async def test_rules_4_2_a_play_repaints_no_region_whose_text_is_unchanged(app, monkeypatch):
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await sit(pilot, situation(hand="M0a C1a", display="O1b"))
        await pilot.press("1", "enter", "u", "1")  # every region drawn once at its width (at mount it had none)
        for _ in range(3):  # bounded: the table changes arrive as messages
            await pilot.pause()
        regions = {name: screen.query_one(f"#{name}") for name in ("status", "display", "objectives")}
        shown = {name: plain(w) for name, w in regions.items()}
        repainted: list[str | None] = []
        for cls in (Widget,):  # a region's repaint goes straight to the screen (note 11)
            original = cls.refresh

            def refresh(self, *regions, original=original, **kw):
                repainted.append(self.id)
                return original(self, *regions, **kw)

            monkeypatch.setattr(cls, "refresh", refresh)
        await pilot.press("enter")  # plays M0a: the status line and display read the same
        for _ in range(3):  # bounded: the table change arrives as a message
            await pilot.pause()
        # The objectives' race may move with a play (the standings): only
        # regions whose text reads the same must not be repainted.
        same = {name for name, w in regions.items() if plain(w) == shown[name]}
        assert {"status", "display"} <= same
        assert {"you", "hand"} <= set(repainted)
        assert not same & set(repainted)
