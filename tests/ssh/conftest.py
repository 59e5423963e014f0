"""Fixtures for the SSH tests: in-process servers on port 0 and SSH clients.

Everything a test opens is closed at teardown, with bounded waits.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import asyncssh
import pytest
from ssh_harness import (
    TIMEOUT,
    Hosted,
    Terminal,
    open_connection,
    open_terminal,
    scripted_bot,
    start_hosted,
)


@pytest.fixture
async def start() -> AsyncIterator[Callable[..., Awaitable[Hosted]]]:
    """``await start(**start_server_options)`` -> a running Hosted demo server."""
    servers: list[Hosted] = []

    async def _start(**options: Any) -> Hosted:
        hosted = await start_hosted(**options)
        servers.append(hosted)
        return hosted

    yield _start
    for hosted in servers:
        assert hosted.handle is not None
        await asyncio.wait_for(hosted.handle.close(timeout=TIMEOUT), 2 * TIMEOUT)


@pytest.fixture
async def hosted(start: Callable[..., Awaitable[Hosted]]) -> Hosted:
    """A demo server with the default options."""
    return await start()


class Clients:
    """Opens SSH connections and terminals; closes them all at teardown."""

    def __init__(self) -> None:
        self.connections: list[asyncssh.SSHClientConnection] = []
        self.terminals: list[Terminal] = []

    async def connect(self, port: int, **options: Any) -> asyncssh.SSHClientConnection:
        conn = await open_connection(port, **options)
        self.connections.append(conn)
        return conn

    async def terminal(
        self, port: int, size: tuple[int, int] = (80, 24), **options: Any
    ) -> Terminal:
        conn = await self.connect(port, **options)
        term = await open_terminal(conn, size)
        self.terminals.append(term)
        return term

    async def close(self) -> None:
        for term in self.terminals:
            await asyncio.wait_for(term.close(), TIMEOUT)
        for conn in self.connections:
            conn.abort()
            await asyncio.wait_for(conn.wait_closed(), TIMEOUT)


@pytest.fixture
async def clients() -> AsyncIterator[Clients]:
    c = Clients()
    yield c
    await c.close()


@pytest.fixture
async def start_game(isolated_dirs) -> AsyncIterator[Callable[..., Awaitable[Any]]]:
    """``await start_game(**options)`` -> a running GameServer (lobby and
    shared tables) on port 0, saving under the test's data dir, with cheap
    scripted bots and no pause between bot moves unless told otherwise."""
    from momiji_tui.ssh.game_server import start_game_server

    servers: list[Any] = []

    async def _start(**options: Any) -> Any:
        options.setdefault("port", 0)
        options.setdefault("data_dir", isolated_dirs)
        options.setdefault("bot_delay", 0)
        options.setdefault("make_bot", scripted_bot)
        server = await start_game_server(**options)
        servers.append(server)
        return server

    yield _start
    for server in servers:
        await asyncio.wait_for(server.close(timeout=TIMEOUT), 2 * TIMEOUT)


@pytest.fixture
async def game(start_game: Callable[..., Awaitable[Any]]) -> Any:
    """A game server with the default options."""
    return await start_game()
