"""SSH hosting: memory per session and key-to-screen latency with many players.

    python -m bench.bench_ssh [--quick]      # alone
    python -m bench ssh                       # with the other benchmarks

The game server (``start_game_server``: lobby, one LobbyApp per session, the
defaults of ``momiji serve``) runs in a child process; the players are
asyncssh clients in this process, each rendering into a pyte screen. Every
player logs in with its own key and starts a solo game, then waits at the
table. A key press is ``1`` (select a hand card, which redraws the table and
its footer); its latency runs from writing the key to the moment the redraw
reaches the client's screen (an idle session sends nothing, so the next
drawing is the answer). The phases:

- one key at a time: a random player presses, waits for the screen, next;
- everyone typing: each player presses every 2-8 s (about 11 keys/s for 64);
- 4 more tables of 4 ``hard`` bots play on the server (headless apps on the
  same loop, the default 0.6 s between bot moves), nobody typing: first with
  the bots thinking in the apps' threads, then in the server's bot worker
  processes (``momiji serve``'s default): does the loop stay responsive?
- everyone typing while those bot tables play.

Memory is the child's resident set (``/proc``, Linux). The child also reports
its event loop's lag (how late a 10 ms sleep wakes up) and its full garbage
collections. The machine's load average is printed too: other processes on a
shared machine slow everything down.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

try:
    from .common import p95, row, rss_kb
except ImportError:  # run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from bench.common import p95, row, rss_kb

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 60.0
BOT_TABLES = 4
BOT_LEVEL = "hard"


# =============================================================== the server (child)
async def _child(data_dir: Path) -> None:
    """The game server, controlled by lines on stdin; answers on stdout."""
    from momiji_tui import ssh

    ssh.prepare_environment()
    import gc

    from momiji_tui.ssh.bot_pool import default_workers
    from momiji_tui.ssh.game_server import start_game_server, tune_gc

    # As momiji serve runs it: its defaults, bots in worker processes.
    server = await start_game_server(data_dir=data_dir, port=0, seat_wait=None,
                                     max_sessions=500, max_sessions_per_ip=500, idle_timeout=None,
                                     login_timeout=120, bot_workers=default_workers())
    tune_gc()
    assert server.bots is not None
    await asyncio.to_thread(server.bots.start)
    loop = asyncio.get_running_loop()
    lags: list[float] = []
    full_gcs: list[float] = []
    gc_start = [0.0]

    def on_gc(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            gc_start[0] = time.perf_counter()
        elif info["generation"] == 2:
            full_gcs.append(time.perf_counter() - gc_start[0])

    gc.callbacks.append(on_gc)
    bot_apps: list[Any] = []
    bot_tasks: list[asyncio.Task[Any]] = []
    bot_errors: list[str] = []
    turns = [0]

    async def measure_lag() -> None:
        while True:
            start = loop.time()
            await asyncio.sleep(0.01)
            lags.append(loop.time() - start - 0.01)

    lag_task = asyncio.ensure_future(measure_lag())
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)

    def say(text: str) -> None:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    say(f"PORT {server.port}")
    while line := (await reader.readline()).decode().strip():
        if line == "rss":
            say(f"RSS {rss_kb(os.getpid())}")
        elif line == "reset":
            lags.clear()
            full_gcs.clear()
            turns[0] = 0
            say("OK")
        elif line == "stats":
            ordered = sorted(lags) or [0.0]
            say("STATS " + json.dumps({
                "lag_p95_ms": p95(ordered) * 1000, "lag_max_ms": ordered[-1] * 1000,
                "bot_turns": turns[0], "samples": len(lags), "full_gcs": len(full_gcs),
                "full_gc_max_ms": max(full_gcs, default=0.0) * 1000, "bot_errors": bot_errors[-3:]}))
        elif line.startswith("bots "):  # "bots threads" or "bots processes"
            make_bot = _reporting(server.bots.make_bot if line == "bots processes" else None, bot_errors)
            for _ in range(BOT_TABLES):
                bot_tasks.append(asyncio.ensure_future(
                    _bot_table(data_dir / f"bots{len(bot_tasks)}", bot_apps, turns, make_bot)))
            await _wait(lambda: len(bot_apps) == BOT_TABLES)
            say("OK")
        elif line == "nobots":
            for app in bot_apps:
                app.exit()
            await asyncio.gather(*bot_tasks, return_exceptions=True)
            bot_apps.clear()
            bot_tasks.clear()
            say("OK")
        elif line == "quit":
            break
    lag_task.cancel()
    for app in bot_apps:
        app.exit()
    await asyncio.gather(*bot_tasks, return_exceptions=True)
    await server.close()
    say("BYE")


def _reporting(make_bot: Any, errors: list[str]) -> Any:
    """``make_bot`` whose bots note their failures in ``errors``."""
    if make_bot is None:
        from momiji_tui.bots import make_bot

    def make(level: str, seed: int = 0, **budget: Any) -> Any:
        bot = make_bot(level, seed=seed, **budget)
        choose = bot.choose

        def checked(view: Any) -> Any:
            try:
                return choose(view)
            except BaseException as exc:
                errors.append(repr(exc))
                raise

        bot.choose = checked
        return bot

    return make


async def _bot_table(data_dir: Path, apps: list[Any], turns: list[int], make_bot: Any) -> None:
    """A headless app on the server's loop, at a table of 4 bots of
    ``BOT_LEVEL``, starting a new game whenever one ends."""
    from momiji_tui.engine import events as ev
    from momiji_tui.session.table import BOT, SeatConfig, Table
    from momiji_tui.ui.app import MomijiApp

    app = MomijiApp(data_dir, hosted=True, make_bot=make_bot)  # the default pause between bot moves
    run = asyncio.ensure_future(app.run_async(headless=True, size=(80, 24)))
    await _wait(lambda: app.is_running and app.screen_stack)
    apps.append(app)
    seed = 0
    while not run.done():
        seed += 1
        table = Table.new([SeatConfig(f"Bot {i}", BOT, BOT_LEVEL) for i in range(4)], seed=seed,
                          data_dir=data_dir)
        table.subscribe(lambda events: turns.__setitem__(
            0, turns[0] + sum(isinstance(e, ev.TurnEnded) for e in events)))
        app.call_later(app.open_table, table, 0)
        while not table.finished and not run.done():
            await asyncio.sleep(0.1)
    await run


async def _wait(predicate: Any, timeout: float = TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError("the server did not get ready")
        await asyncio.sleep(0.01)


# ============================================================ the players (parent)
class Child:
    """The server process and its control pipe."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc

    async def ask(self, command: str, answer: str) -> str:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(command.encode() + b"\n")
        await self.proc.stdin.drain()
        return await self.expect(answer)

    async def expect(self, answer: str) -> str:
        assert self.proc.stdout is not None
        while True:
            line = (await asyncio.wait_for(self.proc.stdout.readline(), TIMEOUT)).decode()
            if not line:
                raise RuntimeError("the server process ended")
            if line.startswith(answer):
                return line[len(answer):].strip()

    async def rss_mb(self) -> float:
        return int(await self.ask("rss", "RSS")) / 1024


