"""A Textual driver whose terminal is an SSH channel.

One :class:`ChannelTerminal` exists per SSH session. It owns the channel side
(bytes out, bytes in, the client's window size) and hands Textual a
:class:`ChannelDriver` class bound to itself. Everything runs on the event
loop; no threads, no termios, no signals.
"""

from __future__ import annotations

import codecs
import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, ClassVar, Literal, Protocol, TextIO

from textual import constants, events
from textual.app import App, SystemCommand
from textual.driver import Driver
from textual.geometry import Size
from textual.message import Message
from textual.messages import InBandWindowResize

from momiji_tui.textual_fence import XTermParser
from momiji_tui.ssh.paste import PasteSplitter

if TYPE_CHECKING:
    from textual.screen import Screen

log = logging.getLogger("momiji_tui.ssh")

DEFAULT_SIZE = (80, 24)
"""Size used when a client reports 0 columns or rows (width, height), in cells."""
MAX_TERMINAL_SIZE = (300, 100)
"""Default largest size a client may ask for (width, height), in cells."""
MAX_EARLY_INPUT = 4096
"""Bytes of input kept from before the app is ready; the rest is dropped."""
BLOCKED_SYSTEM_COMMANDS = frozenset({"Screenshot"})
"""Textual system commands that act on the server's files and are never offered."""


def clamp_terminal_size(
    width: int, height: int, maximum: tuple[int, int] = MAX_TERMINAL_SIZE
) -> tuple[int, int]:
    """Return a sane (width, height) in cells for a client-reported size.

    Zero means "unknown" and becomes the default 80x24; anything larger than
    ``maximum`` is cut down to it, so a hostile client cannot make the
    compositor render a gigantic screen.
    """
    width = width if width > 0 else DEFAULT_SIZE[0]
    height = height if height > 0 else DEFAULT_SIZE[1]
    return min(width, maximum[0]), min(height, maximum[1])


def harden_app(app: App[Any]) -> App[Any]:
    """Make ``app`` safe to host for a remote user, and return it.

    Removes the command-palette system commands that act on the *server*
    (:data:`BLOCKED_SYSTEM_COMMANDS`: "Screenshot" writes an SVG to the
    server's Downloads folder). The server applies this to every app its
    factory returns; apps may call it themselves too (idempotent). File
    deliveries and ``open_url`` are refused by :class:`ChannelDriver`.
    """
    if getattr(app, "_momiji_hardened", False):
        return app
    original = app.get_system_commands

    def get_system_commands(screen: Screen[Any]) -> Any:
        for command in original(screen):
            if isinstance(command, SystemCommand) and command.title in BLOCKED_SYSTEM_COMMANDS:
                continue
            yield command

    app.get_system_commands = get_system_commands  # type: ignore[method-assign]
    app._momiji_hardened = True  # type: ignore[attr-defined]
    return app


class Channel(Protocol):
    """The part of ``asyncssh.SSHServerChannel`` (opened with encoding=None) we use."""

    def write(self, data: bytes) -> None: ...
    def is_closing(self) -> bool: ...
    def get_write_buffer_size(self) -> int: ...


