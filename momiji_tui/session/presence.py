"""Whether a lobby member is waiting for other people: such a
player is never closed for being idle, since waiting is what they are asked
to do. The SSH server asks the app (``waiting_with_others()``), the app asks
here."""

from __future__ import annotations

from .lobby import Lobby, Member
from .table import Table


def waiting_with_others(lobby: Lobby, member: Member, table: Table | None) -> bool:
    """True while ``member`` sits at a table waiting for players, or at a
    shared game in progress (not finished) where another human owns a seat.
    False in the lobby, in solo games and at a finished game. Never raises."""
    if lobby.pending_of(member) is not None:
        return True
    live = lobby.live.get(table.game_id) if table is not None else None
    if live is None or live.table is not table or table.finished:
        return False
    me = member.player.account_id
    return any(seat.human and seat.account_id != me for seat in live.seats)
