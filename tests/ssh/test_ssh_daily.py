"""The daily deal in the SSH lobby (session/daily.py): *Daily deal* opens the
day's table, committed to before the first move; two players get the same
deal and the same bots; a second try the same UTC day is refused in one
line; *Daily board* ranks the day and the week; ``--no-daily-deal`` turns it
off. The day comes from the lobby's injected clock."""

from __future__ import annotations

from datetime import UTC, datetime

from ssh_harness import new_key, wait_app, wait_until

from momiji_tui import engine
from momiji_tui.session import daily
from momiji_tui.session.table import Table
from momiji_tui.store import log as store_log
from momiji_tui.ui.screens.daily_board import DailyBoardScreen
from momiji_tui.ui.screens.table import TableScreen
from momiji_tui.ui.widgets.log_panel import LogPanel

NOON = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)


def opening(app) -> list[dict]:
    return [{k: v for k, v in engine.to_dict(e).items() if k != "game_id"} for e in app.table.events[:8]]


async def test_the_daily_deal_over_ssh_same_for_two_players_once_a_day(game, clients, monkeypatch):
    game.lobby.daily_clock = lambda: NOON
    monkeypatch.setattr(store_log, "utc_now", lambda: NOON)  # moves saved on the deal's day: ranked
    offer = daily.todays_offer(game.lobby.daily.secret(), NOON)
    alice_key = new_key()
    alice = await clients.terminal(game.port, username="alice", key=alice_key, size=(120, 40))
    await alice.wait_for_text("Daily deal")
    a_app = await wait_app(game, "alice")
    alice.send("d")
    await wait_until(lambda: isinstance(a_app.screen, TableScreen) and a_app.screen.ready
                     and bool(a_app.screen.query_one(LogPanel).entries))
    # Before any move of the player, the log's first line is the commitment (the bots may have moved).
    first = a_app.screen.query_one(LogPanel).entries[0].plain
    assert first.startswith("Deal commitment") and offer.seed_sha256 in first
    assert a_app.table.seed_sha256 == offer.seed_sha256
    assert [s.name for s in a_app.table.seats] == ["You", "Kaede", "Ginnan"]
    bob_key = new_key()
    bob = await clients.terminal(game.port, username="bob", key=bob_key, size=(120, 40))
    await bob.wait_for_text("Daily deal")
    b_app = await wait_app(game, "bob")
    bob.send("d")
    await wait_until(lambda: isinstance(b_app.screen, TableScreen))
    assert opening(a_app) == opening(b_app) and a_app.table.game_id != b_app.table.game_id
    assert str(a_app.table.state.seed) not in bytes(alice.raw).decode(errors="replace")  # the seed stays hidden
    # Bob's connection drops: *Daily deal* again continues his unfinished game, not a new one.
    bob_game = b_app.table.game_id
    await bob.close()
    await wait_until(lambda: not [a for a in game.apps() if a.player.name == "bob"])
    bob = await clients.terminal(game.port, username="bob", key=bob_key, size=(120, 40))
    # Alice finishes her game (here, played out from its save), then tries again the same UTC day: refused.
    path = a_app.table.save_file
    await alice.close()
    await wait_until(lambda: not [a for a in game.apps() if a.player.name == "alice"])
    table = Table.resume(path)
    while not table.finished:
        seat = table.current
        table.submit(table.bot_command(seat) if table.seats[seat].is_bot else table.legal(seat)[0])
    table.close()
    again = await clients.terminal(game.port, username="alice", key=alice_key, size=(120, 40))
    await again.wait_for_text("Daily deal")
    again.send("d")
    await again.wait_for_text("You have already played the daily deal of 2026-12-03 (UTC)")
    again.send("b")
    await again.wait_for_text("Today (2026-12-03):")
    assert isinstance((await wait_app(game, "alice")).screen, DailyBoardScreen)
    assert offer.seed_sha256[:40] in again.text.replace("\n", "")
    assert "alice" in again.text.split("Today (2026-12-03):")[1]  # her finished score is on the board
    await bob.wait_for_text("Daily deal")
    b_app = await wait_app(game, "bob")
    bob.send("d")
    await wait_until(lambda: isinstance(b_app.screen, TableScreen))
    assert b_app.table.game_id == bob_game


async def test_an_operator_can_turn_the_daily_deal_off(start_game, clients):
    game = await start_game(daily_deal=False)
    assert game.lobby.daily is None
    carol = await clients.terminal(game.port, username="carol", key=new_key(), size=(120, 40))
    await carol.wait_for_text("Welcome, carol")
    assert "Daily" not in carol.text  # not in the menu
    assert (await wait_app(game, "carol")).daily_board() == ["This server does not offer the daily deal."]


async def test_a_guest_cannot_take_the_daily_deal(game, clients):
    guest = await clients.terminal(game.port, username="zed", size=(120, 40))
    await guest.wait_for_text("Daily deal")
    guest.send("d")
    await guest.wait_for_text("The daily deal is for players with a key")


def test_momiji_serve_no_daily_deal_is_an_option():
    from momiji_tui.ssh.cli import build_parser

    assert build_parser().parse_args([]).daily_deal is True
    assert build_parser().parse_args(["--no-daily-deal"]).daily_deal is False