class ChannelTerminal:
    """The SSH side of one session's terminal.

    Args:
        channel: an asyncssh server channel opened without an encoding.
        size: initial (width, height) in cells, already clamped.
        max_output_buffer: bytes of unsent output tolerated before the client
            counts as a slow reader and ``on_overflow`` is called.
        on_overflow: called once when that happens (the server closes the
            session).
        mouse, kitty_keys: whether to turn on mouse reporting and the kitty
            keyboard protocol (see :mod:`momiji_tui.ssh.terminal`).
    """

    def __init__(
        self,
        channel: Channel,
        size: tuple[int, int],
        *,
        max_output_buffer: int = 1 << 20,
        on_overflow: Callable[[], None] | None = None,
        mouse: bool = True,
        kitty_keys: bool = True,
    ) -> None:
        self.channel = channel
        self.mouse = mouse  # the client's terminal claims these (ssh/terminal.py)
        self.kitty_keys = kitty_keys
        self.size = size
        self.closed = False
        self._max_output_buffer = max_output_buffer
        self._on_overflow = on_overflow
        self._driver: ChannelDriver | None = None
        self._early_input = bytearray()

    def driver_class(self) -> type[ChannelDriver]:
        """A ChannelDriver subclass bound to this terminal, for ``App.driver_class``."""
        return type("BoundChannelDriver", (ChannelDriver,), {"terminal": self})

    def send(self, data: bytes) -> None:
        """Send output bytes to the client (dropped once the channel is closing)."""
        if self.closed or self.channel.is_closing():
            return
        self.channel.write(data)
        if self.channel.get_write_buffer_size() > self._max_output_buffer:
            self.closed = True
            if self._on_overflow is not None:
                self._on_overflow()

    def feed(self, data: bytes) -> None:
        """Pass input bytes from the client to the app (buffered until it is ready)."""
        driver = self._driver
        if driver is not None and driver.input_enabled:
            driver.feed(data)
        elif driver is None:
            room = MAX_EARLY_INPUT - len(self._early_input)
            self._early_input += data[: max(room, 0)]

    def resize(self, width: int, height: int) -> None:
        """Record a new (clamped) client size in cells and tell the app."""
        self.size = (width, height)
        if self._driver is not None:
            self._driver.resize(width, height)

    def close(self) -> None:
        """Stop sending: the channel is gone or about to be closed."""
        self.closed = True

    def _attach(self, driver: ChannelDriver) -> bytes:
        self._driver = driver
        early, self._early_input = bytes(self._early_input), bytearray()
        return early

    def _detach(self, driver: ChannelDriver) -> None:
        if self._driver is driver:
            self._driver = None


