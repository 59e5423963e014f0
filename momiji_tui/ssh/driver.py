"""A Textual driver whose terminal is an SSH channel.

One :class:`ChannelTerminal` exists per SSH session. It owns the channel side
(bytes out, bytes in, the client's window size) and hands Textual a
:class:`ChannelDriver` class bound to itself. Everything runs on the event
loop; no threads, no termios, no signals.
"""

from __future__ import annotations

import asyncio
import codecs
import logging
import time
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
INPUT_CHUNK = 64
"""Most bytes of input parsed in one step (one turn of the event loop): the
app handles a step's events back to back, other sessions wait meanwhile."""
MIN_INPUT_CHUNK = 16
"""Fewest bytes parsed in one step (when any are pending): an escape sequence
is not cut into pieces slower than the escape delay."""
MAX_PENDING_INPUT = 16 * 1024
"""Bytes of input received and not parsed yet at which the session stops
reading its channel (SSH flow control: the client's window fills, and it
sends nothing more until reading resumes below half of this)."""
INPUT_RATE = 40.0
"""Input events per second a session may send, sustained (key repeat is
about 30 a second; a paste is one event)."""
INPUT_BURST = 100.0
"""Input events a session may send at once above :data:`INPUT_RATE`."""
INPUT_CPU_RATE = 0.1
"""Seconds of the event loop's CPU a session's input may cost a second,
sustained (a tenth of a core; a player's key costs a few milliseconds)."""
INPUT_CPU_BURST = 0.25
"""Seconds of CPU a session's input may cost at once above :data:`INPUT_CPU_RATE`."""
FLOOD_GRACE = 5.0
"""Seconds a session may stay over its input budget with its channel full
(slowed) before it is told and closed."""


BLOCKED_SYSTEM_COMMANDS = frozenset({"Screenshot"})
"""Textual system commands that act on the server's files and are never offered."""


class InputBudget:
    """A per-session budget of input: two token buckets on an injected clock.

    Events: ``rate`` a second refill up to ``burst``. CPU: the seconds of the
    event loop's CPU the session's input cost (``cpu_rate`` seconds a second,
    up to ``cpu_burst``): a key that opens a screen costs more than one that
    moves a cursor. :meth:`allowance` says how many events may be delivered
    now (0 while either bucket is empty), :meth:`spend` takes events and CPU
    seconds (a debt waits), :meth:`wait` says how long until both allow one
    event again (seconds).
    """

    def __init__(self, rate: float = INPUT_RATE, burst: float = INPUT_BURST, *,
                 cpu_rate: float = INPUT_CPU_RATE, cpu_burst: float = INPUT_CPU_BURST,
                 clock: Callable[[], float]) -> None:
        self.rate, self.burst, self.cpu_rate, self.cpu_burst = rate, burst, cpu_rate, cpu_burst
        self._clock = clock
        self._tokens, self._cpu, self._at = burst, cpu_burst, clock()

    def _refill(self) -> None:
        now = self._clock()
        elapsed, self._at = now - self._at, now
        self._tokens = min(self.burst, self._tokens + elapsed * self.rate)
        self._cpu = min(self.cpu_burst, self._cpu + elapsed * self.cpu_rate)

    def allowance(self) -> int:
        """Whole events that may be delivered now (0 while over the budget)."""
        self._refill()
        return max(int(self._tokens), 0) if self._cpu > 0 else 0

    def spend(self, events: int, cpu: float = 0.0) -> None:
        """Take ``events`` and ``cpu`` seconds (more than allowed is a debt that waits)."""
        self._refill()
        self._tokens -= events
        self._cpu -= cpu

    def wait(self) -> float:
        """Seconds until one event is allowed (0 if one is now)."""
        self._refill()
        events = 0.0 if self._tokens >= 1 else (1 - self._tokens) / self.rate
        cpu = 0.0 if self._cpu > 0 else (1e-3 - self._cpu) / self.cpu_rate
        return max(events, cpu)



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


