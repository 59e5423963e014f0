"""The deal of a shared table is secret (RULES §2.2: the deck
is shuffled; nobody may know its order). Any game with two or more humans
takes a 128-bit seed from ``secrets``; no player can choose it, and nothing a
player sees shows it until the game has ended."""

from __future__ import annotations

import secrets

import pytest
from ssh_harness import new_key, wait_app, wait_until

from momiji_tui import engine
from momiji_tui.session.lobby import Lobby, Player
from momiji_tui.ui.models.lobby_text import who_is_playing
from momiji_tui.ui.screens.create_table import CreateTableScreen

SECRET = (1 << 127) | 0x5EC2E7_0F_DEA1  # what the patched secrets.randbits(128) returns
_randbits = secrets.randbits


def fake_randbits(drawn: list[int]):
    def randbits(k: int) -> int:
        drawn.append(k)
        return SECRET if k == 128 else _randbits(k)
    return randbits


class FakeMember:
    def __init__(self, account: str, name: str) -> None:
        self.player = Player(account, name)
        self.events: list = []

    def lobby_event(self, event) -> None:
        self.events.append(event)


def test_rules_2_2_engine_setup_takes_a_128_bit_seed():
    big = (1 << 128) - 1
    one, two = engine.create_game(["a", "b"], seed=big), engine.create_game(["a", "b"], seed=big)
    assert one == two and one[0].seed == big
    assert one != engine.create_game(["a", "b"], seed=big - 1)


def test_rules_2_2_a_shared_table_deals_from_128_secret_bits(tmp_path, monkeypatch):
    drawn: list[int] = []
    monkeypatch.setattr(secrets, "randbits", fake_randbits(drawn))
    lobby = Lobby(tmp_path)
    alice, bob = FakeMember("key-alice", "alice"), FakeMember("key-bob", "bob")
    lobby.enter(alice)
    lobby.enter(bob)
    pending = lobby.create_table(alice, ["human"])
    lobby.join_table(bob, pending.table_id)
    table = lobby.live[next(iter(lobby.live))].table
    assert 128 in drawn and table.state.seed == SECRET
    # Nothing a player is shown holds it: their views, the lobby.
    shown = (repr(table.view(0)) + repr(table.view(1)) + who_is_playing(lobby.snapshot()).plain
             + repr(lobby.snapshot()) + repr(lobby.my_tables(alice.player)))
    assert str(SECRET) not in shown and f"{SECRET:x}" not in shown


def test_rules_2_2_the_creator_cannot_choose_the_seed(tmp_path):
    lobby = Lobby(tmp_path)
    alice = FakeMember("key-alice", "alice")
    lobby.enter(alice)
    with pytest.raises(TypeError):
        lobby.create_table(alice, ["human"], seed=4242)  # type: ignore[call-arg]


async def test_rules_2_2_the_create_table_form_has_no_seed_and_screens_never_show_it(
        game, clients, monkeypatch):
    monkeypatch.setattr(secrets, "randbits", fake_randbits([]))
    from momiji_tui.ui.screens.table import TableScreen

    from test_ssh_shared_table import join_first_table

    alice = await clients.terminal(game.port, username="alice", key=new_key())
    await alice.wait_for_text("Welcome, alice")
    a_app = await wait_app(game, "alice")
    alice.send("t")
    await wait_until(lambda: isinstance(a_app.screen, CreateTableScreen) and a_app.screen.is_mounted)
    assert not a_app.screen.query("#create-seed")
    assert "Seed" not in alice.text
    alice.send(b"\x13")  # ctrl+s: open the table
    bob = await clients.terminal(game.port, username="bob", key=new_key())
    await bob.wait_for_text("Welcome, bob")
    await join_first_table(bob, await wait_app(game, "bob"))
    b_app = await wait_app(game, "bob")
    await wait_until(lambda: isinstance(a_app.screen, TableScreen) and isinstance(b_app.screen, TableScreen))
    await alice.wait_for_text("Hand ")
    await bob.wait_for_text("Hand ")
    assert a_app.table.state.seed == SECRET
    for term in (alice, bob):
        raw = bytes(term.raw)
        assert str(SECRET).encode() not in raw and f"{SECRET:x}".encode() not in raw


async def test_rules_7_the_seed_is_shown_once_the_game_has_ended(isolated_dirs):
    from ssh_harness import ScriptedBot

    from momiji_tui.session.table import BOT, HUMAN, SeatConfig, Table
    from momiji_tui.ui.app import MomijiApp
    from momiji_tui.ui.screens.scoring import ScoringScreen

    table = Table.new([SeatConfig("You", HUMAN), SeatConfig("Kaede", BOT, "easy")], seed=SECRET,
                      data_dir=isolated_dirs)
    step = 0
    while not table.finished:
        table.submit(ScriptedBot(step).choose(table.view(table.current)))
        step += 1
    table.close()
    app = MomijiApp(isolated_dirs, bot_delay=0, resume_path=str(table.log.path))
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(50):
            if isinstance(app.screen, ScoringScreen):
                break
            await pilot.pause(0.02)
        legend = str(app.screen.query_one("#scoring-legend").render())
        assert f"Deal seed {SECRET}" in legend
