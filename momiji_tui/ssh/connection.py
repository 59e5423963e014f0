"""One TCP connection to the SSH server: authentication (who the player is)
and the session channels it may open.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

import asyncssh

from momiji_tui.ssh.app_session import _AppSession
from momiji_tui.ssh.gate import Gate
from momiji_tui.ssh.identity import Identity
from momiji_tui.ssh.oplog import client_event
from momiji_tui.ssh.server_state import _ServerState

log = logging.getLogger("momiji_tui.ssh")


class _Connection(Gate):
    """One TCP connection: authentication and the sessions it opens (its
    admission, failure accounting and log lines are the :class:`Gate`'s).

    Every auth hook is async and yields first: on Python 3.12+ Textual puts
    the loop in eager-task mode and a hook that never suspends makes asyncssh
    drop its own auth reply (research §2.4.1).
    """

    def __init__(self, state: _ServerState) -> None:
        self._state: _ServerState = state
        self._conn: asyncssh.SSHServerConnection | None = None
        self._pending: tuple[str, str | None] | None = None
        self.identity: Identity | None = None
        self.session_count = 0
        self._no_session_timer: asyncio.TimerHandle | None = None

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        self._cancel_no_session_timer()

    # -- authentication --------------------------------------------------------
    async def begin_auth(self, username: str) -> bool:
        await asyncio.sleep(0)
        self.auth_started()
        return True

    def public_key_auth_supported(self) -> bool:
        return True

    async def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        # Called for the unsigned probe and again *before* the signature is
        # checked: only a candidate here; promoted in auth_completed().
        await asyncio.sleep(0)
        self._pending = None
        allowed = True
        if self._state.config.auth == "allowlist":
            allowed = await asyncio.to_thread(self._state.key_is_allowed, key, self.peer_ip)
        if allowed:
            self._pending = ("key", key.get_fingerprint("sha256"))
        else:
            self.auth_refused(f"key {key.get_fingerprint('sha256')} not in the allowlist")
        return allowed

    async def validate_ca_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        await asyncio.sleep(0)
        self._pending = None  # certificates are not accepted
        self.auth_refused("certificates are not accepted")
        return False

    def kbdint_auth_supported(self) -> bool:
        return self._state.config.auth == "open"

    async def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        await asyncio.sleep(0)
        guests = self._state.config.auth == "open"
        self._pending = ("guest", None) if guests else None
        return guests  # True: succeed with zero prompts

    async def validate_kbdint_response(self, username: str, responses: Sequence[str]) -> bool:
        await asyncio.sleep(0)
        return False

    def password_auth_supported(self) -> bool:
        return False

    def auth_completed(self) -> None:
        # Runs synchronously right after the successful method's own hook.
        assert self._conn is not None
        pending, self._pending = self._pending, None
        username = str(self._conn.get_extra_info("username") or "")
        if pending is None:
            log.error("auth completed without a verified method from %s", self.peer_ip)
            self._conn.close()
            return
        kind, fingerprint = pending
        if kind == "key" and fingerprint is not None:
            self.identity = Identity.from_key(fingerprint, username)
        else:
            self.identity = Identity.guest(username)
        self.logged_in()
        self._arm_no_session_timer()

    # -- sessions --------------------------------------------------------------
    def session_requested(self) -> _AppSession | bool:
        state, config = self._state, self._state.config
        if self.identity is None:
            return False
        if state.closing:
            raise asyncssh.ChannelOpenError(
                asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, "The server is shutting down."
            )
        if len(state.sessions) >= config.max_sessions:
            client_event("refused request", self.peer, "session: server full", logging.WARNING)
            raise asyncssh.ChannelOpenError(
                asyncssh.OPEN_RESOURCE_SHORTAGE, "Server full: too many players. Try later."
            )
        if state.per_ip[self.peer_ip] >= config.max_sessions_per_ip:
            client_event("refused request", self.peer, "session: per-address limit",
                         logging.WARNING)
            raise asyncssh.ChannelOpenError(
                asyncssh.OPEN_RESOURCE_SHORTAGE, "Too many sessions from your address."
            )
        self._cancel_no_session_timer()
        return _AppSession(state, self, self.identity)

    def session_ended(self) -> None:
        self.session_count -= 1
        if self.session_count == 0 and self.admitted:  # never for a connection already lost:
            self._arm_no_session_timer()  # its timer would keep it (and its app) alive

    def _arm_no_session_timer(self) -> None:
        # A logged-in connection with no session holds resources for nothing.
        self._cancel_no_session_timer()
        if self._conn is not None:
            loop = asyncio.get_running_loop()
            timeout = self._state.config.login_timeout
            self._no_session_timer = loop.call_later(timeout, self._conn.close)

    def _cancel_no_session_timer(self) -> None:
        if self._no_session_timer is not None:
            self._no_session_timer.cancel()
            self._no_session_timer = None

