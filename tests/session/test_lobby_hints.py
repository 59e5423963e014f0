"""Hints at shared tables: off unless the creator allows them at
creation; whoever joins is told, so joining is agreeing."""

from __future__ import annotations

import pytest

from momiji_tui.session.lobby import Lobby, Player, Seated
from momiji_tui.session.table import Table
from momiji_tui.ui.models.lobby_text import open_table_line


class Member:
    def __init__(self, account: str, name: str) -> None:
        self.player = Player(account, name)
        self.events: list = []

    def lobby_event(self, event) -> None:
        self.events.append(event)


def _started(tmp_path, **options):
    lobby = Lobby(tmp_path, seat_wait=None)
    alice, bob = Member("key-alice", "alice"), Member("key-bob", "bob")
    lobby.enter(alice)
    lobby.enter(bob)
    lobby.deal_seed = lambda: 7
    pending = lobby.create_table(alice, ["human"], **options)
    line = open_table_line(pending)
    lobby.join_table(bob, pending.table_id)
    table = next(e for e in alice.events if isinstance(e, Seated)).table
    return lobby, pending, line, table


@pytest.mark.parametrize("allowed", [True, False])
def test_a_shared_table_allows_hints_only_if_created_so_and_joiners_are_told(tmp_path, allowed):
    lobby, pending, line, table = _started(tmp_path, hints_allowed=allowed)
    try:
        assert pending.hints_allowed is allowed
        assert table.hints_allowed is allowed
        assert ("hints allowed at this table" in line) is allowed
    finally:
        lobby.close()


def test_hints_are_off_at_a_shared_table_by_default_and_on_in_a_game_of_ones_own(tmp_path):
    lobby, _pending, line, table = _started(tmp_path)
    try:
        assert not table.hints_allowed and "hints" not in line
        assert Table.hints_allowed  # a solo game always allows hints
    finally:
        lobby.close()
