"""The hint key at the table, by Pilot with state assertions:
Hard's suggestion from the seat's own view is loaded into the move being
built (the same preview a player builds) and ⏎ plays it; Esc cancels the
thinking; a shared table without every player's agreement refuses it."""

from __future__ import annotations

import errno
import os
import random
import shutil
import threading
from functools import partial
from pathlib import Path

import pytest
from helpers import plain, scripted_bot, sentence, sit, situation, until_human_or_end, until_screen

from momiji_tui import engine
from momiji_tui.bots.advice import Advice, Choice, advise
from momiji_tui.engine import Play
from momiji_tui.engine import events as ev
from momiji_tui.session.table import BOT, HUMAN, SeatConfig, Table
from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.models.hint import CANCELLED, HINTS_OFF, THINKING
from momiji_tui.ui.models.move_draft import MoveDraft
from momiji_tui.ui.models.table_preview import preview_text
from momiji_tui.ui.screens.replay import ReplayScreen
from momiji_tui.ui.screens.table import TableScreen


def hint_table():
    """Seat 0 to move with plays, collects and a reveal open (RULES §4)."""
    return situation(hand="G0d C0b O3a Z2c K1a", row=["O0a O1a O2a", "M0c"], display="G1a G2b Z0a K3b",
                     acorns=3, seats=2)


async def wait_hint(pilot, screen, limit: int = 200) -> None:
    """Wait (bounded) until the hint's worker is done."""
    for _ in range(limit):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        if not screen.hint_thinking:
            return
    raise AssertionError("the hint never came")


async def test_hint_suggests_a_legal_command_whose_preview_matches_and_enter_plays_it_rules_8(isolated_dirs):
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot, advise=partial(advise, iterations=24))
    table = hint_table()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await sit(pilot, table)
        before = table.state.clone()
        await pilot.press("t")
        await wait_hint(pilot, screen)
        command = screen.suggestion
        assert command is not None and command in table.legal(0)
        assert table.state.hints == (1, 0)  # recorded in the log before it is shown
        assert isinstance(table.events[-1], ev.HintShown)
        assert plain(screen.query_one("#message")).startswith("Hint: ")
        # The preview is the one a player builds by selecting the same cards or column.
        by_hand = MoveDraft(0, key=screen.key, check=table.check)
        by_hand.set_view(table.view(0), table.legal(0))
        if isinstance(command, Play):
            for card in command.cards:
                by_hand.toggle_card(by_hand.hand.index(card))
            by_hand.ends = screen.draft.ends
        elif isinstance(command, engine.Collect):
            for t in command.types:
                by_hand.toggle_column(t)
        assert preview_text(screen.draft, screen.key, screen.last_move).plain == \
            preview_text(by_hand, screen.key, screen.last_move).plain
        n = len(table.events)
        await pilot.press("enter")
        await pilot.pause()
        expected = engine.decide(before, command)
        assert table.events[n:n + len(expected)] == list(expected)


async def test_hint_is_the_same_for_the_same_view(isolated_dirs):
    """The app asks with a fixed seed: the same position gives the same hint."""
    asked: list = []

    def recording(view, **kw):
        asked.append((view, kw["seed"]))
        return advise(view, iterations=8, **kw)

    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot, advise=recording)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, hint_table())
        await pilot.press("t")
        await wait_hint(pilot, screen)
        first = screen.suggestion
        # Asked again from the same view after a move and its undo (the game
        # moved on, so Hard thinks again): the same seed, the same hint.
        await pilot.press("escape", "escape", "c", "G", "enter", "u")
        await pilot.pause()
        assert repr(pilot.app.table.view(0)) == repr(asked[0][0])  # hints are out of the repr
        await pilot.press("t")
        await wait_hint(pilot, screen)
        assert len(asked) == 2 and screen.suggestion == first and asked[0][1] == asked[1][1]


