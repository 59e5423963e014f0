"""No input ends a session. Every size from 1x1 to the clamp
renders or shows the size notice, on every screen; bytes inside a bracketed
paste never become key presses (an Input takes the paste as text); a seeded,
bounded fuzz of sizes, pastes and keys leaves the session alive."""

from __future__ import annotations

import logging
import random

from ssh_harness import ESC, new_key, wait_app, wait_until
from textual.widgets import Input

from momiji_tui.ui.screens.create_table import CreateTableScreen
from momiji_tui.ui.screens.lobby import LobbyScreen
from momiji_tui.ssh.paste import PASTE_END, PASTE_START, PasteSplitter

SAFE_KEYS = ["t", "j", "r", "n", "?", "\x1b", "\t", "\x1b[A", "\x1b[B", "\r", " ", "c", "1", "e"]
"""Keys a player may press anywhere without quitting (no q, ctrl+q, ctrl+c)."""


def random_paste(rng: random.Random, size: int) -> bytes:
    body = bytes(rng.randrange(256) for _ in range(size))
    return b"\x1b[200~" + body.replace(b"\x1b[201~", b"") + b"\x1b[201~"


def test_paste_splitter_keeps_pastes_whole_across_reads_and_never_as_keys():
    rng = random.Random(7)
    junk = "".join(chr(rng.randrange(1, 0x250)) for _ in range(3000)) + "\x1b[Iq\x1b[201"
    stream = "ab" + PASTE_START + junk + PASTE_END + "\x1b"
    splitter, parts = PasteSplitter(), []
    i = 0
    while i < len(stream):  # reads of random sizes split the markers anywhere
        n = rng.randrange(1, 9)
        parts += splitter.feed(stream[i:i + n])
        i += n
    keys = "".join(t for k, t in parts if k == "keys") + splitter.flush()
    assert keys == "ab\x1b" and [t for k, t in parts if k == "paste"] == [junk]
    assert PasteSplitter(max_paste=10).feed(PASTE_START + "x" * 50 + PASTE_END) == [("paste", "x" * 10)]


async def test_a_paste_of_random_bytes_is_never_typed(game, clients):
    term = await clients.terminal(game.port, username="alice", key=new_key())
    await term.wait_for_text("Welcome, alice")
    app = await wait_app(game, "alice")
    rng = random.Random(12)
    for _ in range(3):
        term.send(random_paste(rng, 10_000))
    term.send("t")  # a key after the pastes still works: the form opens
    await wait_until(lambda: isinstance(app.screen, CreateTableScreen))
    assert app.is_running and game.handle.session_count == 1
    # Where text is expected, a paste is text: the new-game form's name.
    from momiji_tui.ui.screens.new_game import NewGameScreen

    term.send(ESC)
    await wait_until(lambda: isinstance(app.screen, LobbyScreen))
    term.send("n")
    await wait_until(lambda: isinstance(app.screen, NewGameScreen) and app.screen.is_mounted,
                     describe=lambda: f"{app.screen!r} {app.focused!r}\n{term.text}")
    name = app.screen.query_one("#name", Input)
    name.focus()
    await wait_until(lambda: app.focused is name)
    name.value = ""
    term.send(b"\x1b[200~bob q\x1b[201~")
    await wait_until(lambda: isinstance(app.focused, Input) and app.focused.value == "bob q",
                     describe=lambda: f"{app.focused!r} holds {getattr(app.focused, 'value', None)!r}")


async def test_every_size_from_1x1_renders_on_every_lobby_screen(game, clients, caplog):
    caplog.set_level(logging.ERROR)
    term = await clients.terminal(game.port, username="alice", key=new_key())
    await term.wait_for_text("Welcome, alice")
    app = await wait_app(game, "alice")
    sizes = [(1, 1), (2, 2), (3, 24), (5, 10), (6, 3), (20, 6), (300, 100), (1, 100), (300, 1)]
    # the lobby, then each lobby screen; then a solo game with the lobby under it
    await wait_until(lambda: isinstance(app.screen, LobbyScreen))
    base = len(app.screen_stack)
    for key in ["", "t", "j", "r", "?"]:
        if key:
            term.send(key)
            await wait_until(lambda: len(app.screen_stack) > base,
                             describe=lambda key=key: f"{key!r} {app.screen_stack}")
        for w, h in sizes:
            term.resize(w, h, screen=False)
            await wait_until(lambda w=w, h=h: not app.is_running or app.size == (w, h))
            term.send("\x1b[B")
        term.resize(80, 24)
        await wait_until(lambda: app.is_running and app.size == (80, 24))
        if key:
            term.send(ESC)
            await wait_until(lambda: len(app.screen_stack) == base)
    assert app.is_running and game.handle.session_count == 1
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


async def test_fuzz_sizes_pastes_and_keys_never_end_a_session(game, clients, caplog):
    caplog.set_level(logging.ERROR)
    rng = random.Random(2026)
    term = await clients.terminal(game.port, username="alice", key=new_key())
    await term.wait_for_text("Welcome, alice")
    app = await wait_app(game, "alice")
    for _ in range(120):
        action = rng.random()
        if action < 0.3:
            small = rng.random() < 0.5
            size = (rng.randrange(1, 8 if small else 300), rng.randrange(1, 8 if small else 100))
            term.resize(*size, screen=False)
            await wait_until(lambda size=size: not app.is_running or app.size == size)
        elif action < 0.5:
            term.send(random_paste(rng, rng.randrange(1, 4000)))
        else:
            term.send(rng.choice(SAFE_KEYS))
    term.resize(80, 24)
    await wait_until(lambda: not app.is_running or app.size == (80, 24))
    assert app.is_running and game.handle.session_count == 1
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


async def test_every_size_at_the_table_with_the_lobby_under_it_and_its_dialogs(game, clients, caplog):
    from test_ssh_lobby import start_solo_game

    caplog.set_level(logging.ERROR)
    term = await clients.terminal(game.port, username="alice", key=new_key())
    await term.wait_for_text("Welcome, alice")
    app = await wait_app(game, "alice")
    await start_solo_game(term, app)
    sizes = [(1, 1), (2, 2), (3, 24), (5, 10), (30, 8), (300, 100), (1, 100), (300, 1)]
    for key in ["", "?", "q"]:  # the table, help over it, the menu
        if key:
            term.resize(80, 24)
            await wait_until(lambda: app.size == (80, 24))
            depth = len(app.screen_stack)
            term.send(key)
            await wait_until(lambda depth=depth: len(app.screen_stack) != depth or not app.is_running)
        for w, h in sizes:
            term.resize(w, h, screen=False)
            await wait_until(lambda w=w, h=h: not app.is_running or app.size == (w, h))
            term.send(random_paste(random.Random(w * 1000 + h), 500))
    assert app.is_running and game.handle.session_count == 1
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
