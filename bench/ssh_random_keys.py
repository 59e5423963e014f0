"""Random bytes from guests over the real OpenSSH client into ``momiji serve``.

    python -m bench.ssh_random_keys                 # 8 guests, 20 KB each, seed 1
    python -m bench.ssh_random_keys --sessions 8 --bytes 20000 --seed 7 --log serve.log

Starts ``momiji serve`` on a free loopback port with a throw-away data dir,
opens ``--sessions`` guest sessions with ``ssh -tt -e none`` (no escape
character: ``~.`` must reach the server as bytes) on pseudo-terminals, waits
for the lobby, then sends each session ``--bytes`` seeded random bytes in
small chunks. Never sent: ``q``, ctrl+c, ctrl+d, ctrl+p, ctrl+q (the keys
that quit, or open the palette whose "Quit" a random Enter could pick).
Then ends each session with Esc and ctrl+q (queued behind its random
bytes: a session that ends ``quit`` then lived through all of them; the
lobby's own Quit, picked by random arrows and Enter, also ends one
``quit``), waits up to ``--drain`` seconds for the server to work through
the input it holds, stops the server with SIGTERM and prints the log's
verdict: how each session ended (``quit``, ``error``, ``disconnect``…) and
every line with ``Traceback``, ``ERROR`` or ``error after``. Exit status 0
only when no such line was logged, no session ended ``error`` and the
server stopped with status 0.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import fcntl
import os
import pty
import random
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 60.0
NEVER_SENT = frozenset(b"q\x03\x04\x10\x11")
"""``q``, ctrl+c, ctrl+d, ctrl+p, ctrl+q."""


def random_bytes(rng: random.Random, count: int) -> bytes:
    """``count`` random bytes, none of :data:`NEVER_SENT`."""
    allowed = [b for b in range(256) if b not in NEVER_SENT]
    return bytes(rng.choice(allowed) for _ in range(count))


class Client:
    """One ``ssh`` process on a pseudo-terminal; keeps what it prints."""

    def __init__(self, argv: list[str], size: tuple[int, int] = (100, 30)) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, start_new_session=True,
                                     close_fds=True)
        os.close(slave)
        self.master = master
        self.raw = bytearray()
        self.eof = asyncio.Event()
        asyncio.get_running_loop().add_reader(master, self._readable)

    def _readable(self) -> None:
        try:
            data = os.read(self.master, 65536)
        except OSError:  # EIO: the child closed the terminal
            data = b""
        if not data:
            asyncio.get_running_loop().remove_reader(self.master)
            self.eof.set()
            return
        self.raw += data
        if len(self.raw) > 1 << 20:  # keep the tail only
            del self.raw[: len(self.raw) - (1 << 19)]

    def alive(self) -> bool:
        return self.proc.poll() is None and not self.eof.is_set()

    def send(self, data: bytes) -> None:
        with contextlib.suppress(OSError):
            os.write(self.master, data)

    def close(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            asyncio.get_running_loop().remove_reader(self.master)
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(TIMEOUT)
        with contextlib.suppress(OSError):
            os.close(self.master)


async def wait_for(predicate, what: str, timeout: float = TIMEOUT) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


async def guest(port: int, number: int, data: bytes, chunk: int, pause: float, drain: float,
                gate: asyncio.Semaphore) -> tuple[bool, bytes]:
    """One guest session: log in, send ``data``; whether it is still connected after."""
    argv = ["ssh", "-F", "/dev/null", "-tt", "-e", "none", "-p", str(port),
            "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR",
            "-o", "IdentityAgent=none", "-o", "ConnectTimeout=20", "-o", "PubkeyAuthentication=no",
            "-o", "PreferredAuthentications=keyboard-interactive", f"cat{number}@127.0.0.1"]
    async with gate:
        return await _guest(argv, number, data, chunk, pause, drain)


async def _guest(argv: list[str], number: int, data: bytes, chunk: int, pause: float,
                 drain: float) -> tuple[bool, bytes]:
    client = Client(argv)
    try:
        await wait_for(lambda: b"Welcome" in client.raw, f"guest {number}'s lobby", 5 * TIMEOUT)
        for start in range(0, len(data), chunk):
            if not client.alive():
                break
            client.send(data[start:start + chunk])
            await asyncio.sleep(pause)
        alive = client.alive()
        if alive:
            client.send(b"\x1b" * 3)  # out of any palette or form…
            await asyncio.sleep(0.5)
            client.send(b"\x11")  # …and ctrl+q: the session ends on its own, after every byte before
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(client.eof.wait(), drain)
        return alive, bytes(client.raw[-2000:])
    finally:
        client.close()


async def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ssh_random_keys")
    parser.add_argument("--sessions", type=int, default=8)
    parser.add_argument("--bytes", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--chunk", type=int, default=16, help="bytes per write")
    parser.add_argument("--pause", type=float, default=0.02, help="seconds between writes")
    parser.add_argument("--parallel", type=int, default=8, help="sessions sending at once")
    parser.add_argument("--drain", type=float, default=600, help="seconds a session may take to end after ctrl+q")
    parser.add_argument("--log", type=Path, help="also write the server's log here")
    args = parser.parse_args(argv)
    if shutil.which("ssh") is None:
        print("no OpenSSH client: apt-get install openssh-client", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="momiji-random-keys-") as tmp:
        env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL")}
        env.update(HOME=tmp, TERM="dumb", XDG_CONFIG_HOME=f"{tmp}/config", XDG_DATA_HOME=f"{tmp}/share")
        server = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "momiji_tui.cli", "serve", "--port", "0", "--data-dir", f"{tmp}/served",
            "--bot-workers", "0", "--max-sessions-per-ip", str(args.sessions + 1),
            "--max-startups-per-ip", str(args.sessions + 1), "--stop-countdown", "0",
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT, env=env)
        log: list[str] = []

        async def read_log() -> None:
            assert server.stderr is not None
            while line := await server.stderr.readline():
                log.append(line.decode(errors="replace").rstrip("\n"))

        reader = asyncio.ensure_future(read_log())
        try:
            await wait_for(lambda: any("listening on" in line for line in log), "the server")
            port = int(next(re.search(r"port (\d+)", line).group(1)  # type: ignore[union-attr]
                            for line in log if "listening on" in line))
            rng = random.Random(args.seed)
            payloads = [random_bytes(rng, args.bytes) for _ in range(args.sessions)]
            started = time.monotonic()
            gate = asyncio.Semaphore(args.parallel)
            results = await asyncio.gather(*(guest(port, i, payload, args.chunk, args.pause, args.drain, gate)
                                             for i, payload in enumerate(payloads)))
            elapsed = time.monotonic() - started
        finally:
            if server.returncode is None:
                server.send_signal(signal.SIGTERM)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(server.wait(), 3 * TIMEOUT)
            if server.returncode is None:
                server.kill()
                await server.wait()
            await asyncio.wait_for(reader, TIMEOUT)
        if args.log is not None:
            args.log.write_text("\n".join(log) + "\n")
    bad = [line for line in log if re.search(r"Traceback|\bERROR\b|error after|Error:", line)]
    ends = [line.split("session end from ", 1)[1] for line in log if "session end from " in line]
    print(f"{args.sessions} guest sessions x {args.bytes} random bytes (seed {args.seed}) in {elapsed:.0f} s")
    for number, (alive, _tail) in enumerate(results):
        print(f"  guest {number}: {'connected after its bytes' if alive else 'ENDED before its bytes were sent'}")
    print("session ends in the server log:")
    for line in ends:
        print("  " + line)
    errors = sum(", error after " in line for line in ends)
    print(f"server exit status {server.returncode}; log lines {len(log)}; "
          f"Traceback/ERROR/error lines: {len(bad)}")
    for line in bad[:40]:
        print("  " + line)
    clean = not bad and errors == 0 and len(ends) == args.sessions and server.returncode == 0
    print("CLEAN" if clean else "NOT CLEAN")
    return 0 if clean else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
