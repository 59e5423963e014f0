"""What the connections and sessions of one SSH server share: its settings
(:class:`_Config`), its live state (:class:`_ServerState`) and the types and
messages of the public API.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

import asyncssh
from textual.app import App

from momiji_tui.ssh.gate import Gate
from momiji_tui.ssh.identity import Identity
from momiji_tui.ssh.shutdown import Ending
from momiji_tui.ssh.throttle import Throttle

log = logging.getLogger("momiji_tui.ssh")

AuthMode = Literal["open", "keys", "allowlist"]
"""open: keys or guests; keys: any key, no guests; allowlist: keys in a file."""
EndReason = Literal["quit", "error", "disconnect", "idle", "shutdown", "slow", "flood"]
"""Why a session ended, as passed to ``on_session_end``: "quit" (the app exited
by itself; its return code is the exit status), "error" (the factory or the
app crashed; exit status 1), "disconnect" (the client went away), "idle"
(``idle_timeout``), "shutdown" (``handle.close()``), "slow" (the client did
not read its output; see ``ChannelTerminal``), "flood" (the client sent
more input than its budget for too long; see ``ChannelTerminal``)."""
AppFactory = Callable[[Identity], App[Any]]
SessionEndCallback = Callable[[Identity, EndReason], "Awaitable[None] | None"]

SHUTDOWN_EXIT_STATUS = 1
"""The exit status every client gets when the server stops (``handle.close``),
also when its app did not stop in time."""
NO_PTY_MESSAGE = b"momiji needs an interactive terminal: connect with ssh -t\r\n"
CRASH_NOTICE = "Sorry, that screen failed and was closed: you are back in the lobby, your games are saved."
"""The one line a player sees when their app failed and started again at its
first screen (the lobby)."""
MAX_APP_RESTARTS = 3
"""How many times one session's app is started again after it failed; after
that the session ends with the ``error`` message."""
_END_MESSAGES = {
    "idle": "Disconnected: no input for too long.",
    "flood": "Disconnected: too much input, too fast. Your game is saved.",
    "shutdown": "The server is shutting down; your game is saved.",
    "error": "Sorry, the game stopped because of an internal error.",
}


class HostedSession(Ending, Protocol):
    """What the server keeps of a session channel it hosts (``app_session._AppSession``)."""

    identity: Identity


@dataclass(frozen=True)
class _Config:
    app_factory: AppFactory
    auth: AuthMode
    authorized_keys: Path | None
    max_sessions: int
    max_sessions_per_ip: int
    max_connections: int
    idle_timeout: float | None
    login_timeout: float
    max_terminal_size: tuple[int, int]
    on_session_end: SessionEndCallback | None


class _ServerState:
    """Everything the connections of one server share."""

    def __init__(self, config: _Config, throttle: Throttle | None = None) -> None:
        self.config = config
        self.throttle = throttle or Throttle()
        self.sessions: set[HostedSession] = set()
        self.connections: set[Gate] = set()
        self.per_ip: Counter[str] = Counter()
        self.tasks: set[asyncio.Task[Any]] = set()
        self.closing = False

    @property
    def max_connections(self) -> int:
        return self.config.max_connections

    def spawn(
        self, coro: Coroutine[Any, Any, Any], context: contextvars.Context | None = None
    ) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro, context=context)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    def key_is_allowed(self, key: asyncssh.SSHKey, peer_ip: str) -> bool:
        """Check the authorized_keys file (re-read on every attempt)."""
        try:
            allowed = asyncssh.read_authorized_keys(str(self.config.authorized_keys))
        except ValueError:  # no valid entries
            return False
        except OSError as error:
            log.error("cannot read authorized keys: %s", error)
            return False
        return allowed.validate(key, peer_ip, peer_ip) is not None

