"""The SSH server: one hosted Textual app per SSH session, all on one loop.

Security model (see shared/research/ssh-hosting.md §3): any public key is an
identity (its SHA256 fingerprint, trusted only once auth completes); clients
without a key may enter as guests in "open" mode; no shell, exec, subsystem,
SFTP/SCP, forwarding or agent; sessions without a PTY are refused; sessions
are limited in number (total, per IP), login time and idle time.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import inspect
import io
import logging
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import asyncssh
from rich.console import Console
from textual.app import App

from momiji_tui.ssh import algorithms
from momiji_tui.ssh._textual_private import (
    print_capture_disabled,
    session_colors_enabled,
    set_session_colors,
)
from momiji_tui.ssh.gate import Gate
from momiji_tui.ssh.oplog import client_event
from momiji_tui.ssh.shutdown import end_sessions, warn_sessions
from momiji_tui.ssh.throttle import Throttle, ThrottleLimits
from momiji_tui.ssh.driver import (
    MAX_TERMINAL_SIZE,
    ChannelTerminal,
    clamp_terminal_size,
    harden_app,
)
from momiji_tui.ssh.hostkey import HOST_KEY_FILENAME, default_data_dir, load_or_create_host_key
from momiji_tui.ssh.identity import Identity
from momiji_tui.ssh.terminal import ACCEPTED_ENV, DUMB_MESSAGE, TerminalProfile, terminal_profile

log = logging.getLogger("momiji_tui.ssh")

AuthMode = Literal["open", "keys", "allowlist"]
"""open: keys or guests; keys: any key, no guests; allowlist: keys in a file."""
EndReason = Literal["quit", "error", "disconnect", "idle", "shutdown", "slow"]
"""Why a session ended, as passed to ``on_session_end``: "quit" (the app exited
by itself; its return code is the exit status), "error" (the factory or the
app crashed; exit status 1), "disconnect" (the client went away), "idle"
(``idle_timeout``), "shutdown" (``handle.close()``), "slow" (the client did
not read its output; see ``ChannelTerminal``)."""
AppFactory = Callable[[Identity], App[Any]]
SessionEndCallback = Callable[[Identity, EndReason], "Awaitable[None] | None"]

SHUTDOWN_EXIT_STATUS = 1
"""The exit status every client gets when the server stops (``handle.close``),
also when its app did not stop in time."""
NO_PTY_MESSAGE = b"momiji needs an interactive terminal: connect with ssh -t\r\n"
_END_MESSAGES = {
    "idle": "Disconnected: no input for too long.",
    "shutdown": "The server is shutting down; your game is saved.",
    "error": "Sorry, the game stopped because of an internal error.",
}


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
        self.sessions: set[_AppSession] = set()
        self.connections: set[_Connection] = set()
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


class _AppSession(asyncssh.SSHServerSession[bytes]):
    """One SSH session channel running one hosted Textual app."""

    def __init__(self, state: _ServerState, connection: _Connection, identity: Identity) -> None:
        self._state = state
        self._connection = connection
        self.identity = identity
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
            self._chan, self._size, on_overflow=lambda: self.stop("slow"),
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
            app = harden_app(self._state.config.app_factory(self.identity))
            app.driver_class = self._terminal.driver_class()
            set_session_colors(app, self._profile.color_system, self._profile.no_color)
            # Crash reports go to the server log, not to stderr or the player.
            app.error_console = Console(file=errors, width=120, markup=False, highlight=False)
            self.app = app
            if self._reason is None:
                client_event("session start", self._connection.peer,
                             "{} {}x{}".format(self.identity.key, *self._terminal.size))
                await app.run_async(size=self._terminal.size)
                status = app.return_code or 0
                if self._reason is None:  # the app ended on its own; a crash logs output
                    self._reason = "error" if status and errors.getvalue() else "quit"
                elif self._reason == "shutdown":
                    status = SHUTDOWN_EXIT_STATUS
                elif status == 0:
                    status = 1  # ended by the server: idle, slow reader
        except Exception:
            log.exception("hosted app failed for %s", self.identity.key)
            self._reason = self._reason or "error"
            status = 1
        finally:
            if errors.getvalue():
                log.error("app output for %s:\n%s", self.identity.key, errors.getvalue())
            self.app = None
            self._close_channel(status)
            self._finish()

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
    from textual import constants

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


async def _logged(awaitable: Awaitable[Any]) -> None:
    try:
        await awaitable
    except Exception:
        log.exception("on_session_end failed")


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
    cleanup.enter_context(session_colors_enabled())  # issue 12: colours per client
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
    from textual import constants

    if constants.COLOR_SYSTEM in (None, "auto"):
        log.warning(
            "colours follow the server's TERM; call momiji_tui.ssh.prepare_environment() "
            "before textual is imported"
        )
    if constants.PRESS or constants.SCREENSHOT_DELAY >= 0:
        log.warning("TEXTUAL_PRESS/TEXTUAL_SCREENSHOT are set and apply to every session")
