"""Nothing lost, nothing crashes, at the screens: a move the disk refuses is reported and not made
(then retried); Continue opens the game played last; a game open elsewhere
or a failed start is a message, never a traceback (Pilot)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from store_faults import inject
from textual.widgets import Label, OptionList

from momiji_tui import cli
from momiji_tui.session.table import HUMAN, SeatConfig, Table
from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.screens.menu import MenuScreen
from momiji_tui.ui.screens.table import TableScreen

SEATS = [SeatConfig("Ada", HUMAN), SeatConfig("Bo", "bot", "easy")]
T0 = datetime(2020, 5, 1, 12, 0, 0, tzinfo=UTC)


def scripted_bot(level, seed=0, **_):
    from momiji_tui.bots import make_bot

    return make_bot("easy", seed=seed)


async def human_turn(pilot, limit: int = 400) -> None:
    app = pilot.app
    for _ in range(limit):
        await app.workers.wait_for_complete()
        await pilot.pause()
        table = app.table
        if table is not None and isinstance(app.screen, TableScreen) and table.bot_to_move() is None \
                and app.thinking is None:
            return
    raise AssertionError("the bots never handed the turn back")


def table_message(app) -> str:
    from momiji_tui.ui.widgets.table_regions import MessageLine

    return app.screen.query_one("#message", MessageLine).content.plain


@pytest.mark.parametrize("point", ["write", "fsync"])
async def test_disk_full_move_not_applied_and_reported(isolated_dirs, monkeypatch, point):
    table = Table.new(SEATS, seed=11, data_dir=isolated_dirs)
    table.close()
    path = table.log.path
    app = MomijiApp(isolated_dirs, resume_path=path, bot_delay=0, make_bot=scripted_bot)
    async with app.run_test(size=(100, 30)) as pilot:
        await human_turn(pilot)
        me = app.seat
        before_state = (app.table.state.seats[me].acorns, list(app.table.state.seats[me].hand))
        before_events, before_file = len(app.table.events), path.read_bytes()
        faults = inject(monkeypatch, point, "ENOSPC")
        await pilot.press("1", "2", "x")  # exchange two cards for an acorn (RULES §4.4)
        await pilot.pause()
        assert faults.hits > 0
        assert "Not saved: disk full" in table_message(app)
        assert isinstance(app.screen, TableScreen)
        assert (app.table.state.seats[me].acorns, list(app.table.state.seats[me].hand)) == before_state
        assert len(app.table.events) == before_events and path.read_bytes() == before_file
        faults.points.clear()  # space was freed: the same keys again
        await pilot.press("x")
        await pilot.pause()
        assert app.table.state.seats[me].acorns == before_state[0] + 1
        assert "Not saved" not in table_message(app)
        saved = path.read_bytes()
    assert len(saved) > len(before_file) and saved.startswith(before_file)
    assert json.loads(saved.splitlines()[-1])["type"] == "AcornsGained" or b"Exchange" in saved[len(before_file):]


async def test_continue_opens_the_game_played_last(isolated_dirs, monkeypatch):
    import momiji_tui.store.log as log_module

    ticks = iter(range(10_000))
    monkeypatch.setattr(log_module, "utc_now", lambda: T0 + timedelta(seconds=next(ticks)))
    a = Table.new(SEATS, seed=1, data_dir=isolated_dirs)
    b = Table.new(SEATS, seed=2, data_dir=isolated_dirs)
    b.close()
    from momiji_tui.bots import make_bot

    a.submit(make_bot("easy", seed=0).choose(a.view(a.current)))
    a.close()
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        first = str(app.screen.query_one(OptionList).get_option_at_index(0).prompt)
        assert a.game_id in first
        await pilot.press("c")
        await pilot.pause()
        assert app.table is not None and app.table.game_id == a.game_id


async def test_continue_a_game_open_elsewhere_is_a_message(isolated_dirs):
    other = Table.new(SEATS, seed=1, data_dir=isolated_dirs)  # another writer holds it
    try:
        app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            await pilot.press("c")
            await pilot.pause()
            assert isinstance(app.screen, MenuScreen) and app.table is None
            text = str(app.screen.query_one("#menu-message", Label).render())
            assert "already open for play" in text
    finally:
        other.close()


def test_play_on_a_full_disk_is_a_message_not_a_traceback(isolated_dirs, monkeypatch, capsys, a_terminal):
    faults = inject(monkeypatch, {"create", "write"}, "ENOSPC")
    monkeypatch.setattr(MomijiApp, "run", _run_headless)
    code = cli.main(["play", "--seats", "2", "--seed", "4"])
    err = capsys.readouterr().err
    assert faults.hits > 0
    assert code == 1 and "disk full" in err and "Traceback" not in err
    assert not list((isolated_dirs / "games").glob("*.jsonl"))


def test_resume_a_game_open_elsewhere_exits_with_a_message(isolated_dirs, monkeypatch, capsys, a_terminal):
    other = Table.new(SEATS, seed=1, data_dir=isolated_dirs)
    monkeypatch.setattr(MomijiApp, "run", _run_headless)
    try:
        code = cli.main(["resume", other.game_id])
    finally:
        other.close()
    err = capsys.readouterr().err
    assert code == 1 and "already open for play" in err and "Traceback" not in err


def _run_headless(self, *args, **kwargs):
    """``App.run`` in a headless test harness, bounded."""
    import asyncio

    async def go():
        async with self.run_test(size=(100, 30)) as pilot:
            for _ in range(20):
                await pilot.pause()
                if self._exit:
                    break
    asyncio.run(go())
    return self.return_value


async def test_saved_games_screen_on_a_read_only_dir_explains_each_game(isolated_dirs, monkeypatch):
    from store_faults import snapshot
    from test_store_issue11 import _newer_rules_save
    from textual.widgets import DataTable

    from momiji_tui.ui.screens.saved import SavedGamesScreen

    import momiji_tui.store.log as log_module

    ticks = iter(range(10_000))
    monkeypatch.setattr(log_module, "utc_now", lambda: T0 + timedelta(minutes=next(ticks)))
    good = Table.new(SEATS, seed=1, data_dir=isolated_dirs)
    good.close()
    newer = _newer_rules_save(isolated_dirs, "20200101-000000-bbbbbb")
    damaged = isolated_dirs / "games" / "20200101-000000-aaaaaa.jsonl"
    damaged.write_bytes(b'{"format":"momiji-log","format_version":3}\n{not json\n')
    before = snapshot(isolated_dirs)
    inject(monkeypatch, {"create", "link", "rename"}, "EROFS")
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, SavedGamesScreen)
        table = app.screen.query_one(DataTable)
        rows = {str(table.get_row_at(i)[0]): [str(cell) for cell in table.get_row_at(i)]
                for i in range(table.row_count)}
        assert rows[good.game_id][3] == "in progress" and rows[good.game_id][2] == "2020-05-01 12:00"
        assert rows[newer.stem][3] == "newer version" and rows[damaged.stem][3] == "damaged"
        table.move_cursor(row=list(rows).index(damaged.stem))
        await pilot.pause()
        text = str(app.screen.query_one("#saved-message", Label).render())
        assert "could not be moved aside (read-only file system)" in text
        table.move_cursor(row=list(rows).index(newer.stem))
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert app.table is None
        assert "update momiji to open it" in str(app.screen.query_one("#saved-message", Label).render())
    assert snapshot(isolated_dirs) == before


def test_an_ssh_session_holds_its_games_as_an_ssh_session(isolated_dirs):
    from momiji_tui.store import StoreError

    app = MomijiApp(isolated_dirs, hosted=True)
    table = Table.new(SEATS, seed=1, data_dir=isolated_dirs, holder=app.holder)
    try:
        with pytest.raises(StoreError, match="already open for play in an SSH session"):
            Table.resume(table.log.path)
    finally:
        table.close()


async def test_a_bot_move_the_disk_refuses_is_reported_not_made_and_tried_again(isolated_dirs, monkeypatch):
    import momiji_tui.ui.app as app_module

    seed = next(s for s in range(50) if Table.new(SEATS, seed=s).current == 1)  # the bot begins
    table = Table.new(SEATS, seed=seed, data_dir=isolated_dirs)
    table.close()
    before = table.log.path.read_bytes()
    retries = []
    faults = inject(monkeypatch, "fsync", "ENOSPC")
    app = MomijiApp(isolated_dirs, resume_path=table.log.path, bot_delay=0, make_bot=scripted_bot)
    monkeypatch.setattr(app, "set_timer", lambda delay, callback, **kw: retries.append((delay, callback)))
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(50):
            await app.workers.wait_for_complete()
            await pilot.pause()
            if retries:
                break
        assert faults.hits > 0 and retries and retries[0][0] == app_module.BOT_SAVE_RETRY
        notes = [n.message for n in app._notifications]
        assert any(m.startswith("Not saved: disk full. Bo's move was not made") for m in notes), notes
        assert table.log.path.read_bytes() == before and app.table.current == 1
        faults.points.clear()
        retries[0][1]()  # the retry timer fires
        await human_turn(pilot)
        assert len(table.log.path.read_bytes()) > len(before)


async def test_new_game_form_on_a_full_disk_says_why_and_stays(isolated_dirs, monkeypatch):
    from momiji_tui.ui.screens.new_game import NewGameScreen

    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        faults = inject(monkeypatch, "write", "ENOSPC")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert faults.hits > 0 and isinstance(app.screen, NewGameScreen) and app.table is None
        text = str(app.screen.query_one("#new-message", Label).render())
        assert text.startswith("Could not create the game: disk full ("), text
    assert not list((isolated_dirs / "games").glob("*.jsonl"))


async def test_palette_continue_during_the_game_shows_it_again_not_a_lock_message(isolated_dirs):
    """Found in a new player's trial: 'Continue last game' from the palette at
    the table refused the game being played ("already open … process <this one>")."""
    from momiji_tui.ui.commands import continue_last
    from momiji_tui.ui.screens.table import TableScreen

    Table.new(SEATS, seed=1, data_dir=isolated_dirs).close()
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
    notes: list[str] = []
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("c")
        await pilot.pause()
        table = app.table
        assert table is not None and isinstance(app.screen, TableScreen)
        app.notify = lambda message, **kw: notes.append(str(message))  # type: ignore[method-assign]
        continue_last(app, app)
        await pilot.pause()
        assert notes == [] and app.table is table and isinstance(app.screen, TableScreen)


@pytest.mark.parametrize("where", ["menu", "saved"])
async def test_the_lock_message_is_shown_whole_at_80x24(isolated_dirs, where):
    """Found in a new player's trial: at 80 columns the menu and the saved-games
    screen cut 'already open for play in …' before saying where."""
    other = Table.new(SEATS, seed=1, data_dir=isolated_dirs)
    try:
        app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            if where == "saved":
                await pilot.press("s")
                await pilot.pause()
            await pilot.press("c" if where == "menu" else "enter")
            await pilot.pause()
            label = app.screen.query_one(f"#{where}-message", Label)
            text = str(label.render())
            assert "Close it there first" in text
            visible = label.region.intersection(app.screen.region)
            assert visible == label.region, (label.region, app.screen.region)  # nothing off screen
            lines = label.render_lines(label.region.reset_offset)
            shown = " ".join("".join(seg.text for seg in line).strip() for line in lines)
            assert "Close it there first" in " ".join(shown.split()), shown
    finally:
        other.close()
