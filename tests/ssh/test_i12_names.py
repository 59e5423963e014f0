"""Names cannot impersonate. A guest is marked as a guest
wherever a name shows; a key holder's name is bound to their key (shown
bare) or, unbound, carries an 11-character key tag; two people never show
the same name in one lobby."""

from __future__ import annotations

from ssh_harness import new_key

from momiji_tui.session.lobby import Lobby, Player


class FakeMember:
    def __init__(self, player: Player) -> None:
        self.player = player
        self.events: list = []

    def lobby_event(self, event) -> None:
        self.events.append(event)


def test_two_guests_and_two_keys_with_one_name_show_four_names(tmp_path):
    lobby = Lobby(tmp_path)
    people = [
        FakeMember(Player("guest-1", "alice", True)),
        FakeMember(Player("guest-2", "alice", True)),
        FakeMember(Player("key-a", "alice", False, "SHA256:Ab3xQQQQQQQQ…")),
        FakeMember(Player("key-b", "alice", False, "SHA256:Zz9yQQQQQQQQ…")),
    ]
    for m in people:
        lobby.enter(m)
    shown = [name for name, _ in lobby.snapshot().players]
    assert sorted(shown) == sorted(["alice (guest)", "alice-2 (guest)", "alice·Ab3xQQQQQQQ", "alice·Zz9yQQQQQQQ"])
    # The same key in a second session is the same person: same name.
    again = FakeMember(Player("key-a", "alice", False, "SHA256:Ab3xQQQQQQQQ…"))
    lobby.enter(again)
    assert lobby.label(again) == "alice·Ab3xQQQQQQQ"
    # At a table, in the join list and the seats, the marks stay.
    pending = lobby.create_table(people[0], ["human"])
    lobby.join_table(people[2], pending.table_id)
    [table] = [live.table for live in lobby.live.values()]
    assert [s.name for s in table.seats] == ["alice (guest)", "alice·Ab3xQQQQQQQ"]


async def test_a_guest_cannot_pass_as_a_key_holder(game, clients):
    real = await clients.terminal(game.port, username="alice", key=new_key())
    await real.wait_for_text("Welcome, alice")
    fake = await clients.terminal(game.port, username="alice")  # no key: a guest, and alice is taken
    await fake.wait_for_text("The name alice belongs to another key: you are alice-2 (guest) here.")
    carol = await clients.terminal(game.port, username="carol", size=(100, 30))
    await carol.wait_for_text("3 online")
    await carol.wait_for_text("  alice —")
    await carol.wait_for_text("alice-2 (guest) —")
    assert "alice (guest)" not in carol.text
    # The guest opens a table: the join list says who really waits there.
    [g] = [a for a in game.apps() if a.player.is_guest and a.player.name == "alice-2"]
    game.lobby.create_table(g, ["human"])
    carol.send("j")
    await carol.wait_for_text("alice-2 (guest) · (open seat)")


async def test_a_second_guest_of_one_name_is_welcomed_as_others_see_them(game, clients):
    """Found by a new-player trial: two guests 'zed'; the second is shown as
    'zed-2 (guest)' to others, and was welcomed as 'zed'."""
    first = await clients.terminal(game.port, username="zed")
    await first.wait_for_text("Welcome, zed (guest).")
    second = await clients.terminal(game.port, username="zed")
    await second.wait_for_text("Welcome, zed-2 (guest).")
