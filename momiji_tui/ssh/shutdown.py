"""Stopping the server: warn every player, end every session, same status for all.

``SSHServerHandle.close`` calls :func:`end_sessions`. A session is anything
with the small :class:`Ending` interface (``app_session._AppSession``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Collection
from typing import Any, Literal, Protocol

from momiji_tui.ssh.oplog import server_event

Sleep = Callable[[float], Awaitable[Any]]


class Ending(Protocol):
    """What :func:`end_sessions` needs from a session."""

    def warn(self, text: str, seconds: float) -> None: ...
    def stop(self, reason: Literal["shutdown"]) -> None: ...
    def force_end(self) -> None: ...


def countdown_text(seconds: float) -> str:
    """The warning every player sees, e.g. ``"The server is stopping in 5 s: your game is saved."``."""
    return f"The server is stopping in {seconds:g} s: your game is saved."


async def warn_sessions(sessions: Collection[Ending], countdown: float,
                        sleep: Sleep = asyncio.sleep) -> None:
    """Show every player :func:`countdown_text` and wait ``countdown`` seconds
    (nothing when 0 or nobody is connected)."""
    if countdown > 0 and sessions:
        server_event("stopping", f"{len(sessions)} sessions warned, {countdown:g} s")
        for session in list(sessions):
            session.warn(countdown_text(countdown), countdown)
        await sleep(countdown)


async def end_sessions(
    sessions: Collection[Ending],
    tasks: Collection[asyncio.Task[Any]],
    *,
    countdown: float,
    timeout: float,
    sleep: Sleep = asyncio.sleep,
) -> int:
    """Warn, wait ``countdown`` seconds, ask every app to stop, give them
    ``timeout`` seconds, then end the sessions still open (the client gets
    the same message and exit status; the app's task is cancelled).

    Args:
        sessions: the open sessions (a snapshot is taken).
        tasks: the server's tasks (the apps' runs among them).
        countdown: seconds between the warning and the stop (0: none).
        timeout: seconds the apps get to stop.
        sleep: waits the countdown (tests inject one).

    Returns:
        int: how many sessions had to be ended by force.
    """
    await warn_sessions(sessions, countdown, sleep)
    for session in list(sessions):
        session.stop("shutdown")
    pending = {task for task in tasks if not task.done()}
    if pending:
        await asyncio.wait(pending, timeout=timeout)
    stuck = list(sessions)
    for session in stuck:
        session.force_end()
    if stuck:
        server_event("stopping", f"{len(stuck)} sessions did not stop within {timeout:g} s; "
                                 "ended")
    for task in tasks:
        if not task.done():
            task.cancel()
    return len(stuck)
