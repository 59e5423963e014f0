"""What the ratings tests share: a lobby member that keeps what it is told,
and a shared game played to its end."""

from __future__ import annotations

from momiji_tui.engine import EndTurn, legal_commands
from momiji_tui.session.lobby import Player, Seated, SeatNews
from momiji_tui.session.table import Table


class Member:
    """A front end in the lobby that only records its events."""

    def __init__(self, account: str, name: str) -> None:
        self.player = Player(account, name)
        self.events: list = []

    def lobby_event(self, event) -> None:
        self.events.append(event)

    def seated(self) -> list[Seated]:
        return [e for e in self.events if isinstance(e, Seated)]

    def news(self) -> list[str]:
        return [e.text for e in self.events if isinstance(e, SeatNews)]


def play_to_the_end(table: Table, limit: int = 3000) -> None:
    """Any legal moves for whoever is to act (ending turns as soon as allowed),
    bot seats too, until the game ends."""
    for _ in range(limit):
        if table.finished:
            return
        legal = legal_commands(table.state, table.current)
        ends = [c for c in legal if isinstance(c, EndTurn)]
        table.submit(ends[0] if ends else legal[0])
    raise AssertionError("the game did not end")
