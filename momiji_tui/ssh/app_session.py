"""One SSH session channel running one hosted Textual app: its terminal, its
idle timer, how it ends and what the client is told then.
"""

from __future__ import annotations

import asyncio
import contextvars
import inspect
import io
import logging
import secrets
import time
from collections.abc import Awaitable
from typing import Any, Literal, Protocol

import asyncssh
from rich.console import Console
from textual import constants
from textual.app import App

from momiji_tui.ssh.driver import FLOOD_GRACE, ChannelTerminal, clamp_terminal_size, harden_app
from momiji_tui.textual_fence import set_session_colors
from momiji_tui.ssh.identity import Identity
from momiji_tui.ssh.oplog import Peer, client_event
from momiji_tui.ssh.server_state import (
    _END_MESSAGES,
    CRASH_NOTICE,
    MAX_APP_RESTARTS,
    NO_PTY_MESSAGE,
    SHUTDOWN_EXIT_STATUS,
    EndReason,
    _ServerState,
)
from momiji_tui.ssh.terminal import ACCEPTED_ENV, DUMB_MESSAGE, TerminalProfile, terminal_profile

log = logging.getLogger("momiji_tui.ssh")


class SessionOwner(Protocol):
    """The connection a session channel belongs to (``connection._Connection``)."""

    peer: Peer
    session_count: int

    @property
    def peer_ip(self) -> str: ...

    def session_ended(self) -> None:
        """The session's slot is free (called once per session)."""


