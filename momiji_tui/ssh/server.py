"""The SSH server: one hosted Textual app per SSH session, all on one loop.

Security model (see shared/research/ssh-hosting.md §3): any public key is an
identity (its SHA256 fingerprint, trusted only once auth completes); clients
without a key may enter as guests in "open" mode; no shell, exec, subsystem,
SFTP/SCP, forwarding or agent; sessions without a PTY are refused; sessions
are limited in number (total, per IP), login time and idle time.

The parts, one concept each: :mod:`~momiji_tui.ssh.server_state` (settings
and shared state), :mod:`~momiji_tui.ssh.connection` (authentication),
:mod:`~momiji_tui.ssh.app_session` (one app per session channel); here the
listener and its handle.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import asyncssh
from textual import constants

from momiji_tui.ssh import algorithms
from momiji_tui.textual_fence import print_capture_disabled, session_colors_enabled
from momiji_tui.ssh.connection import _Connection
from momiji_tui.ssh.driver import MAX_TERMINAL_SIZE
from momiji_tui.ssh.hostkey import HOST_KEY_FILENAME, default_data_dir, load_or_create_host_key
from momiji_tui.ssh.identity import Identity
from momiji_tui.ssh.server_state import (
    SHUTDOWN_EXIT_STATUS,
    AppFactory,
    AuthMode,
    EndReason,
    SessionEndCallback,
    _Config,
    _ServerState,
)
from momiji_tui.ssh.shutdown import end_sessions, warn_sessions
from momiji_tui.ssh.throttle import Throttle, ThrottleLimits

__all__ = [  # the names other modules and the tests import from here
    "SHUTDOWN_EXIT_STATUS", "AppFactory", "AuthMode", "EndReason", "SSHServerHandle",
    "SessionEndCallback", "_Config", "_Connection", "_ServerState", "guard_task_factory",
    "start_server",
]

log = logging.getLogger("momiji_tui.ssh")


def guard_task_factory(loop: asyncio.AbstractEventLoop) -> None:
    """Make ``loop`` ignore requests to install ``asyncio.eager_task_factory``.

    Textual 8 installs it on Python 3.12+ in ``App.run_async``, which changes
    the loop shared with asyncssh and can hang logins (research §2.4.1). The
    async, yielding auth hooks already avoid the hang; this is the second
    guard. A no-op on Python 3.11, and (with a warning) on loops whose
    methods cannot be replaced, such as uvloop's.
    """
    eager = getattr(asyncio, "eager_task_factory", None)
    setter = loop.set_task_factory
    if eager is None or getattr(setter, "_momiji_guard", False):
        return

    def set_task_factory(factory: Any) -> None:
        if factory is not eager:
            setter(factory)

    set_task_factory._momiji_guard = True  # type: ignore[attr-defined]
    try:
        loop.set_task_factory = set_task_factory  # type: ignore[method-assign]
    except AttributeError:
        log.warning("cannot guard the task factory of %r", loop)
        return
    if loop.get_task_factory() is eager:
        setter(None)


class SSHServerHandle:
    """A running server, returned by :func:`start_server`.

    Attributes:
        host: the address listened on.
        host_key_fingerprint: ``"SHA256:..."`` of the host key, to publish.
    """

    def __init__(
        self,
        acceptor: asyncssh.SSHAcceptor,
        state: _ServerState,
        host: str,
        host_key_fingerprint: str,
        cleanup: contextlib.ExitStack,
    ) -> None:
        self._acceptor = acceptor
        self._state = state
        self._cleanup = cleanup
        self._closed = asyncio.Event()
        self.host = host
        self.host_key_fingerprint = host_key_fingerprint

    @property
    def port(self) -> int:
        """The TCP port listened on (the real one when started with port 0)."""
        return int(self._acceptor.get_port())

    @property
    def closing(self) -> bool:
        """True once :meth:`close` has been called."""
        return self._state.closing

    @property
    def session_count(self) -> int:
        """Sessions open now (channels accepted and not yet cleaned up)."""
        return len(self._state.sessions)

    def identities(self) -> list[Identity]:
        """The identities of the sessions open now."""
        return [session.identity for session in self._state.sessions]

    async def close(self, timeout: float = 10.0, *, countdown: float = 0.0,
                    sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep) -> None:
        """Stop listening, end every session, close every connection.

        Every app is first warned ``countdown`` seconds ahead (waited with
        ``sleep``), then asked to exit and gets ``timeout`` seconds to do so;
        each client is told the server is shutting down and gets
        :data:`SHUTDOWN_EXIT_STATUS`, also when its app did not stop in time
        (see :func:`momiji_tui.ssh.shutdown.end_sessions`). Safe to call twice.
        """
        state = self._state
        if state.closing:
            await self._closed.wait()
            return
        state.closing = True
        self._acceptor.close()
        await end_sessions(state.sessions, state.tasks, countdown=countdown, timeout=timeout,
                           sleep=sleep)
        for connection in list(state.connections):
            if connection._conn is not None:
                connection._conn.close()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._acceptor.wait_closed(), timeout)
        self._cleanup.close()
        self._closed.set()
        log.info("SSH server closed")

    async def warn(self, countdown: float,
                   sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep) -> None:
        """Tell every player the server stops in ``countdown`` seconds, and wait them."""
        await warn_sessions(self._state.sessions, countdown, sleep)

    async def serve_forever(self) -> None:
        """Wait until :meth:`close` has finished."""
        await self._closed.wait()

    async def __aenter__(self) -> SSHServerHandle:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


async def start_server(
    *,
    app_factory: AppFactory,
    host: str = "127.0.0.1",
    port: int = 2222,
    host_key_path: str | Path | None = None,
    data_dir: str | Path | None = None,
    auth: AuthMode = "open",
    authorized_keys: str | Path | None = None,
    max_sessions: int = 100,
    max_sessions_per_ip: int = 4,
    max_connections: int | None = None,
    idle_timeout: float | None = 900.0,
    login_timeout: float = 10.0,
    max_terminal_size: tuple[int, int] = MAX_TERMINAL_SIZE,
    on_session_end: SessionEndCallback | None = None,
    throttle: ThrottleLimits | Throttle | None = None,
    reuse_port: bool = False,
) -> SSHServerHandle:
    """Start an SSH server that runs ``app_factory(identity)`` per session.

    Args:
        app_factory: builds a new, not yet running App for each session. It
            runs on the server's loop; never share one App between sessions.
        host, port: where to listen; port 0 picks a free port (see
            ``handle.port``).
        host_key_path: the host key file; default
            ``<data_dir>/ssh_host_ed25519_key``, created (0600) if missing.
        data_dir: default ``$MOMIJI_DATA_DIR`` or the platformdirs data dir.
        auth: "open" (keys, else guest), "keys" (any key, no guests) or
            "allowlist" (only keys in ``authorized_keys``, re-read per login).
        max_sessions, max_sessions_per_ip: open sessions, total and per
            client address; more are refused with a message.
        max_connections: open TCP connections, logged in or not (default
            twice ``max_sessions``, at least 16).
        idle_timeout: seconds without input or resize before a session is
            closed; None disables it. Never while the app's
            ``waiting_with_others()`` says True (see ``_waiting_with_others``).
        login_timeout: seconds from connecting to logging in, and from
            logging in (or ending the last session) to opening a session.
        throttle: limits on connections not logged in yet (per address, in
            all with random early drop, failed logins per address; see
            :mod:`momiji_tui.ssh.throttle`), or a ready :class:`Throttle`
            (tests inject its clock and random generator). Default:
            ``ThrottleLimits()``.
        max_terminal_size: (width, height) in cells that larger client
            sizes are clamped to.
        reuse_port: listen with ``SO_REUSEPORT``, beside other processes on
            the same port (``momiji serve --workers``; see
            :mod:`momiji_tui.ssh.workers`).
        on_session_end: called with the identity and an :data:`EndReason`
            once for every session whose app_factory was called, after its
            app has stopped and its slot is free; may be async. Exceptions
            are logged.

    Raises:
        ValueError: an invalid option.
        HostKeyError: the host key file is unusable.
        OSError: the address cannot be listened on.
    """
    if auth not in ("open", "keys", "allowlist"):
        raise ValueError(f"auth must be 'open', 'keys' or 'allowlist', not {auth!r}")
    keys_path = Path(authorized_keys) if authorized_keys is not None else None
    if auth == "allowlist" and (keys_path is None or not keys_path.is_file()):
        raise ValueError("auth='allowlist' needs authorized_keys, an existing file")
    if not 0 <= port <= 65535:
        raise ValueError(f"port out of range: {port}")
    if min(max_sessions, max_sessions_per_ip, login_timeout, *max_terminal_size) <= 0:
        raise ValueError("limits, timeouts and sizes must be positive")
    if host_key_path is None:
        host_key_path = Path(data_dir or default_data_dir()) / HOST_KEY_FILENAME
    host_key = load_or_create_host_key(Path(host_key_path))
    fingerprint = host_key.get_fingerprint("sha256")
    config = _Config(
        app_factory=app_factory,
        auth=auth,
        authorized_keys=keys_path,
        max_sessions=max_sessions,
        max_sessions_per_ip=max_sessions_per_ip,
        max_connections=max_connections or max(2 * max_sessions, 16),
        idle_timeout=idle_timeout or None,
        login_timeout=login_timeout,
        max_terminal_size=max_terminal_size,
        on_session_end=on_session_end,
    )
    _check_textual_environment()
    if logging.getLogger("asyncssh").level == logging.NOTSET:
        asyncssh.set_log_level(logging.WARNING)
    guard_task_factory(asyncio.get_running_loop())
    if not isinstance(throttle, Throttle):
        throttle = Throttle(throttle)
    state = _ServerState(config, throttle)
    cleanup = contextlib.ExitStack()
    cleanup.enter_context(print_capture_disabled())
    cleanup.enter_context(session_colors_enabled())  # colours per client
    try:
        acceptor = await asyncssh.listen(
            host,
            port,
            server_factory=lambda: _Connection(state),
            server_host_keys=[host_key],
            server_version="momiji",
            encoding=None,
            line_editor=False,
            allow_pty=True,
            agent_forwarding=False,
            x11_forwarding=False,
            allow_scp=False,
            gss_host=None,
            password_auth=False,
            kbdint_auth=auth == "open",
            login_timeout=login_timeout,
            keepalive_interval=30,
            keepalive_count_max=3,
            window=64 * 1024,
            reuse_port=reuse_port or None,
            **algorithms.listen_options(),
        )
    except BaseException:
        cleanup.close()
        raise
    handle = SSHServerHandle(acceptor, state, host, fingerprint, cleanup)
    log.info("SSH server on %s:%d, auth=%s, host key %s", host, handle.port, auth, fingerprint)
    if auth == "open" and host not in ("127.0.0.1", "::1", "localhost"):
        log.warning("auth='open' on a public address: anyone can connect as a guest")
    return handle


def _check_textual_environment() -> None:
    if constants.COLOR_SYSTEM in (None, "auto"):
        log.warning(
            "colours follow the server's TERM; call momiji_tui.ssh.prepare_environment() "
            "before textual is imported"
        )
    if constants.PRESS or constants.SCREENSHOT_DELAY >= 0:
        log.warning("TEXTUAL_PRESS/TEXTUAL_SCREENSHOT are set and apply to every session")
