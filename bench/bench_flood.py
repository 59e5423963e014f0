"""SSH hosting under a key flood: four flooding sessions at the per-address
limit and one player.

    nice -n 10 python -m bench.bench_flood [--seconds 12] [--leave-after 3] [--noise]

The server is a plain ``momiji serve`` in a child process (its default
limits: 4 sessions per address), on the file store in a temp data dir. Four
guests from 127.0.0.1, each the machine's OpenSSH client (``ssh -e none -tt``,
no key), each send 200 KB of ``x`` (``--noise``: 200 KB of seeded random
bytes) as fast as SSH lets them; the player, an asyncssh client from 127.0.0.2
(another address), logs in with a key, starts a solo game and presses ``1``
every 0.25 s for ``--seconds``; each press's key-to-screen time runs from
writing the key to the redraw reaching its pyte screen (``bench/ssh_players.py``).

Printed: the player's p50/p95/max key-to-screen time, the server's RSS
(process tree, MB) before the flood and its peak during it, how each flooder
ended and when: two flooders leave (their connections aborted) after
``--leave-after`` s, and the time until the server's side of each of their
sockets is closed (``/proc/net/tcp``: no ESTABLISHED nor CLOSE-WAIT socket
left on the server's port for that client port); the two that keep flooding
are closed by the server for flooding (``input flood`` in its log).
The player and the flooders run in this process on the same machine.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.proc_tree import tree_memory_mb
from bench.ssh_players import TIMEOUT, Player

ROOT = Path(__file__).resolve().parent.parent
_READERS: list[asyncio.Future[None]] = []
LISTENING = re.compile(r"listening on \S+ port (\d+)")
FLOOD_BYTES = 200_000


def _server_sockets(port: int) -> dict[int, str]:
    """The server's TCP sockets on ``port`` by remote port: their state
    (``/proc/net/tcp`` codes: 01 ESTABLISHED, 08 CLOSE_WAIT, ...)."""
    found: dict[int, str] = {}
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote, state = fields[1], fields[2], fields[3]
        if int(local.split(":")[1], 16) == port:
            found[int(remote.split(":")[1], 16)] = state
    return found


def _cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _start_server(data: Path) -> tuple[asyncio.subprocess.Process, int, list[str]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL")}
    env["MOMIJI_DATA_DIR"] = str(data)
    env.pop("MOMIJI_DATABASE_URL", None)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", "from momiji_tui.cli import main; raise SystemExit(main())", "serve",
        "--port", "0", "--data-dir", str(data), "--idle-timeout", "0",
        cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    log: list[str] = []
    port_found: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    async def read() -> None:
        assert proc.stderr is not None
        while line := await proc.stderr.readline():
            text = line.decode(errors="replace").rstrip()
            log.append(text)
            if (match := LISTENING.search(text)) and not port_found.done():
                port_found.set_result(int(match.group(1)))

    _READERS.append(asyncio.ensure_future(read()))
    port = await asyncio.wait_for(port_found, TIMEOUT)
    return proc, port, log


async def _connect(port: int, name: str, source: str) -> tuple[Any, Any]:
    import asyncssh

    conn = await asyncssh.connect(
        "127.0.0.1", port, username=name, known_hosts=None, agent_path=None, config=[],
        client_keys=[asyncssh.generate_private_key("ssh-ed25519")], kbdint_auth=False,
        password_auth=False, connect_timeout=TIMEOUT, local_addr=(source, 0))
    proc = await conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
    return conn, proc


def _client_port(pid: int) -> int | None:
    """The local TCP port of process ``pid``'s socket (Linux), if it has one."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            target = os.readlink(fd)
            if target.startswith("socket:["):
                inodes.add(target[8:-1])
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if fields[9] in inodes:
            return int(fields[1].split(":")[1], 16)
    return None