class _AppSession(asyncssh.SSHServerSession[bytes]):
    """One SSH session channel running one hosted Textual app."""

    def __init__(self, state: _ServerState, connection: SessionOwner, identity: Identity) -> None:
        self._state = state
        self._connection = connection
        self.identity = identity
        self.session_id = secrets.token_hex(4)  # names this session in the log (a player may have several)
        self._loop = asyncio.get_running_loop()
        self._chan: asyncssh.SSHServerChannel[bytes] | None = None
        self._size: tuple[int, int] | None = None
        self._term_type: str | None = None
        self._profile = TerminalProfile()
        self._terminal: ChannelTerminal | None = None
        self.app: App[Any] | None = None
        self._task: asyncio.Task[Any] | None = None
        self._reason: EndReason | Literal["refused"] | None = None
        self._app_requested = False
        self._finished = False
        self._started = time.monotonic()
        self._last_input = self._loop.time()
        self._idle_handle: asyncio.TimerHandle | None = None
        state.sessions.add(self)
        state.per_ip[connection.peer_ip] += 1
        connection.session_count += 1

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self._chan = chan
        self._arm_idle(self._state.config.idle_timeout)

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Any) -> bool:
        width, height = term_size[0], term_size[1]
        self._term_type = term_type
        self._size = clamp_terminal_size(width, height, self._state.config.max_terminal_size)
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        client_event("refused request", self._connection.peer, "exec", logging.WARNING)
        self._reason = "refused"
        return False

    def subsystem_requested(self, subsystem: str) -> bool:
        client_event("refused request", self._connection.peer, f"subsystem {subsystem[:40]!r}",
                     logging.WARNING)
        self._reason = "refused"
        return False

    def session_started(self) -> None:
        assert self._chan is not None
        if self._size is None:
            client_event("refused request", self._connection.peer, "session without a pty",
                         logging.WARNING)
            self._reason = "refused"
            self._chan.write_stderr(NO_PTY_MESSAGE)
            self._chan.exit(1)
            return
        self._profile = _client_terminal(self._chan, self._term_type)
        if self._profile.dumb:
            log.info("refused a dumb terminal from %s", self._connection.peer_ip)
            self._reason = "refused"
            self._chan.write(DUMB_MESSAGE)
            self._chan.exit(1)
            return
        self._terminal = ChannelTerminal(
            self._chan, self._size, on_overflow=lambda: self.stop("slow"), on_flood=self._flooded,
            mouse=self._profile.mouse, kitty_keys=self._profile.kitty_keys,
        )
        # A fresh context: no context variable of whoever accepted the
        # connection (or of another session's app) leaks into this app.
        self._task = self._state.spawn(self._run(), context=contextvars.Context())

    async def _run(self) -> None:
        assert self._terminal is not None
        status = 1
        errors = io.StringIO()
        try:
            self._app_requested = True
            for restart in range(MAX_APP_RESTARTS + 1):
                errors = io.StringIO()
                app = self._make_app(errors)
                if self._reason is not None:
                    break
                if restart == 0:
                    client_event("session start", self._connection.peer, "{} {}x{}, session {}".format(
                        self.identity.key, *self._terminal.size, self.session_id))
                await app.run_async(size=self._terminal.size, auto_pilot=_crash_notice if restart else None)
                status = app.return_code or 0
                failed = self._reason is None and bool(status and errors.getvalue())
                quitting = bool(getattr(app, "exiting", False))  # it failed as the player left: no restart
                if failed:  # logged once, with the session's id; the player starts again in the lobby
                    log.error("session %s of %s: the app failed (start %d of %d):\n%s", self.session_id,
                              self.identity.key, restart + 1, MAX_APP_RESTARTS + 1, errors.getvalue())
                    errors = io.StringIO()
                if not failed or quitting or self._chan is None or self._chan.is_closing():
                    self._reason = "error" if failed and self._reason is None else self._reason
                    break
            else:
                self._reason = "error"  # failed every time: the session ends with the error message
            if self._reason is None:  # the app ended on its own
                self._reason = "quit"
            elif self._reason == "shutdown":
                status = SHUTDOWN_EXIT_STATUS
            elif status == 0:
                status = 1  # ended by the server: idle, slow reader
        except Exception:
            log.exception("hosted app failed for %s (session %s)", self.identity.key, self.session_id)
            self._reason = self._reason or "error"
            status = 1
        finally:
            if errors.getvalue():
                log.error("app output for %s (session %s):\n%s", self.identity.key, self.session_id,
                          errors.getvalue())
            self.app = None
            self._close_channel(status)
            self._finish()

    def _make_app(self, errors: io.StringIO) -> App[Any]:
        """A new app for this session, drawing on its terminal; crash
        reports go to ``errors`` (for the server log), never to the player."""
        assert self._terminal is not None
        app = harden_app(self._state.config.app_factory(self.identity))
        app.driver_class = self._terminal.driver_class()
        set_session_colors(app, self._profile.color_system, self._profile.no_color)
        app.error_console = Console(file=errors, width=120, markup=False, highlight=False)
        self.app = app
        return app

    def _close_channel(self, status: int) -> None:
        chan = self._chan
        if chan is None or chan.is_closing():
            return
        if self._reason == "slow":
            chan.abort()
            return
        message = _END_MESSAGES.get(self._reason or "")
        if message:
            chan.write(f"\r\n{message}\r\n".encode())
        chan.exit(status)

    def _finish(self) -> None:
        if self._finished:
            return
        self._finished = True
        if self._idle_handle is not None:
            self._idle_handle.cancel()
        if self._terminal is not None:
            self._terminal.close()
        state, ip = self._state, self._connection.peer_ip
        state.sessions.discard(self)
        state.per_ip[ip] -= 1
        if state.per_ip[ip] <= 0:
            del state.per_ip[ip]
        self._connection.session_ended()
        reason = self._reason or "disconnect"
        elapsed = time.monotonic() - self._started
        client_event("session end", self._connection.peer,
                     f"{self.identity.key}, {reason} after {elapsed:.0f} s")
        callback = state.config.on_session_end
        if callback is None or not self._app_requested or reason == "refused":  # a refused one asked no app
            return
        try:
            result = callback(self.identity, reason)
            if inspect.isawaitable(result):
                state.spawn(_logged(result))
        except Exception:
            log.exception("on_session_end failed")

    def _flooded(self) -> None:
        client_event("input flood", self._connection.peer,
                     f"{self.identity.key}: over its input budget for {FLOOD_GRACE:g} s", logging.WARNING)
        self.stop("flood")

    def warn(self, text: str, seconds: float) -> None:
        """Show ``text`` to the player for ``seconds`` (a notification)."""
        if self.app is not None and self.app.is_running:
            self.app.notify(text, severity="warning", timeout=max(seconds, 3))

    def force_end(self) -> None:
        """The app did not stop in time: tell the client and end the channel now."""
        self._reason = self._reason or "shutdown"
        self._close_channel(SHUTDOWN_EXIT_STATUS)
        self._finish()

    def stop(self, reason: EndReason) -> None:
        """End the session: ask the app to exit, or close the channel if none runs."""
        if self._reason is None:
            self._reason = reason
        if self.app is not None:
            self.app.exit()
        elif self._task is None and self._chan is not None:
            self._chan.close()

    # -- channel events --------------------------------------------------------
    def data_received(self, data: bytes, datatype: Any) -> None:
        self._last_input = self._loop.time()
        if self._terminal is not None:
            self._terminal.feed(data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self._last_input = self._loop.time()
        size = clamp_terminal_size(width, height, self._state.config.max_terminal_size)
        if self._terminal is not None:
            self._terminal.resize(*size)
        elif self._size is not None:
            self._size = size

    def eof_received(self) -> bool:
        self.stop("disconnect")
        return True

    def connection_lost(self, exc: Exception | None) -> None:
        if self._terminal is not None:
            self._terminal.close()
        self.stop("disconnect")
        if self._task is None:
            self._finish()

    def _arm_idle(self, delay: float | None) -> None:
        if delay:
            self._idle_handle = self._loop.call_later(delay, self._check_idle)

    def _check_idle(self) -> None:
        timeout = self._state.config.idle_timeout or 0
        idle = self._loop.time() - self._last_input
        if idle >= timeout and _waiting_with_others(self.app):
            self._arm_idle(timeout)  # others wait with this player: never idle
        elif idle >= timeout:
            log.info("session idle: %s", self.identity.key)
            self.stop("idle")
        else:
            self._arm_idle(timeout - idle)


def _client_terminal(chan: asyncssh.SSHServerChannel[bytes], term_type: str | None) -> TerminalProfile:
    """The profile of this session's terminal, from the PTY's terminal type
    and the client's accepted environment variables (never the server's own
    environment; the server's ``--color-system`` is the cap)."""
    sent = chan.get_environment()
    env = {name: str(sent[name])[:64] for name in ACCEPTED_ENV if name in sent}
    return terminal_profile(term_type, env, max_color=constants.COLOR_SYSTEM)


def _waiting_with_others(app: App[Any] | None) -> bool:
    """Ask a hosted app whether its player waits with others (a seat at a
    table waiting for players, a game in progress with other people): the idle
    timeout never ends such a session. An app says so with a method
    ``waiting_with_others() -> bool``; apps without it are never exempt. An
    exception in it is logged and counts as False."""
    check = getattr(app, "waiting_with_others", None)
    if not callable(check):
        return False
    try:
        return bool(check())
    except Exception:
        log.exception("waiting_with_others failed")
        return False


async def _crash_notice(pilot: Any) -> None:
    """Tell the player of an app started again after a failure why they are back at its first screen."""
    pilot.app.notify(CRASH_NOTICE, severity="error", timeout=15)


async def _logged(awaitable: Awaitable[Any]) -> None:
    try:
        await awaitable
    except Exception:
        log.exception("on_session_end failed")