async def test_esc_cancels_thinking_and_changes_nothing(isolated_dirs):
    started = threading.Event()

    def slow(view, *, seed, should_stop, **_):
        started.set()
        for _ in range(500):  # bounded: 5 s at most
            if should_stop():
                break
            threading.Event().wait(0.01)
        return Advice((Choice(engine.Reveal(0), 0.5, 1),))

    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot, advise=slow)
    table = hint_table()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, table)
        n, state = len(table.events), table.state.clone()
        await pilot.press("t")
        await pilot.pause()
        assert started.wait(5) and screen.hint_thinking
        assert plain(screen.query_one("#message")) == THINKING
        await pilot.press("escape")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        assert not screen.hint_thinking and screen.suggestion is None
        assert plain(screen.query_one("#message")) == CANCELLED
        assert len(table.events) == n and table.state == state and not screen.draft.selected


async def test_hint_refused_at_a_shared_table_without_agreement(isolated_dirs):
    asked: list = []
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot, advise=lambda *a, **k: asked.append(a))
    table = hint_table()
    table.hints_allowed = False  # what the lobby sets when not every player agreed
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, table)
        await pilot.press("t")
        await pilot.pause()
        assert sentence(screen.query_one("#message")) == "✗ " + HINTS_OFF
        assert not asked and not screen.hint_thinking and len(table.events) == 1


def fixed_advice(view, **_):
    """A fixed hint (layout only): the play of O3 C0 with two alternatives."""
    legal = engine.legal_commands(engine.determinize(view, random.Random(0)), 0)
    play = next(c for c in legal if isinstance(c, Play) and len(c.cards) == 2)
    return Advice((Choice(play, 0.62, 120), Choice(engine.Reveal(0), 0.55, 50), Choice(engine.Pass(0), 0.4, 30)))


@pytest.mark.parametrize("size", [(80, 24)], ids=["80x24"])
def test_snapshot_hint_preview(snap_compare, isolated_dirs, size):
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot, advise=fixed_advice)

    async def run_before(pilot):
        screen = await sit(pilot, hint_table())
        await pilot.press("t")
        await wait_hint(pilot, screen)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


async def test_a_hint_the_disk_refuses_is_not_shown_and_the_game_is_unchanged(isolated_dirs, monkeypatch):
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot, advise=fixed_advice_any)
    table = Table.new([SeatConfig("You", HUMAN), SeatConfig("Kaede", BOT, "easy")], seed=4, data_dir=isolated_dirs)
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_table(table, seat=0)
        await until_screen(pilot, TableScreen)
        await until_human_or_end(pilot)
        screen = app.screen
        n = len(table.events)

        def full(fd):
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(os, "fsync", full)
        await pilot.press("t")
        await wait_hint(pilot, screen)
        monkeypatch.undo()
        assert sentence(screen.query_one("#message")) == (
            "✗ Not saved: disk full. The hint was not shown (a hint is recorded in the game before it is "
            "shown). Try again, or quit.")
        assert len(table.events) == n and screen.suggestion is None and not table.state.hints


def fixed_advice_any(view, **_):
    """The first legal command, as a hint (the fault test needs no search)."""
    legal = engine.legal_commands(engine.determinize(view, random.Random(0)), view.seat)
    return Advice((Choice(legal[0], 0.5, 1),))


async def test_the_replay_title_says_the_game_used_hints(isolated_dirs):
    isolated_dirs.mkdir(parents=True, exist_ok=True)
    path = isolated_dirs / "v5.jsonl"
    shutil.copy(Path(__file__).parent.parent / "saves" / "fixtures" / "format-v5.jsonl", path)
    app = MomijiApp(isolated_dirs, replay_path=path)
    async with app.run_test(size=(120, 30)) as pilot:
        await until_screen(pilot, ReplayScreen)
        await pilot.pause()
        assert "hints: 2" in plain(app.screen.query_one("#replay-title"))