class Player:
    """One SSH session with a PTY, rendered by pyte."""

    def __init__(self, conn: Any, proc: Any) -> None:
        import pyte

        self.conn = conn
        self.proc = proc
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        self.changed = asyncio.Event()
        self.pump = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        while data := await self.proc.stdout.read(65536):
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

    async def key_to_screen(self, key: bytes) -> float:
        """Seconds from writing ``key`` until the server's redraw reaches the
        screen (an idle session sends nothing, so the next drawing is the answer)."""
        self.changed.clear()
        start = time.perf_counter()
        self.proc.stdin.write(key)
        await asyncio.wait_for(self.changed.wait(), TIMEOUT)
        return time.perf_counter() - start

    async def close(self) -> None:
        self.conn.abort()
        self.pump.cancel()
        await asyncio.gather(self.pump, return_exceptions=True)


async def _login_and_start_solo(port: int, name: str) -> Player:
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


async def _one_at_a_time(players: list[Player], samples: int, rng: random.Random) -> list[float]:
    """A random player presses "1"; the next press waits for its screen."""
    latencies = []
    for _ in range(samples):
        latencies.append(await rng.choice(players).key_to_screen(b"1"))
        await asyncio.sleep(0.05)
    return latencies


async def _everyone_typing(players: list[Player], seconds: float, rng: random.Random) -> list[float]:
    """Every player presses "1" every 2-8 s for ``seconds``."""
    latencies: list[float] = []
    end = time.perf_counter() + seconds

    async def one(player: Player) -> None:
        await asyncio.sleep(rng.uniform(0, 8))
        while time.perf_counter() < end:
            latencies.append(await player.key_to_screen(b"1"))
            await asyncio.sleep(rng.uniform(2, 8))

    await asyncio.gather(*(one(p) for p in players))
    return latencies