class InputParser:
    """A client's input bytes as Textual events: UTF-8 decoded across reads,
    bracketed pastes as one :class:`~textual.events.Paste` each (never seen
    by the key parser), the rest through Textual's ``XTermParser``. Pure: no
    loop, no app, no limits (those are :class:`ChannelTerminal`'s).

    :meth:`feed` parses every byte it is given; a lone Esc (or the start of
    a sequence) is held until more bytes come or :meth:`tick` is called after
    the escape delay. It has no clock: its caller says when the delay passed
    (:meth:`tick`, or ``after_pause`` for bytes that came after it), so Esc
    then x means what it would locally: alt+x within the delay, Esc and x
    after it. Raises nothing for any bytes.
    """

    def __init__(self) -> None:
        self._parser = XTermParser(debug=False)  # debug=True would write keys.log
        self._paste = PasteSplitter()
        self._decode = codecs.getincrementaldecoder("utf-8")(errors="replace").decode
        self.may_hold_escape = False  # the last bytes fed had an Esc: call tick() after the delay

    def feed(self, data: bytes, *, after_pause: bool = False) -> list[Message]:
        """The events the bytes ``data`` complete, in order. ``after_pause``:
        the client sent nothing for the escape delay before ``data``, so what
        was held comes first, as :meth:`tick` gives it (a lone Esc is the
        Esc key, not alt with the next key)."""
        messages = self.tick() if after_pause else []
        text = self._decode(data)
        for kind, part in self._paste.feed(text) if text else ():
            if kind == "paste":
                messages.append(events.Paste(part))  # to the focused widget
            else:
                messages.extend(self._parser.feed(part))
        self.may_hold_escape = "\x1b" in text
        return messages

    def tick(self) -> list[Message]:
        """The escape delay passed with nothing more: the events held (a lone
        Esc is the Esc key)."""
        held = self._paste.flush()  # Esc (or "Esc[2"...) held as a possible paste start:
        messages = list(self._parser.feed(held)) if held else []  # Textual's parser reads it as
        messages.extend(self._parser.expire())  # a terminal's keys (Esc alone: the Esc key)
        return messages


class Channel(Protocol):
    """The part of ``asyncssh.SSHServerChannel`` (opened with encoding=None) we use."""

    def write(self, data: bytes) -> None: ...
    def is_closing(self) -> bool: ...
    def get_write_buffer_size(self) -> int: ...
    def pause_reading(self) -> None: ...
    def resume_reading(self) -> None: ...