async def test_opening_a_panel_while_hard_thinks_cancels_the_hint_and_records_nothing(isolated_dirs):
    """Found by trying to break it: ``t`` then ``a`` (or ``o``, ``=``, help)
    recorded a hint nobody saw, and recording it closed the panel the player
    had opened. Now the hint is dropped when the table is left; nothing is
    recorded and the panel stays."""
    release = threading.Event()

    def held(view, *, seed, should_stop, **_):
        release.wait(5)  # bounded: until the panel is open
        return Advice((Choice(engine.Reveal(0), 0.5, 1),))

    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot, advise=held)
    table = hint_table()
    table.state.seats[0].panorama = ["lantern", "crane", "pier"]
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, table)
        n = len(table.events)
        await pilot.press("t")
        await pilot.pause()
        await pilot.press("a")
        opened = app.screen
        assert opened is not screen
        release.set()
        await pilot.app.workers.wait_for_complete()
        for _ in range(3):
            await pilot.pause()
        assert app.screen is opened  # the panel was not closed under the player
        assert sum(table.state.hints) == 0 and len(table.events) == n
        assert screen.suggestion is None


async def test_asking_again_on_the_same_position_shows_the_same_hint_without_counting_it_twice(isolated_dirs):
    """Found by trying to break it: ``t``, Esc, ``t`` on an unchanged position
    counted two hints (holding ``t`` made "hints: 24"). The hint of a
    position is shown again as it was, and counted once."""
    asked: list = []

    def counting(view, **kw):
        asked.append(view)
        return advise(view, iterations=8, **kw)

    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot, advise=counting)
    table = hint_table()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, table)
        await pilot.press("t")
        await wait_hint(pilot, screen)
        first = screen.suggestion
        await pilot.press("escape", "escape", "t")
        await wait_hint(pilot, screen)
        assert screen.suggestion == first and len(asked) == 1
        assert table.state.hints == (1, 0)
        assert plain(screen.query_one("#message")).startswith("Hint: ")


async def test_an_exchange_hint_is_previewed_as_the_exchange_not_judged_as_a_play_rules_4_4(isolated_dirs):
    """Found by a new player: a hint to exchange C2 C3 showed, under it,
    "✗ Not a play: A pile begins with a 0…" (the selected cards judged as a
    play). The preview now says what ⏎ does: the exchange."""
    table = hint_table()
    exchange = next(c for c in table.legal(0) if isinstance(c, engine.Exchange))
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot,
                    advise=lambda view, **_: Advice((Choice(exchange, 0.5, 1),)))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, table)
        await pilot.press("t")
        await wait_hint(pilot, screen)
        preview = plain(screen.query_one("#preview"))
        assert "exchange" in preview and "✗" not in preview, preview
        n = len(table.events)
        await pilot.press("enter")
        await pilot.pause()
        assert any(isinstance(e, ev.CardsDiscarded) for e in table.events[n:])


def test_hint_alternatives_name_their_cards_and_never_repeat():
    from momiji_tui.engine import Collect, UseLandscape
    from momiji_tui.engine.cards import card_by_name
    from momiji_tui.ui.models.hint import hint_message

    k1, m2, z0, g1 = (card_by_name(n) for n in ("K1a", "M2a", "Z0a", "G1a"))
    bell = [UseLandscape(0, "bell", hand_cards=(k1,), card=m2), UseLandscape(0, "bell", hand_cards=(z0,), card=g1)]
    advice = Advice((Choice(Collect(0, ("K",)), 0.75, 10), Choice(bell[0], 0.67, 5),
                     Choice(bell[0], 0.67, 5), Choice(bell[1], 0.60, 5)))
    text = hint_message(advice, "⏎").plain
    alternatives = text.split(" · or ")[1].split(", ")
    assert len(set(alternatives)) == len(alternatives) == 2, text
    assert alternatives == ["use Temple Bell (K1 for M2) (about 65%)", "use Temple Bell (Z0 for G1) (about 60%)"]
