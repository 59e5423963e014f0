"""The client's terminal is honoured: colour depth from the
PTY's terminal type and COLORTERM, NO_COLOR from the client, TERM=dumb gets a
one-line message and a clean exit, no mouse or kitty keys for terminals that
do not claim them. Decided per session, never from the server's environment."""

from __future__ import annotations

import asyncio

import pytest
from ssh_harness import TIMEOUT, Terminal, new_key, wait_app

from momiji_tui.ssh.terminal import terminal_profile

MOUSE_ON, KITTY_ON = b"\x1b[?1000h", b"\x1b[>25u"
TRUECOLOR, COLOR256 = b"38;2;", b"38;5;"


async def session(game, clients, term_type: str, env: dict[str, str] | None = None) -> Terminal:
    conn = await clients.connect(game.port, username="alice", key=new_key())
    proc = await asyncio.wait_for(conn.create_process(
        term_type=term_type, term_size=(80, 24), encoding=None, env=env or {}), TIMEOUT)
    term = Terminal(conn, proc, (80, 24))
    clients.terminals.append(term)
    return term


def test_the_rule_for_each_terminal_type():
    assert terminal_profile("dumb", {}).dumb
    for name in ("vt100", "vt220", "linux"):
        p = terminal_profile(name, {})
        assert not p.mouse and not p.kitty_keys and not p.dumb
    assert terminal_profile("vt100", {}).color_system is None
    assert terminal_profile("linux", {}).color_system == "standard"
    assert terminal_profile("xterm-256color", {}).color_system == "256"
    assert terminal_profile("xterm-256color", {"COLORTERM": "truecolor"}).color_system == "truecolor"
    assert terminal_profile("xterm", {}).color_system == "standard"
    assert terminal_profile("xterm-256color", {"COLORTERM": "truecolor"}, max_color="256").color_system == "256"
    assert terminal_profile("xterm", {"NO_COLOR": "1"}).no_color
    assert not terminal_profile("xterm", {"NO_COLOR": ""}).no_color


async def test_term_dumb_gets_one_plain_line_and_a_clean_exit(game, clients):
    term = await session(game, clients, "dumb")
    status = await term.wait_exit()
    raw = bytes(term.raw)
    assert status == 1 and b"\x1b" not in raw and raw.count(b"\n") == 1
    assert b"TERM=dumb" in raw and not game.apps()


@pytest.mark.parametrize("term_type", ["vt100", "vt220", "linux"])
async def test_old_terminals_get_no_mouse_no_kitty_keys_no_truecolor(game, clients, term_type):
    term = await session(game, clients, term_type)
    await term.wait_for_text("Welcome, alice")
    raw = bytes(term.raw)
    assert MOUSE_ON not in raw and KITTY_ON not in raw
    assert TRUECOLOR not in raw and COLOR256 not in raw


async def test_colour_depth_follows_the_client(game, clients):
    plain = await session(game, clients, "xterm-256color")
    await plain.wait_for_text("Welcome, alice")
    assert COLOR256 in plain.raw and TRUECOLOR not in plain.raw and MOUSE_ON in plain.raw
    deep = await session(game, clients, "xterm-256color", {"COLORTERM": "truecolor"})
    await deep.wait_for_text("Welcome, alice")
    assert TRUECOLOR in deep.raw


async def test_no_color_from_the_client(game, clients):
    term = await session(game, clients, "xterm-256color", {"NO_COLOR": "1", "LD_PRELOAD": "x"})
    await term.wait_for_text("Welcome, alice")
    app = await wait_app(game, "alice")
    assert app.no_color


@pytest.mark.parametrize("first", ["256", "standard", "truecolor"])
def test_a_style_drawn_by_one_session_keeps_no_colours_for_the_next(first):
    """Found in a full run: the 'linux' session got 256 colours after another
    session in the same process had drawn the same rich Style (Textual keeps a
    style's codes in ``style._ansi`` for whichever colour system drew it first)."""
    from rich.color import ColorSystem
    from rich.console import Console
    from rich.segment import Segment
    from rich.style import Style
    from textual.strip import Strip

    from momiji_tui.textual_fence import session_colors_enabled

    systems = {"standard": ColorSystem.STANDARD, "256": ColorSystem.EIGHT_BIT,
               "truecolor": ColorSystem.TRUECOLOR}
    marks = {"standard": (b"38;2;", b"38;5;"), "256": (b"38;2;",), "truecolor": (b"38;5;",)}

    def draw(system: str) -> bytes:
        console = Console(color_system="truecolor", force_terminal=True)
        console._color_system = systems[system]
        style = Style.parse("#123456 on #654321")  # parse is cached: one shared Style
        return Strip([Segment("leaf", style)]).render(console).encode()

    with session_colors_enabled():
        draw(first)
        for system, absent in marks.items():
            out = draw(system)
            assert not any(m in out for m in absent), (first, system, out)

