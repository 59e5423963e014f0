"""Host Textual apps over SSH: one app per SSH session, all in one process.

Typical use (the serve path)::

    from momiji_tui import ssh
    ssh.prepare_environment()           # before anything imports textual
    handle = await ssh.start_server(app_factory=lambda identity: MyApp(identity))
    await handle.serve_forever()

Importing this package does not import Textual; the names below are loaded
on first use, so :func:`prepare_environment` can still take effect.
"""

from __future__ import annotations

import os
import sys
from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # "X as X": re-exported (loaded lazily by __getattr__ below)
    from momiji_tui.ssh.driver import (
        ChannelDriver as ChannelDriver,
        ChannelTerminal as ChannelTerminal,
        clamp_terminal_size as clamp_terminal_size,
        harden_app as harden_app,
    )
    from momiji_tui.ssh.hostkey import (
        HostKeyError as HostKeyError,
        default_data_dir as default_data_dir,
        load_or_create_host_key as load_or_create_host_key,
    )
    from momiji_tui.ssh.identity import Identity as Identity
    from momiji_tui.ssh.identity import sanitize_display_name as sanitize_display_name
    from momiji_tui.ssh.server import (
        AppFactory as AppFactory,
        AuthMode as AuthMode,
        EndReason as EndReason,
        SSHServerHandle as SSHServerHandle,
        guard_task_factory as guard_task_factory,
        start_server as start_server,
    )

_EXPORTS = {
    "ChannelDriver": "driver",
    "ChannelTerminal": "driver",
    "clamp_terminal_size": "driver",
    "harden_app": "driver",
    "HostKeyError": "hostkey",
    "default_data_dir": "hostkey",
    "load_or_create_host_key": "hostkey",
    "Identity": "identity",
    "sanitize_display_name": "identity",
    "AppFactory": "server",
    "AuthMode": "server",
    "EndReason": "server",
    "SSHServerHandle": "server",
    "guard_task_factory": "server",
    "start_server": "server",
}

__all__ = sorted([*_EXPORTS, "TextualAlreadyImported", "prepare_environment"])

# Textual settings read once at import that would make every hosted session
# press keys or write screenshots on the server.
_UNSAFE_TEXTUAL_ENV = ("TEXTUAL_PRESS", "TEXTUAL_SCREENSHOT")


class TextualAlreadyImported(RuntimeError):
    """prepare_environment() was called after Textual had been imported."""


def prepare_environment(color_system: str = "truecolor") -> None:
    """Set up the process environment for hosting; call before importing Textual.

    Sets ``TEXTUAL_COLOR_SYSTEM`` (one of "truecolor", "256", "standard",
    "auto", ...: Textual reads it once, at import, for every app; over SSH the
    server's own ``TERM`` says nothing about the players' terminals) and
    removes ``TEXTUAL_PRESS`` and ``TEXTUAL_SCREENSHOT``.

    Raises:
        TextualAlreadyImported: Textual's settings are already fixed.
    """
    if "textual.constants" in sys.modules:
        raise TextualAlreadyImported("call prepare_environment() before importing textual")
    os.environ["TEXTUAL_COLOR_SYSTEM"] = color_system
    for name in _UNSAFE_TEXTUAL_ENV:
        os.environ.pop(name, None)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
