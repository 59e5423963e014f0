"""The players of ``bench/bench_ssh.py``: asyncssh clients, each rendering
into a pyte screen, and the phases they type in."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

TIMEOUT = 60.0


class Player:
    """One SSH session with a PTY, rendered by pyte."""

    def __init__(self, conn: Any, proc: Any) -> None:
        import pyte

        self.conn = conn
        self.proc = proc
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        self.changed = asyncio.Event()
        self.render = True  # False: the screen is not kept (any bytes are a redraw); the ramp's cheap players
        self.pump = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        while data := await self.proc.stdout.read(65536):
            if not self.render:
                self.changed.set()
                continue
            self.screen.dirty.clear()
            self.stream.feed(data)
            if self.screen.dirty:  # some cell was drawn (text or style)
                self.changed.set()

    @property
    def text(self) -> str:
        return "\n".join(self.screen.display)

    async def wait_for(self, needle: str) -> None:
        deadline = time.monotonic() + TIMEOUT
        while needle not in self.text:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{needle!r} never appeared:\n{self.text}")
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), 0.5)
            except TimeoutError:
                pass

    async def key_to_screen(self, key: bytes) -> tuple[float, float]:
        """(when, seconds): from writing ``key`` until the server's redraw
        reaches the screen (an idle session sends nothing, so the next
        drawing is the answer)."""
        self.changed.clear()
        when, start = time.time(), time.perf_counter()
        self.proc.stdin.write(key)
        await asyncio.wait_for(self.changed.wait(), TIMEOUT)
        return when, time.perf_counter() - start

    async def close(self) -> None:
        self.conn.abort()
        self.pump.cancel()
        await asyncio.gather(self.pump, return_exceptions=True)


async def login_and_start_solo(port: int, name: str) -> Player:
    """Log in with a new key as ``name`` and start a solo game; at the table."""
    import asyncssh

    conn = await asyncssh.connect(
        "127.0.0.1", port, username=name, known_hosts=None, agent_path=None, config=[],
        client_keys=[asyncssh.generate_private_key("ssh-ed25519")], kbdint_auth=False,
        password_auth=False, connect_timeout=TIMEOUT)
    proc = await conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
    player = Player(conn, proc)
    await player.wait_for("Welcome,")
    player.proc.stdin.write(b"n")
    await player.wait_for("Seats")  # the new-game form
    player.proc.stdin.write(b"\x13")  # ctrl+s: start
    await player.wait_for("Your turn")  # the bot has moved if it was first
    return player


async def one_at_a_time(players: list[Player], samples: int, rng: random.Random) -> list[float]:
    """A random player presses "1"; the next press waits for its screen."""
    latencies = []
    for _ in range(samples):
        latencies.append((await rng.choice(players).key_to_screen(b"1"))[1])
        await asyncio.sleep(0.05)
    return latencies


async def everyone_typing(players: list[Player], seconds: float, rng: random.Random) -> list[float]:
    """Every player presses "1" every 2-8 s for ``seconds``."""
    latencies: list[float] = []
    end = time.perf_counter() + seconds

    async def one(player: Player) -> None:
        await asyncio.sleep(rng.uniform(0, 8))
        while time.perf_counter() < end:
            latencies.append((await player.key_to_screen(b"1"))[1])
            await asyncio.sleep(rng.uniform(2, 8))

    await asyncio.gather(*(one(p) for p in players))
    return latencies
