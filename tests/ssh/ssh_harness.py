"""Test harness for the SSH server: a demo app, a pyte terminal, bounded waits.

Every wait here is bounded: it polls and fails with a screen dump after its
timeout. Nothing depends on timing otherwise.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import asyncssh
import pyte
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.events import DeliveryFailed, Resize
from textual.screen import ModalScreen
from textual.widgets import Input, Label

from momiji_tui.ssh import Identity, SSHServerHandle, start_server

TIMEOUT = 20.0
"""Generous bound for any single wait (seconds); CI machines can be slow."""


# -- the demo app ---------------------------------------------------------------
class DemoDialog(ModalScreen[None]):
    BINDINGS = [Binding("escape", "close", "Close")]

    def compose(self) -> ComposeResult:
        yield Label("DIALOG-OPEN")

    def action_close(self) -> None:
        self.dismiss(None)


class DemoApp(App[None]):
    """Shows who is connected, a counter (F3), the size; F2 opens a dialog."""

    BINDINGS = [
        Binding("f2", "open_dialog", "Dialog"),
        Binding("f3", "increment", "Count"),
    ]

    def __init__(self, identity: Identity) -> None:
        super().__init__()
        self.identity = identity
        self.counter = 0
        self.delivery_failures: list[DeliveryFailed] = []

    def compose(self) -> ComposeResult:
        kind = "guest" if self.identity.is_guest else "key"
        yield Label(f"who={self.identity.display_name} kind={kind}", id="who")
        yield Label("counter=0", id="counter")
        yield Label("size=?", id="size")
        yield Input(id="input")

    def on_resize(self, event: Resize) -> None:
        self.query_one("#size", Label).update(f"size={event.size.width}x{event.size.height}")

    def on_delivery_failed(self, event: DeliveryFailed) -> None:
        self.delivery_failures.append(event)

    def action_open_dialog(self) -> None:
        self.push_screen(DemoDialog())

    def action_increment(self) -> None:
        self.counter += 1
        self.query_one("#counter", Label).update(f"counter={self.counter}")


# -- bounded waits --------------------------------------------------------------
def screen_text(screen: pyte.Screen) -> str:
    return "\n".join(line.rstrip() for line in screen.display)


async def wait_until(
    predicate: Callable[[], bool], timeout: float = TIMEOUT, describe: Callable[[], str] = str
) -> None:
    """Poll ``predicate`` until it is true; fail after ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            raise AssertionError(f"timed out after {timeout} s: {describe()}")
        await asyncio.sleep(0.02)


async def wait_for_text(screen: pyte.Screen, text: str, timeout: float = TIMEOUT) -> None:
    """Wait until ``text`` appears on the pyte ``screen``."""
    await wait_until(
        lambda: text in screen_text(screen),
        timeout,
        lambda: f"{text!r} never appeared on screen:\n{screen_text(screen)}",
    )


async def wait_for_no_text(screen: pyte.Screen, text: str, timeout: float = TIMEOUT) -> None:
    """Wait until ``text`` is gone from the pyte ``screen``."""
    await wait_until(
        lambda: text not in screen_text(screen),
        timeout,
        lambda: f"{text!r} never went away:\n{screen_text(screen)}",
    )


# -- client side ----------------------------------------------------------------
SGR = re.compile(rb"\x1b\[[0-9;:]*m")
"""A whole Select Graphic Rendition sequence (colours, bold, ...): about two
thirds of the bytes a Textual screen sends, which pyte parses one byte at a
time. In pyte an SGR only sets the attributes of the cells drawn after it,
never a cell's character or the cursor, and tests read only the text
(``screen.display``), so ``Terminal`` feeds pyte without them; ``raw`` keeps
every byte. A sequence split between two reads is not matched and reaches
pyte whole, as before."""