async def _flooder(port: int, number: int, payload: bytes, leave_after: float | None,
                   ended: dict[int, tuple[str, float]], sockets: dict[int, int], go: asyncio.Event) -> None:
    """One OpenSSH client, a guest, sending ``payload`` then keeping its input open."""
    ssh = await asyncio.create_subprocess_exec(
        "ssh", "-e", "none", "-tt", "-p", str(port), "-o", "StrictHostKeyChecking=no",
        "-o", "UserKnownHostsFile=/dev/null", "-o", "PubkeyAuthentication=no", "-o", "LogLevel=ERROR",
        "-o", "PreferredAuthentications=keyboard-interactive", f"flood{number}@127.0.0.1",
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    assert ssh.stdin is not None
    start = time.perf_counter()
    while (client := _client_port(ssh.pid)) is None and time.perf_counter() - start < TIMEOUT:
        await asyncio.sleep(0.05)
    if client is not None:
        sockets[number] = client
    await go.wait()  # every flooder logged in and at the lobby
    start = time.perf_counter()
    ssh.stdin.write(payload)
    try:
        if leave_after is not None:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(ssh.wait(), leave_after)
            if ssh.returncode is not None:
                ended[number] = ("closed by the server", time.perf_counter() - start)
                return
            ssh.kill()  # the client leaves (kill -9 of ssh)
            ended[number] = ("left", time.perf_counter() - start)
        else:
            await asyncio.wait_for(ssh.wait(), 60)
            ended[number] = ("closed by the server", time.perf_counter() - start)
    finally:
        if ssh.returncode is None:
            ssh.kill()
        await ssh.wait()


async def _player(port: int) -> Player:
    conn, proc = await _connect(port, "player", "127.0.0.2")
    player = Player(conn, proc)
    await player.wait_for("Welcome,")
    proc.stdin.write(b"n")
    await player.wait_for("Seats")
    proc.stdin.write(b"\x13")
    await player.wait_for("Your turn")
    return player


async def _bench(seconds: float, leave_after: float, noise: bool, count: int) -> int:
    data = Path(tempfile.mkdtemp(prefix="momiji-bench-flood-"))
    proc, port, log = await _start_server(data)
    try:
        player = await _player(port)
        await asyncio.sleep(1.0)
        rss_start = tree_memory_mb(proc.pid)[1]
        payload = (random.Random(39).randbytes(FLOOD_BYTES) if noise else b"x" * FLOOD_BYTES)
        ended: dict[int, tuple[str, float]] = {}
        sockets: dict[int, int] = {}
        go = asyncio.Event()
        flooders = [asyncio.ensure_future(_flooder(port, n, payload, leave_after if n < 2 else None, ended,
                                                   sockets, go)) for n in range(count)]
        while len(sockets) < count:
            await asyncio.sleep(0.1)
        await asyncio.sleep(3.0)  # their apps started (logins are not the flood)
        rss_before = tree_memory_mb(proc.pid)[1]
        cpu_before = _cpu_seconds(proc.pid)
        go.set()
        latencies: list[float] = []
        slow: list[tuple[float, float]] = []  # (seconds into the flood, latency)
        peak = rss_before
        closed_at: dict[int, float] = {}
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            latencies.append((await player.key_to_screen(b"1"))[1])
            slow.append((time.perf_counter() - start - latencies[-1], latencies[-1]))
            peak = max(peak, tree_memory_mb(proc.pid)[1])
            now = time.perf_counter()
            states = _server_sockets(port)
            for number, (how, when) in ended.items():
                if how == "left" and number not in closed_at and sockets[number] not in states:
                    closed_at[number] = now - start - when
            await asyncio.sleep(0.25)
        cpu = _cpu_seconds(proc.pid) - cpu_before
        elapsed = time.perf_counter() - start
        for result in await asyncio.gather(*flooders, return_exceptions=True):
            if isinstance(result, BaseException):
                print(f"a flooder failed: {result!r}", file=sys.stderr)
        await player.close()
    finally:
        proc.terminate()
        await proc.wait()
    latencies.sort()
    p95 = latencies[int(0.95 * (len(latencies) - 1))]
    print(f"flood: {count} sessions from one address, {FLOOD_BYTES // 1000} KB of "
          f"{'random bytes' if noise else 'x'} each; one player from another address")
    print(f"player key-to-screen: n={len(latencies)} p50={statistics.median(latencies) * 1000:.0f} ms "
          f"p95={p95 * 1000:.0f} ms max={latencies[-1] * 1000:.0f} ms")
    print(f"server CPU: {cpu:.1f} s in {elapsed:.1f} s of flood and typing")
    print(f"server RSS: {rss_start:.0f} MB with the player alone, {rss_before:.0f} MB with the flooders "
          f"logged in, {peak:.0f} MB peak during the flood (+{peak - rss_before:.0f} MB; "
          f"+{peak - rss_start:.0f} MB in all)")
    worst = sorted(slow, key=lambda s: -s[1])[:3]
    print("slowest presses: " + ", ".join(f"{lat * 1000:.0f} ms at {at:.1f} s" for at, lat in worst))
    for number in sorted(ended):
        how, when = ended[number]
        extra = ""
        if how == "left":
            extra = (f"; server's socket closed {closed_at[number]:.1f} s after" if number in closed_at
                     else "; server's socket still open at the end")
        print(f"flooder {number}: {how} after {when:.1f} s{extra}")
    floods = [line for line in log if "input flood" in line]
    print(f"server log: {len(floods)} 'input flood' lines")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_flood", description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=12.0, help="how long the player types")
    parser.add_argument("--leave-after", type=float, default=3.0, help="when two flooders leave (s)")
    parser.add_argument("--noise", action="store_true", help="random bytes instead of x")
    parser.add_argument("--flooders", type=int, default=4, help="flooding sessions (0: the player alone)")
    args = parser.parse_args(argv)
    return asyncio.run(_bench(args.seconds, args.leave_after, args.noise, args.flooders))


if __name__ == "__main__":
    raise SystemExit(main())