class ChannelTerminal:
    """The SSH side of one session's terminal.

    Args:
        channel: an asyncssh server channel opened without an encoding.
        size: initial (width, height) in cells, already clamped.
        max_output_buffer: bytes of unsent output tolerated before the client
            counts as a slow reader and ``on_overflow`` is called.
        on_overflow: called once when that happens (the server closes the
            session).
        on_flood: called once when the client has sent more input than its
            :class:`InputBudget` for :data:`FLOOD_GRACE` seconds with its
            channel full (the server tells it and closes the session).
        mouse, kitty_keys: whether to turn on mouse reporting and the kitty
            keyboard protocol (see :mod:`momiji_tui.ssh.terminal`).
        budget: the session's input budget (default ``InputBudget()`` on
            ``clock``).
        clock: monotonic seconds (default ``time.monotonic``).
        cpu_clock: CPU seconds of the event loop's thread (default
            ``time.thread_time``): a step costs the CPU spent from parsing it
            to the app having handled it (the loop's, so other sessions'
            work meanwhile counts too: an upper bound).

    Input is bounded per session: bytes received wait in a buffer of at most
    :data:`MAX_PENDING_INPUT` (then the channel stops reading and the
    client's SSH window fills); they are parsed :data:`INPUT_CHUNK` bytes at a
    time, no more events than the budget allows (events and CPU), and the
    next step waits until the app has handled the events of the last one. A flood or random
    bytes cost the session its own time, never another session's latency.

    Keys keep the client's timing through the queue: bytes that came
    :data:`~textual.constants.ESCAPE_DELAY` or more after the ones before
    them start a step of their own, parsed ``after_pause`` (an Esc then x
    typed later is Esc and x, not alt+x, however long the queue waited).
    """

    def __init__(
        self,
        channel: Channel,
        size: tuple[int, int],
        *,
        max_output_buffer: int = 1 << 20,
        on_overflow: Callable[[], None] | None = None,
        on_flood: Callable[[], None] | None = None,
        mouse: bool = True,
        kitty_keys: bool = True,
        budget: InputBudget | None = None,
        clock: Callable[[], float] | None = None,
        cpu_clock: Callable[[], float] = time.thread_time,
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
        self._clock = clock or time.monotonic
        self._cpu_clock = cpu_clock
        self._step_cpu = 0.0  # the CPU clock when the step in the app began
        self.budget = budget or InputBudget(clock=self._clock)
        self._on_flood = on_flood
        self._pending = bytearray()  # received, not parsed yet
        self._pauses: list[int] = []  # offsets in _pending the client paused the escape delay before
        self._received_at: float | None = None  # when the last input came (clock)
        self.reading_paused = False
        self._step: asyncio.Handle | None = None  # the next parse step, scheduled
        self._app_busy = False  # the app has not yet handled the last step's events
        self._flooding_since: float | None = None

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
        """Take input bytes from the client: kept (at most
        :data:`MAX_EARLY_INPUT`) until the app is ready, then queued and
        parsed step by step within the session's budget (see the class)."""
        driver = self._driver
        if driver is None:
            room = MAX_EARLY_INPUT - len(self._early_input)
            self._early_input += data[: max(room, 0)]
            return
        if self.closed or not driver.input_enabled or not data:
            return
        now = self._clock()
        if self._received_at is not None and now - self._received_at >= constants.ESCAPE_DELAY:
            self._pauses.append(len(self._pending))  # a held Esc is the Esc key, not alt with data
        self._received_at = now
        self._pending += data
        if len(self._pending) >= MAX_PENDING_INPUT and not self.reading_paused:
            self.reading_paused = True
            self.channel.pause_reading()
        self._schedule_step(0.0)

    @property
    def pending_input(self) -> int:
        """Bytes received and not parsed yet."""
        return len(self._pending)

    def _schedule_step(self, delay: float) -> None:
        """The next parse step: now if the budget allows (a key typed is parsed
        as it arrives), else after ``delay`` seconds."""
        if self._step is not None or self._app_busy or not self._pending:
            return
        if delay <= 0:
            self._parse_step()
        else:
            self._step = asyncio.get_running_loop().call_later(delay, self._parse_step)

    def _parse_step(self) -> None:
        """Parse the next chunk the budget allows and hand its events to the app."""
        self._step = None
        driver = self._driver
        if driver is None or self.closed or not driver.input_enabled:
            self._pending.clear()
            self._pauses.clear()
            return
        allowance = self.budget.allowance()
        if allowance < 1:
            self._over_budget()
            self._schedule_step(self.budget.wait())
            return
        if not self.reading_paused:
            self._flooding_since = None
        # An event is one byte at least; more events than allowed are a debt the next step waits.
        size = min(max(allowance, MIN_INPUT_CHUNK), INPUT_CHUNK)
        after_pause = bool(self._pauses) and self._pauses[0] == 0
        if after_pause:
            self._pauses.pop(0)
        if self._pauses:  # a step ends where the client paused: what was held is resolved first
            size = min(size, self._pauses[0])
        chunk = bytes(self._pending[:size])
        del self._pending[:size]
        self._pauses = [at - size for at in self._pauses]
        self._app_busy = True
        self._step_cpu = self._cpu_clock()
        self.budget.spend(driver.feed(chunk, after_pause=after_pause))
        driver.when_handled(self._app_handled)
        if self.reading_paused and len(self._pending) < MAX_PENDING_INPUT // 2:
            self.reading_paused = False
            self.channel.resume_reading()

    def _app_handled(self) -> None:
        self._app_busy = False
        self.budget.spend(0, self._cpu_clock() - self._step_cpu)  # parsing and handling the step
        if not self.closed:
            self._schedule_step(0.0)

    def _over_budget(self) -> None:
        """Slowed; with the channel full for :data:`FLOOD_GRACE` s, a flood."""
        if not self.reading_paused:
            self._flooding_since = None
            return
        now = self._clock()
        if self._flooding_since is None:
            self._flooding_since = now
        elif now - self._flooding_since >= FLOOD_GRACE and not self.closed:
            self.closed = True
            self._pending.clear()
            self._pauses.clear()
            if self._on_flood is not None:
                self._on_flood()

    def resize(self, width: int, height: int) -> None:
        """Record a new (clamped) client size in cells and tell the app."""
        self.size = (width, height)
        if self._driver is not None:
            self._driver.resize(width, height)

    def close(self) -> None:
        """Stop sending and parsing: the channel is gone or about to be closed."""
        self.closed = True
        self._pending.clear()
        self._pauses.clear()
        if self._step is not None:
            self._step.cancel()
            self._step = None

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
        self._input = InputParser()
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
            self.terminal.feed(early_input)

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
    def feed(self, data: bytes, *, after_pause: bool = False) -> int:
        """Parse input bytes from the client into Textual events
        (:class:`InputParser`; ``after_pause``: the client sent nothing for
        the escape delay before ``data``) and deliver them to the app;
        returns how many were delivered (0 while input is disabled). All of
        ``data`` is parsed: the bounds per session are
        :class:`ChannelTerminal`'s, which feeds it chunk by chunk."""
        if not self.input_enabled:
            return 0
        messages = self._input.feed(data, after_pause=after_pause)
        for message in messages:
            self.process_message(message)
        if self._input.may_hold_escape or self._tick_handle is not None:
            self._ticks_left = self._TICK_RETRIES
            self._arm_tick()
        return len(messages)

    def when_handled(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` once the app has handled every event delivered
        so far (Textual's ``call_later``: after the messages already queued)."""
        self.hosted_app.call_later(callback)

    def _arm_tick(self) -> None:
        if self._tick_handle is not None:
            self._tick_handle.cancel()
        delay = constants.ESCAPE_DELAY + 0.02
        self._tick_handle = self._loop.call_later(delay, self._tick)

    def _tick(self) -> None:
        self._tick_handle = None
        if not self.input_enabled:
            return
        if self.terminal.pending_input:  # the rest of a sequence may be waiting its turn
            self._arm_tick()
            return
        messages = self._input.tick()
        for message in messages:
            self.process_message(message)
        flushed = bool(messages)
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