async def _bench(sessions: int, samples: int, seconds: float, bots_alone: float) -> list[dict]:
    data = Path(tempfile.mkdtemp(prefix="momiji-bench-ssh-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL")}
    env["MOMIJI_DATA_DIR"] = str(data)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bench.bench_ssh", "--child", str(data), cwd=ROOT, env=env,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=None)
    child = Child(proc)
    players: list[Player] = []
    rows: list[dict] = []
    try:
        port = int(await child.expect("PORT"))
        await asyncio.sleep(0.5)
        idle = await child.rss_mb()
        players.append(await _login_and_start_solo(port, "p0"))
        await asyncio.sleep(0.5)
        one = await child.rss_mb()
        start = time.perf_counter()
        for batch in range(1, sessions, 8):  # logins in bursts of 8
            names = [f"p{i}" for i in range(batch, min(batch + 8, sessions))]
            players += await asyncio.gather(*(_login_and_start_solo(port, n) for n in names))
        burst = time.perf_counter() - start
        await asyncio.sleep(1.0)
        full = await child.rss_mb()
        per_session = (full - one) / max(1, sessions - 1)

        rng = random.Random(7)
        await child.ask("reset", "OK")
        single = await _one_at_a_time(players, samples, rng)
        await child.ask("reset", "OK")
        typing = await _everyone_typing(players, seconds, rng)
        typing_stats = json.loads(await child.ask("stats", "STATS"))

        # Bot tables alone (nobody typing): bots in threads, then in processes.
        alone: dict[str, dict[str, float]] = {}
        for mode in ("threads", "processes"):
            await child.ask(f"bots {mode}", "OK")
            await asyncio.sleep(2.0)
            await child.ask("reset", "OK")
            await asyncio.sleep(bots_alone)
            alone[mode] = json.loads(await child.ask("stats", "STATS"))
            if alone[mode]["bot_errors"]:
                print(f"bots ({mode}) failed: {alone[mode]['bot_errors']}", file=sys.stderr)
            if mode == "threads":
                await child.ask("nobots", "OK")
        await child.ask("reset", "OK")
        t0 = time.perf_counter()
        busy = await _everyone_typing(players, seconds, rng)
        busy_seconds = time.perf_counter() - t0
        busy_stats = json.loads(await child.ask("stats", "STATS"))
        loaded = await child.rss_mb()

        n = sessions
        ms = 1000
        rows += [
            row("ssh: machine load average (1 min) at the end, other processes included",
                os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0, "procs", None, False),
            row("ssh: server memory, idle", idle, "MB", None, False),
            row(f"ssh: server memory, {n} sessions at tables", full, "MB", None, False),
            row("ssh: memory per extra session", per_session, "MB", 10, False),
            row(f"ssh: {n - 1} logins to a started solo game (bursts of 8)", burst, "s", None, False),
            row(f"ssh: key-to-screen p50, {n} sessions, one key at a time", statistics.median(single) * ms,
                "ms", None, False),
            row(f"ssh: key-to-screen p95, {n} sessions, one key at a time", p95(single) * ms, "ms", 100, False),
            row(f"ssh: key-to-screen p50, {n} sessions all typing ({len(typing) / seconds:.0f} keys/s)",
                statistics.median(typing) * ms, "ms", None, False),
            row(f"ssh: key-to-screen p95, {n} sessions all typing", p95(typing) * ms, "ms", 100, False),
            row(f"ssh: loop lag p95, {n} sessions all typing", typing_stats["lag_p95_ms"], "ms", None, False),
            row(f"ssh: full GC pauses while all type ({typing_stats['full_gcs']} in {seconds:.0f} s), longest",
                typing_stats["full_gc_max_ms"], "ms", None, False),
        ]
        for mode in ("threads", "processes"):
            tables = f"{BOT_TABLES} {BOT_LEVEL}-bot tables"
            rows += [
                row(f"ssh: loop lag p95, {tables} alone, bots in {mode}", alone[mode]["lag_p95_ms"], "ms", None, False),
                row(f"ssh: loop lag max, {tables} alone, bots in {mode}", alone[mode]["lag_max_ms"], "ms", None, False),
                row(f"ssh: bot turns/s, {tables}, bots in {mode}", alone[mode]["bot_turns"] / bots_alone,
                    "turns/s", None, True),
            ]
        rows += [
            row(f"ssh: key-to-screen p50, all typing + {BOT_TABLES} bot tables",
                statistics.median(busy) * ms, "ms", None, False),
            row(f"ssh: key-to-screen p95, all typing + {BOT_TABLES} bot tables", p95(busy) * ms, "ms",
                100, False),
            row(f"ssh: loop lag p95, all typing + {BOT_TABLES} bot tables", busy_stats["lag_p95_ms"], "ms",
                None, False),
            row(f"ssh: bot turns/s, all typing + {BOT_TABLES} bot tables",
                busy_stats["bot_turns"] / busy_seconds, "turns/s", None, True),
            row("ssh: server memory with the bot tables", loaded, "MB", None, False),
        ]
        if idle == 0:  # no /proc: memory not measured
            rows = [r for r in rows if r["unit"] != "MB"]
    finally:
        await asyncio.gather(*(p.close() for p in players), return_exceptions=True)
        if proc.returncode is None:
            try:
                await child.ask("quit", "BYE")
                await asyncio.wait_for(proc.wait(), TIMEOUT)
            except (Exception, asyncio.CancelledError):
                proc.kill()
                await proc.wait()
        shutil.rmtree(data, ignore_errors=True)
    return rows


def run(quick: bool, sessions: int | None = None) -> list[dict]:
    """Rows ``{"benchmark", "value", "unit", "target", "met", ...}``."""
    default, samples, seconds, bots_alone = (16, 40, 12.0, 8.0) if quick else (64, 150, 40.0, 15.0)
    return asyncio.run(_bench(sessions or default, samples, seconds, bots_alone))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_ssh", description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="16 sessions, shorter phases")
    parser.add_argument("--sessions", type=int, metavar="N", help="players (default 64; 16 with --quick)")
    parser.add_argument("--child", metavar="DATA_DIR", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        asyncio.run(_child(Path(args.child)))
        return 0
    rows = run(args.quick, args.sessions)
    width = max(len(r["benchmark"]) for r in rows)
    for r in rows:
        target = "" if r["target"] is None else f"{'≥' if r['higher_is_better'] else '≤'}{r['target']}"
        met = "" if r["met"] is None else ("yes" if r["met"] else "NO")
        print(f"{r['benchmark']:{width}}  {r['value']:>10}  {r['unit']:8}  {target:>6}  {met}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
