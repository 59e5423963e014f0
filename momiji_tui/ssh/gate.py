"""The door of the SSH server: who may connect, and what is logged at it.

:class:`Gate` is the part of a connection (an ``asyncssh.SSHServer``) that
admits or refuses it on arrival (:mod:`momiji_tui.ssh.throttle`), logs how
it ends (login, failed login and why, refused username, a socket that never
tried), and refuses and logs port and socket forwarding. ``server.py``'s
connection class adds authentication and sessions on top.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Protocol

import asyncssh

from momiji_tui.ssh.oplog import Peer, client_event
from momiji_tui.ssh.throttle import Throttle


class GateState(Protocol):
    """What a gate needs from the server (``server._ServerState``)."""

    throttle: Throttle
    connections: set[Any]
    closing: bool

    @property
    def max_connections(self) -> int: ...


class Gate(asyncssh.SSHServer):
    """Admission, failure accounting and the operator log of one connection.

    Subclasses set ``self._state`` (a :class:`GateState`) before
    ``connection_made`` and ``self.identity`` once logged in, and call
    :meth:`auth_started` / :meth:`auth_refused` from their auth hooks.
    """

    _state: GateState
    _conn: asyncssh.SSHServerConnection | None
    identity: Any

    peer: Peer = ("?", 0)
    admitted = False
    _auth_started = False
    _auth_failure = ""

    @property
    def peer_ip(self) -> str:
        return self.peer[0]

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self._conn = conn
        peer = conn.get_extra_info("peername") or ("?", 0)
        self.peer = (str(peer[0]), int(peer[1]))
        state = self._state
        if state.closing:
            reason: str | None = "the server is stopping"
        elif len(state.connections) >= state.max_connections:
            reason = "too many connections"
        else:
            reason = state.throttle.admit(self.peer_ip)
        if reason is not None:
            client_event("throttled", self.peer, reason, logging.WARNING)
            asyncio.get_running_loop().call_soon(conn.close)
            return
        self.admitted = True
        state.connections.add(self)
        client_event("connect", self.peer, level=logging.DEBUG)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.admitted:
            return
        self.admitted = False
        self._state.connections.discard(self)
        logged_in = self.identity is not None
        self._state.throttle.closed(self.peer_ip, logged_in=logged_in)
        why = str(exc) if exc is not None else ""
        if logged_in:
            client_event("disconnect", self.peer, f"{self.identity.key}" + (f" ({why})" if why else ""))
        elif isinstance(exc, asyncssh.IllegalUserName):
            client_event("refused username", self.peer, why or "invalid", logging.WARNING)
        elif self._auth_started:
            reason = self._auth_failure or "no key accepted"
            client_event("auth failed", self.peer, reason + (f" ({why})" if why else ""),
                         logging.WARNING)
        else:
            client_event("no login", self.peer, why or "closed before trying to log in",
                         logging.WARNING)

    def logged_in(self) -> None:
        """Call once ``identity`` is set: frees the throttle slot, logs it."""
        self._state.throttle.logged_in(self.peer_ip)
        identity = self.identity
        client_event("login", self.peer, f"{identity.key} as {identity.display_name!r}")

    def auth_started(self) -> None:
        self._auth_started = True

    def auth_refused(self, reason: str) -> None:
        """Remember why the last attempt failed (logged if no login follows)."""
        self._auth_failure = reason

    # -- forwarding: refused (asyncssh refuses it too), but logged -------------
    def connection_requested(self, dest_host: str, dest_port: int, orig_host: str,
                             orig_port: int) -> bool:
        client_event("refused request", self.peer, f"port forwarding to {dest_host}:{dest_port}",
                     logging.WARNING)
        return False

    def unix_connection_requested(self, dest_path: str) -> bool:
        client_event("refused request", self.peer, "unix socket forwarding", logging.WARNING)
        return False

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        client_event("refused request", self.peer, f"remote port forwarding {listen_port}",
                     logging.WARNING)
        return False

    def unix_server_requested(self, listen_path: str) -> bool:
        client_event("refused request", self.peer, "remote unix socket forwarding",
                     logging.WARNING)
        return False