class Terminal:
    """An SSH client session with a PTY, rendered into a pyte screen."""

    def __init__(self, conn: asyncssh.SSHClientConnection, proc: asyncssh.SSHClientProcess[bytes],
                 size: tuple[int, int]) -> None:
        self.conn = conn
        self.proc = proc
        self.screen = pyte.Screen(*size)
        self._stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()
        self.history: list[str] | None = None  # every screen seen, once record() is called
        self._pump = asyncio.ensure_future(self._read())

    def record(self) -> list[str]:
        """From now on keep the text of the screen after every chunk of output."""
        self.history = [self.text]
        return self.history

    async def _read(self) -> None:
        while data := await self.proc.stdout.read(65536):
            self.raw += data
            self._stream.feed(SGR.sub(b"", data))
            if self.history is not None:
                self.history.append(self.text)

    @property
    def text(self) -> str:
        return screen_text(self.screen)

    async def wait_for_text(self, text: str, timeout: float = TIMEOUT) -> None:
        await wait_for_text(self.screen, text, timeout)

    async def wait_for_no_text(self, text: str, timeout: float = TIMEOUT) -> None:
        await wait_for_no_text(self.screen, text, timeout)

    def send(self, data: bytes | str) -> None:
        self.proc.stdin.write(data.encode() if isinstance(data, str) else data)

    def resize(self, width: int, height: int, *, screen: bool = True) -> None:
        self.proc.change_terminal_size(width, height)
        if screen:
            self.screen.resize(height, width)

    async def wait_exit(self, timeout: float = TIMEOUT) -> int | None:
        """Wait for the session to end; return its exit status."""
        await asyncio.wait_for(self.proc.wait_closed(), timeout)
        await asyncio.wait_for(self._pump, timeout)
        return self.proc.exit_status

    async def close(self) -> None:
        self.conn.abort()
        self._pump.cancel()
        await asyncio.gather(self._pump, return_exceptions=True)


def new_key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")


async def open_connection(
    port: int, *, username: str = "alice", key: asyncssh.SSHKey | None = None
) -> asyncssh.SSHClientConnection:
    """Log in with ``key``, or as a guest (keyboard-interactive) without one."""
    options: dict[str, Any] = dict(
        username=username, known_hosts=None, agent_path=None, config=[], connect_timeout=TIMEOUT
    )
    if key is None:
        options.update(client_keys=None, kbdint_auth=True, password="")
    else:
        options.update(client_keys=[key], kbdint_auth=False, password_auth=False)
    return await asyncio.wait_for(asyncssh.connect("127.0.0.1", port, **options), TIMEOUT)


async def open_terminal(
    conn: asyncssh.SSHClientConnection, size: tuple[int, int] = (80, 24)
) -> Terminal:
    proc = await asyncio.wait_for(
        conn.create_process(term_type="xterm-256color", term_size=size, encoding=None), TIMEOUT
    )
    return Terminal(conn, proc, size)


# -- server side ----------------------------------------------------------------
@dataclass
class Hosted:
    """A server under test and what its factory and callbacks have seen."""

    handle: SSHServerHandle | None = None
    make_app: Callable[[Identity], Any] = DemoApp
    apps: list[DemoApp] = field(default_factory=list)
    ended: list[tuple[Identity, str]] = field(default_factory=list)

    @property
    def port(self) -> int:
        assert self.handle is not None
        return self.handle.port

    def factory(self, identity: Identity) -> DemoApp:
        app = self.make_app(identity)
        self.apps.append(app)
        return app

    async def on_session_end(self, identity: Identity, reason: str) -> None:
        await asyncio.sleep(0)
        self.ended.append((identity, reason))

    async def wait_sessions(self, count: int, timeout: float = TIMEOUT) -> None:
        handle = self.handle
        assert handle is not None
        await wait_until(
            lambda: handle.session_count == count,
            timeout,
            lambda: f"session_count is {handle.session_count}, want {count}",
        )


async def start_hosted(**options: Any) -> Hosted:
    hosted = Hosted()
    options.setdefault("port", 0)
    hosted.handle = await start_server(
        app_factory=hosted.factory, on_session_end=hosted.on_session_end, **options
    )
    return hosted