class ChannelDriver(Driver):
    """Textual driver for one SSH session; use ``ChannelTerminal.driver_class()``.

    Output is buffered and sent as one channel write per frame. Input goes
    through Textual's XTermParser; the parser is ticked a little after the
    escape delay (``ESCDELAY``, 100 ms by default) following any input that
    may have left an escape sequence pending, so a lone Esc is delivered.
    """

    terminal: ClassVar[ChannelTerminal]
    _TICK_RETRIES = 3

    def __init__(
        self,
        app: App[Any],
        *,
        debug: bool = False,
        mouse: bool = True,
        size: tuple[int, int] | None = None,
    ) -> None:
        mouse = mouse and self.terminal.mouse
        super().__init__(app, debug=debug, mouse=mouse, size=size or self.terminal.size)
        self.hosted_app = app  # where parsed events go (Driver keeps it privately)
        self.mouse_reporting = mouse
        self._parser = XTermParser(debug=False)  # debug=True would write keys.log
        self._paste = PasteSplitter()  # pastes never reach the key parser
        self._decode = codecs.getincrementaldecoder("utf-8")(errors="replace").decode
        self._output: list[str] = []
        self._flush_pending = False
        self.input_enabled = False
        self._tick_handle: Any = None
        self._ticks_left = 0

    # -- output ---------------------------------------------------------------
    def write(self, data: str) -> None:
        """Queue output; it is sent on ``flush()`` or at the end of this loop turn."""
        if not data:
            return
        self._output.append(data)
        if not self._flush_pending:
            self._flush_pending = True
            self._loop.call_soon(self.flush)

    def flush(self) -> None:
        """Send queued output to the channel as one write."""
        self._flush_pending = False
        if self._output:
            data = "".join(self._output)
            self._output.clear()
            self.terminal.send(data.encode("utf-8", "replace"))

    # -- application mode -----------------------------------------------------
    def start_application_mode(self) -> None:
        """Take over the client's terminal: alt screen, mouse, paste, keys."""
        early_input = self.terminal._attach(self)
        self.resize(*self.terminal.size)
        self.write("\x1b[?1049h")  # alternate screen
        self._set_mouse(True)
        self.write("\x1b[?25l")  # hide cursor
        self.write("\x1b[?1004h")  # focus in/out events
        if self.terminal.kitty_keys and not constants.DISABLE_KITTY_KEY:
            self.write("\x1b[>25u")  # kitty keys: disambiguate | all keys | text
        self.write("\x1b[?2026$p")  # ask whether synchronized output is supported
        self.write("\x1b[?2004h")  # bracketed paste
        self.write("\x1b[?7l")  # no line wrap
        self.flush()
        self.input_enabled = True
        if early_input:
            self.feed(early_input)

    def disable_input(self) -> None:
        """Stop delivering input events."""
        if self.input_enabled:
            self.input_enabled = False
            self._set_mouse(False)
        if self._tick_handle is not None:
            self._tick_handle.cancel()
            self._tick_handle = None

    def stop_application_mode(self) -> None:
        """Give the client's terminal back as it was."""
        self.write("\x1b[?2004l\x1b[?7h")
        self.disable_input()
        if self.terminal.kitty_keys and not constants.DISABLE_KITTY_KEY:
            self.write("\x1b[<u")  # pop kitty keys (before leaving the alt screen)
        self.write("\x1b[?1049l\x1b[?25h\x1b[?1004l")
        self.flush()

    def close(self) -> None:
        """Send anything left and detach from the terminal."""
        self.flush()
        self.terminal._detach(self)

    def _set_mouse(self, enable: bool) -> None:
        if self.mouse_reporting:
            flag = "h" if enable else "l"
            self.write("".join(f"\x1b[?{mode}{flag}" for mode in (1000, 1003, 1015, 1006)))

    # -- input ----------------------------------------------------------------
    def feed(self, data: bytes) -> None:
        """Parse input bytes from the client into Textual events."""
        if not self.input_enabled:
            return
        text = self._decode(data)
        for kind, part in self._paste.feed(text) if text else ():
            if kind == "paste":
                self.process_message(events.Paste(part))  # to the focused widget
                continue
            for message in self._parser.feed(part):
                self.process_message(message)
        if "\x1b" in text or self._tick_handle is not None:
            self._ticks_left = self._TICK_RETRIES
            self._arm_tick()

    def _arm_tick(self) -> None:
        if self._tick_handle is not None:
            self._tick_handle.cancel()
        delay = constants.ESCAPE_DELAY + 0.02
        self._tick_handle = self._loop.call_later(delay, self._tick)

    def _tick(self) -> None:
        self._tick_handle = None
        if not self.input_enabled:
            return
        flushed = False
        held = self._paste.flush()  # Esc (or "Esc[2"...) held as a possible paste start,
        if held:  # and nothing followed within the escape delay: it was the Esc key
            flushed = True
            self.process_message(events.Key("escape", "\x1b"))
            for message in self._parser.feed(held[1:]) if held[1:] else ():  # "" = EOF
                self.process_message(message)
        for message in self._parser.tick():
            flushed = True
            self.process_message(message)
        self._ticks_left -= 1
        if not flushed and self._ticks_left > 0:
            self._arm_tick()

    def process_message(self, message: Message) -> None:
        """Deliver a parsed event, ignoring in-band resizes (sizes come from SSH)."""
        if isinstance(message, (events.Resize, InBandWindowResize)):
            return
        super().process_message(message)

    def send_message(self, message: Message) -> None:
        """Post to the app directly: the driver always runs on the app's loop."""
        self.hosted_app.post_message(message)

    def resize(self, width: int, height: int) -> None:
        """Tell the app the terminal is now width x height cells."""
        self._size = (width, height)
        size = Size(width, height)
        self.hosted_app.post_message(events.Resize(size, size))

    # -- things that would act on the server ----------------------------------
    def open_url(self, url: str, new_tab: bool = True) -> None:
        """Refused: a browser would open on the server, not for the player."""
        log.info("refused open_url from a hosted app")

    def deliver_binary(
        self,
        binary: BinaryIO | TextIO,
        *,
        delivery_key: str,
        save_path: Path,
        open_method: Literal["browser", "download"] = "download",
        encoding: str | None = None,
        mime_type: str | None = None,
        name: str | None = None,
    ) -> None:
        """Refused: the file would be written on the server's disk."""
        log.info("refused file delivery from a hosted app")
        binary.close()
        error = PermissionError("file delivery is disabled over SSH")
        self.hosted_app.post_message(
            events.DeliveryFailed(key=delivery_key, exception=error, name=name)
        )
