"""Soak: does the server's memory stay flat over many sessions?

``momiji serve`` (its defaults, bots in threads, no stop countdown) runs in a
child process on loopback. The parent runs cycles of: connect with asyncssh
(every other one with a key, the rest as guests), wait for the lobby, press
a few keys, disconnect. Two kinds of cycles, measured separately:

- ``lobby``: the lobby only (down, up);
- ``form``: the New game form opened and left (``n``, ``Esc``).

RSS of the server (``/proc/<pid>/status``) is read after a warm-up and after
each kind; the rows give its growth per 100 sessions. Bounded in count
(``--cycles``) and time (every wait has a timeout).

    python -m bench.bench_soak [--cycles 200]
    python -m bench soak [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench.common import row, rss_kb

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 30.0
WARM_UP = 20


async def _start_server(data: Path) -> tuple[asyncio.subprocess.Process, int]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL")}
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "momiji_tui.cli", "serve", "--port", "0", "--data-dir", str(data),
        "--bot-workers", "0", "--stop-countdown", "0", "--max-startups-per-ip", "50",
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT,
        env=env)
    assert proc.stderr is not None
    while True:
        line = (await asyncio.wait_for(proc.stderr.readline(), TIMEOUT)).decode()
        if not line:
            raise RuntimeError("momiji serve ended before listening")
        match = re.search(r"listening on \S+ port (\d+)", line)
        if match:
            _DRAINS.add(asyncio.ensure_future(_drain(proc.stderr)))  # held: the loop keeps only weak refs
            return proc, int(match.group(1))


_DRAINS: set[asyncio.Future[None]] = set()


async def _drain(stream: Any) -> None:
    while await stream.readline():
        pass


async def _screen_waits(proc: Any, screen: Any, stream: Any, text: str) -> None:
    async def pump() -> None:
        while text not in "\n".join(screen.display):
            data = await proc.stdout.read(65536)
            if not data:
                raise RuntimeError(f"session ended before {text!r}")
            stream.feed(data)

    await asyncio.wait_for(pump(), TIMEOUT)


async def _cycle(port: int, i: int, kind: str) -> None:
    import asyncssh
    import pyte

    options: dict[str, Any] = dict(username=f"soak{i % 7}", known_hosts=None, agent_path=None,
                                   config=[], connect_timeout=TIMEOUT)
    if i % 2:
        options.update(client_keys=[asyncssh.generate_private_key("ssh-ed25519")],
                       kbdint_auth=False, password_auth=False)
    else:
        options.update(client_keys=None, kbdint_auth=True, password="")
    conn = await asyncio.wait_for(asyncssh.connect("127.0.0.1", port, **options), TIMEOUT)
    try:
        proc = await conn.create_process(term_type="xterm-256color", term_size=(100, 30),
                                         encoding=None)
        screen = pyte.Screen(100, 30)
        stream = pyte.ByteStream(screen)
        await _screen_waits(proc, screen, stream, "Welcome,")
        if kind == "form":
            proc.stdin.write(b"n")
            await _screen_waits(proc, screen, stream, "New game")
            await asyncio.sleep(0.2)
            proc.stdin.write(b"\x1b")
            await _screen_waits(proc, screen, stream, "Welcome,")
        else:
            proc.stdin.write(b"\x1b[B\x1b[A")  # down, up in the lobby's list
            await asyncio.sleep(0.2)
    finally:
        conn.abort()
        await asyncio.wait_for(conn.wait_closed(), TIMEOUT)


async def soak(cycles: int) -> dict[str, float]:
    """Run the cycles; RSS in MB at each step and growth per 100 sessions."""
    with tempfile.TemporaryDirectory() as tmp:
        server, port = await _start_server(Path(tmp))
        try:
            for i in range(WARM_UP):
                await _cycle(port, i, "lobby" if i % 2 else "form")
            await asyncio.sleep(2)
            result = {"start": rss_kb(server.pid) / 1024}
            last = result["start"]
            for kind in ("lobby", "form"):
                for i in range(cycles):
                    await _cycle(port, i, kind)
                await asyncio.sleep(2)
                now = rss_kb(server.pid) / 1024
                result[kind] = now
                result[f"{kind}_per_100"] = (now - last) * 100 / cycles
                last = now
            return result
        finally:
            server.terminate()
            await asyncio.wait_for(server.wait(), TIMEOUT)


def run(quick: bool) -> list[dict]:
    """Rows for ``python -m bench``: RSS growth per 100 sessions of each kind."""
    result = asyncio.run(soak(50 if quick else 200))
    return [row("soak: server RSS after warm-up", result["start"], "MB", None, False),
            row("soak: RSS growth per 100 lobby sessions", result["lobby_per_100"], "MB", 5.0, False),
            row("soak: RSS growth per 100 New-game-form sessions", result["form_per_100"], "MB",
                5.0, False)]


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_soak")
    parser.add_argument("--cycles", type=int, default=200, help="sessions of each kind (default 200)")
    args = parser.parse_args()
    result = asyncio.run(soak(args.cycles))
    print(f"server RSS after {WARM_UP} warm-up sessions: {result['start']:.1f} MB")
    for kind in ("lobby", "form"):
        print(f"after {args.cycles} {kind} sessions: {result[kind]:.1f} MB "
              f"({result[f'{kind}_per_100']:+.1f} MB per 100 sessions)")


if __name__ == "__main__":
    main()