# -- the game server (lobby, shared tables) ------------------------------------------
ENTER, ESC, CTRL_S, CTRL_Q, SHIFT_TAB = b"\r", b"\x1b", b"\x13", b"\x11", b"\x1b[Z"


class ScriptedBot:
    """A cheap, deterministic bot for tests: a seeded random legal command,
    ending its turn as soon as it may (independent of the real bots)."""

    def __init__(self, seed: int) -> None:
        import random

        self.rng = random.Random(seed)

    def choose(self, view: Any) -> Any:
        import random

        from momiji_tui.engine import EndTurn, determinize, legal_commands

        legal = legal_commands(determinize(view, random.Random(0)), view.seat)
        ends = [c for c in legal if isinstance(c, EndTurn)]
        return ends[0] if ends else self.rng.choice(legal)


def scripted_bot(level: str, seed: int = 0, **_: object) -> ScriptedBot:
    """``make_bot`` stand-in."""
    return ScriptedBot(seed)


async def wait_app(server: Any, name: str, timeout: float = TIMEOUT) -> Any:
    """The server-side LobbyApp of the player called ``name`` (bounded wait)."""
    found: list[Any] = []

    def look() -> bool:
        found[:] = [app for app in server.apps() if app.player.name == name]
        return len(found) == 1

    await wait_until(look, timeout, lambda: f"no single app for {name!r}: {server.apps()}")
    return found[0]


async def take_turn_by_keys(term: Terminal, app: Any, timeout: float = TIMEOUT, *,
                            prefer: str = "play", choice_shown: Callable[[], bool] | None = None) -> None:
    """One turn of ``app``'s seat, sent as keys through ``term``: a one-card
    play when one is legal, else a collect (revealing first when the display
    is empty), then a discard down to the limit if needed, then end turn.
    ``prefer="collect"`` collects whenever it can (games end sooner: the deck
    runs out). ``app`` needs only ``table`` and ``seat``, and ``screen``
    unless ``choice_shown`` tells when the column choice is open (a server
    in another process). Each step waits (bounded) until the table has accepted it."""
    from momiji_tui.engine import Collect, Play, Reveal
    from momiji_tui.engine.cards import CARD_TYPE
    from momiji_tui.engine.rules_data import HAND_LIMIT
    from momiji_tui.ui.screens.choice import ChoiceScreen
    from momiji_tui.ui.screens.table import HAND_KEYS, hand_order

    table, seat = app.table, app.seat

    async def accepted(count: int) -> None:
        await wait_until(lambda: len(table.events) > count, timeout,
                         lambda: f"the table never accepted the keys:\n{term.text}")

    def shown() -> bool:
        if choice_shown is not None:  # a server in another process: its screen's text
            return choice_shown()
        return isinstance(app.screen, ChoiceScreen) and app.screen.is_mounted

    async def choose(key: str) -> None:
        await wait_until(shown, timeout, lambda: f"no choice opened:\n{term.text}")
        term.send(key)

    n = len(table.events)
    legal = table.legal(seat)
    hand = hand_order(table.view(seat).me.hand)
    plays = [c for c in legal if isinstance(c, Play) and len(c.cards) == 1
             and hand.index(c.cards[0]) < len(HAND_KEYS)]
    collects = [c for c in legal if isinstance(c, Collect)]
    if plays and not (prefer == "collect" and collects):
        term.send(HAND_KEYS[hand.index(plays[0].cards[0])] + "p")
        await accepted(n)
    elif collects:
        term.send("c")
        await choose(collects[0].types[0].lower())
        await accepted(n)
    elif any(isinstance(c, Reveal) for c in legal):
        term.send("r")
        await accepted(n)
        n = len(table.events)
        term.send("c")
        await choose(CARD_TYPE[table.view(seat).display[0]].lower())
        await accepted(n)
    excess = len(table.view(seat).me.hand) - HAND_LIMIT
    if excess > 0:
        n = len(table.events)
        term.send(HAND_KEYS[:excess] + "d")
        await accepted(n)
    n = len(table.events)
    term.send("e")
    await accepted(n)
