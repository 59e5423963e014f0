"""A client that leaves at any moment of start-up leaves no
traceback in the log. The channel is closed after 0, 1, 2, … turns of the
event loop (no wall clock), each time on a fresh connection. The sweep
never met the race on this machine; the second test makes it certain."""

from __future__ import annotations

import asyncio
import logging

from ssh_harness import TIMEOUT, new_key, open_connection, wait_until


async def test_closing_the_channel_during_start_up_logs_no_traceback(game, caplog):
    caplog.set_level(logging.INFO)
    key = new_key()
    for turns in list(range(0, 40, 2)) + list(range(40, 400, 45)):
        conn = await open_connection(game.port, username="alice", key=key)
        proc = await asyncio.wait_for(
            conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None), TIMEOUT)
        for _ in range(turns):
            await asyncio.sleep(0)
        if turns % 3 == 0:
            conn.close()  # the connection goes away
        else:
            proc.stdin.write_eof()  # ssh -tt ... </dev/null: end of input at once
        await wait_until(lambda: game.handle.session_count == 0)
        conn.close()
        await asyncio.wait_for(conn.wait_closed(), TIMEOUT)
    bad = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not bad, "\n".join(f"{r.levelname} {r.getMessage()}" for r in bad)[:4000]


async def test_the_channel_closing_while_the_lobby_screen_composes_logs_no_traceback(
        game, caplog, monkeypatch):
    """The race of ``ssh -tt host </dev/null``, made certain: the client's end
    of input arrives while the lobby screen is being composed (before its
    on_mount), for each lobby screen a session may open first."""
    from momiji_tui.ui.screens.lobby import LobbyScreen

    caplog.set_level(logging.INFO)
    compose = LobbyScreen.compose

    def compose_then_client_leaves(self):
        yield from compose(self)
        for session in list(game.handle._state.sessions):
            session.eof_received()

    monkeypatch.setattr(LobbyScreen, "compose", compose_then_client_leaves)
    for _ in range(3):
        conn = await open_connection(game.port, username="alice", key=new_key())
        await asyncio.wait_for(
            conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None), TIMEOUT)
        await wait_until(lambda: game.handle.session_count == 0)
        conn.close()
    bad = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not bad, "\n".join(f"{r.levelname} {r.getMessage()}" for r in bad)[:4000]
