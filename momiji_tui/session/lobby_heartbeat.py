"""The shared lobby's heartbeat, beside the event loop.

Every ``heartbeat`` seconds a process of the shared lobby pushes its
``lobby_processes.expires`` ahead and reads the whole lobby (a catch-up in
case a wake-up was missed; ``docs/SERVER.md``). Both are calls to the
database, which the lobby's other calls make on the event loop; made there,
the heartbeat held every session of the worker while the database answered
(``bench_ssh --slow-callbacks``, 64 players typing with 4 bot tables: 82-161
ms a beat, 1-2 ms of it on the CPU). Here they run in a thread (the store's
calls are serialised and may come from any thread: ``SyncGameStore``), and
only the rows read are brought to the lobby on the loop.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from ..store.database.lobby_rows import LobbyRows, read_lobby
from .lobby_types import LobbyError

if TYPE_CHECKING:
    from .database_lobby import DatabaseLobby


def beat_and_read(lobby: DatabaseLobby) -> tuple[LobbyRows, int]:
    """In a thread: the heartbeat, then a read of the whole lobby; the rows
    and how many database calls the lobby made before the read. Raises
    ``LobbyError`` if the database fails."""
    lobby._beat_once()
    calls = lobby.database_calls
    return lobby._run(read_lobby), calls


async def beat(lobby: DatabaseLobby) -> None:
    """One heartbeat and catch-up, the database's part in a thread. The rows
    read are applied only if the lobby made no other database call meanwhile
    (a table created or a seat taken on the loop after the read began would
    look gone in them): then it reads again, on the loop, as before. A beat
    cancelled while its thread still talks to the database (the lobby
    stopping) finishes first: :func:`finish` waits for it."""
    call = lobby.beat_call = asyncio.ensure_future(asyncio.to_thread(beat_and_read, lobby))
    try:
        rows, calls = await asyncio.shield(call)
    except LobbyError:
        return
    lobby.refresh(rows if lobby.database_calls == calls + 1 else None)


async def finish(lobby: DatabaseLobby) -> None:
    """Wait until a beat's database calls in a thread are over (they may
    have been cancelled on the loop); their errors are already logged."""
    if lobby.beat_call is not None:
        await asyncio.gather(lobby.beat_call, return_exceptions=True)
        lobby.beat_call = None
