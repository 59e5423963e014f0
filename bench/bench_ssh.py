"""SSH hosting: memory per session and key-to-screen latency with many players.

    python -m bench.bench_ssh [--quick] [--workers N] [--database]   # alone
    python -m bench.bench_ssh --database --workers N --ramp [SECONDS]  # keys/s sustained at p95 ≤ 100 ms
    python -m bench.bench_ssh --database --workers 2 --slow-callbacks  # what stalls the loops
    python -m bench ssh                                  # with the other benchmarks

The server under test is ``momiji serve`` in a child process
(``bench/ssh_server.py``): with ``--workers 1`` (the default) today's single
process, with ``--workers N`` the parent and N workers of ``momiji serve
--workers N``, with the serve defaults (bots in the bot pool) but for the
limits one address would hit. With ``--database`` the server runs with
``--database URL`` on a throw-away PostgreSQL the bench starts for the run
(``bench/pg_cluster.py``: initdb/pg_ctl from the machine's packages, a temp
dir, a loopback port, stopped at the end, an error included); without it, on
the file store (a temp data dir). The players are asyncssh clients in this
process (``bench/ssh_players.py``), each rendering into a pyte screen: each
logs in with its own key and starts a solo game, then waits at the table. A
key press is ``1`` (select a hand card, which redraws the table and its
footer); its latency runs from writing the key to the moment the redraw
reaches the client's screen. The phases:

- one key at a time: a random player presses, waits for the screen, next;
- everyone typing: each player presses every 2-8 s (about 11 keys/s for 64);
- 4 tables of 4 ``hard`` bots (headless apps on the servers' loops, spread
  over the workers, thinking in the bot pools), nobody typing;
- everyone typing while those bot tables play.

Memory is counted over every process of the server (parent, workers, bot
pools): PSS (``/proc/PID/smaps_rollup``: a page shared by k processes counts
1/k in each, so forked workers are not counted twice) and RSS. Each serving
process reports its loop lag (how late a 10 ms sleep wakes up) and its
garbage collections; the longest pause is the worst of either in any worker.
With ``--database`` the cluster's processes (postmaster and backends, not the
server's children) are counted in rows of their own, and in a second
per-session figure. The bench's bot tables are its own headless apps; they
save where the server saves (with ``--database`` in the database, as the
players' solo games and a database server's shared tables do).
The players run on the same machine: on 2 cores they take CPU from the
workers. The load average is printed too. ``--ramp`` replaces the phases
with a rising key rate (``bench/ssh_ramp.py``); ``--slow-callbacks`` prints,
per phase, the servers' loop callbacks over 30 ms and collections over
20 ms (``bench/slow_callbacks.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

try:
    from .common import p95, row
    from .pg_cluster import Cluster, cluster
    from .proc_tree import tree_memory_mb, tree_pids
    from .slow_callbacks import gc_summary
    from .slow_callbacks import summary as slow_summary
    from .ssh_players import Player, everyone_typing, login_and_start_solo, one_at_a_time
    from .ssh_server import BOT_LEVEL, BOT_TABLES
    from .ssh_ramp import SETTLE, ramp, sustained
    from .ssh_server import main as server_main
except ImportError:  # run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from bench.common import p95, row
    from bench.pg_cluster import Cluster, cluster
    from bench.proc_tree import tree_memory_mb, tree_pids
    from bench.slow_callbacks import gc_summary
    from bench.slow_callbacks import summary as slow_summary
    from bench.ssh_players import Player, everyone_typing, login_and_start_solo, one_at_a_time
    from bench.ssh_server import BOT_LEVEL, BOT_TABLES
    from bench.ssh_ramp import SETTLE, ramp, sustained
    from bench.ssh_server import main as server_main

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 60.0
LISTENING = re.compile(r"\[worker \d+ pid (\d+)\] momiji_tui\.ssh: momiji serve: listening on \S+ port (\d+)")


class Server:
    """The server's process tree, its log, and its serving processes."""

    def __init__(self, proc: asyncio.subprocess.Process, data: Path, database: Cluster | None = None) -> None:
        self.proc, self.data, self.database = proc, data, database
        self.log: list[str] = []
        self.serving: dict[int, int] = {}  # pid -> port
        self.reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        assert self.proc.stderr is not None
        while line := await self.proc.stderr.readline():
            text = line.decode(errors="replace").rstrip()
            self.log.append(text)
            if match := LISTENING.search(text):
                self.serving[int(match.group(1))] = int(match.group(2))
            if "Traceback" in text or "ERROR" in text:
                print(text, file=sys.stderr)

    async def ready(self, workers: int) -> int:
        deadline = time.monotonic() + TIMEOUT
        while len(self.serving) < workers:
            if self.proc.returncode is not None or time.monotonic() > deadline:
                raise RuntimeError("the server did not start:\n" + "\n".join(self.log[-20:]))
            await asyncio.sleep(0.05)
        return next(iter(self.serving.values()))

    def memory(self) -> tuple[float, float]:
        return tree_memory_mb(self.proc.pid)

    def database_memory(self) -> tuple[float, float]:
        """(PSS, RSS) of the PostgreSQL cluster (postmaster and backends); (0, 0) without one."""
        return tree_memory_mb(self.database.pid()) if self.database else (0.0, 0.0)

    def signal_workers(self, sig: signal.Signals) -> None:
        for pid in self.serving:
            os.kill(pid, sig)

    async def stats(self) -> list[dict[str, Any]]:
        """Every serving process's samples (SIGUSR1: each writes its file)."""
        for path in self.data.glob("bench-stats-*.json"):
            path.unlink()
        self.signal_workers(signal.SIGUSR1)
        deadline = time.monotonic() + TIMEOUT
        while len(list(self.data.glob("bench-stats-*.json"))) < len(self.serving):
            if time.monotonic() > deadline:
                raise RuntimeError("the workers did not report")
            await asyncio.sleep(0.1)
        await asyncio.sleep(0.2)  # the last file is complete
        return [json.loads(p.read_text()) for p in self.data.glob("bench-stats-*.json")]


def phase_stats(stats: list[dict[str, Any]], start: float, end: float) -> dict[str, float]:
    """Loop lag, collections and bot turns within [start, end], worst worker."""
    lag_p95 = lag_max = gc_max = 0.0
    full_gcs = turns = 0
    for worker in stats:
        lags = sorted(v for t, v in worker["lags"] if start <= t <= end) or [0.0]
        gcs = [(gen, pause) for t, gen, pause in worker["gcs"] if start <= t <= end]
        lag_p95, lag_max = max(lag_p95, p95(lags)), max(lag_max, lags[-1])
        gc_max = max([gc_max, *(pause for _, pause in gcs)])
        full_gcs += sum(gen == 2 for gen, _ in gcs)
        turns += sum(start <= t <= end for t in worker["turns"])
    return {"lag_p95_ms": lag_p95 * 1000, "pause_ms": max(lag_max, gc_max) * 1000, "lag_max_ms": lag_max * 1000,
            "gc_max_ms": gc_max * 1000, "full_gcs": full_gcs, "turns_per_s": turns / max(end - start, 1e-9)}


def _phase_rows(name: str, phase: dict[str, float], latencies: list[float] | None,
                seconds: float) -> list[dict]:
    rows = []
    if latencies:
        rows += [
            row(f"ssh: key-to-screen p50, {name} ({len(latencies) / seconds:.1f} keys/s)",
                statistics.median(latencies) * 1000, "ms", None, False),
            row(f"ssh: key-to-screen p95, {name}", p95(latencies) * 1000, "ms", 100, False),
        ]
    rows += [
        row(f"ssh: loop lag p95 (worst worker), {name}", phase["lag_p95_ms"], "ms", None, False),
        row(f"ssh: longest pause (loop lag or GC, any worker), {name}; loop lag max "
            f"{phase['lag_max_ms']:.0f} ms, GC max {phase['gc_max_ms']:.0f} ms, {phase['full_gcs']} full GCs",
            phase["pause_ms"], "ms", 50, False),
    ]
    if phase["turns_per_s"]:
        rows.append(row(f"ssh: bot turns/s, {name}", phase["turns_per_s"], "turns/s", None, True))
    return rows


def _ramp_rows(w: str, steps: list[dict[str, Any]], stats: list[dict[str, Any]]) -> list[dict]:
    """A row per ramp step (its p95) and the sustained keys/s at p95 ≤ 100 ms."""
    rows = []
    for index, step in enumerate(steps):
        phase = phase_stats(stats, *step["window"])
        rows.append(row(
            f"ssh [{w}]: ramp step {index + 1}: offered {step['offered']:.0f}, achieved {step['achieved']:.1f} "
            f"keys/s ({step['keys']} keys), p50 {step['p50_ms']:.0f} ms, loop lag p95 {phase['lag_p95_ms']:.0f} "
            f"ms, max {phase['lag_max_ms']:.0f} ms, GC max {phase['gc_max_ms']:.0f} ms; cores: server "
            f"{step['server_cores']:.2f}, PostgreSQL {step['database_cores']:.2f}, bench {step['bench_cores']:.2f}, "
            f"others {step['other_cores']:.2f}; load {step['load']:.1f}; key-to-screen p95",
            step["p95_ms"], "ms", 100, False))
    if steps:
        best, interpolated = sustained(steps)
        rows += [row(f"ssh [{w}]: sustained keys/s at p95 ≤ 100 ms (highest step that met it)",
                     best, "keys/s", None, True),
                 row(f"ssh [{w}]: the same, interpolated in p95 to the next step", interpolated, "keys/s",
                     None, True)]
    return rows


async def _phases(server: Server, players: list[Player], samples: int, seconds: float, bots_alone: float,
                  windows: dict[str, tuple[float, float]]) -> tuple[dict[str, list[float]], tuple[float, float]]:
    """The phases (one key at a time, all typing, bot tables alone, all typing
    with them): each phase's latencies and the memory with the bot tables;
    the phases' windows in ``windows``."""
    rng = random.Random(7)
    t0 = time.time()
    single = await one_at_a_time(players, samples, rng)
    windows["one key at a time"] = (t0, time.time())
    t0 = time.time()
    typing = await everyone_typing(players, seconds, rng)
    windows["all typing"] = (t0, time.time())
    server.signal_workers(signal.SIGUSR2)  # the bot tables
    await asyncio.sleep(4.0)  # their apps start
    t0 = time.time()
    await asyncio.sleep(bots_alone)
    windows[f"{BOT_TABLES} {BOT_LEVEL}-bot tables alone"] = (t0, time.time())
    t0 = time.time()
    busy = await everyone_typing(players, seconds, rng)
    windows[f"all typing + {BOT_TABLES} bot tables"] = (t0, time.time())
    latencies = {"one key at a time": single, "all typing": typing,
                 f"all typing + {BOT_TABLES} bot tables": busy}
    return latencies, server.memory()


async def _bench(sessions: int, samples: int, seconds: float, bots_alone: float, workers: int,
                 gc_default: bool, database: Cluster | None = None,
                 ramp_seconds: float | None = None) -> list[dict]:
    data = Path(tempfile.mkdtemp(prefix="momiji-bench-ssh-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL")}
    env["MOMIJI_DATA_DIR"] = str(data)
    env.pop("MOMIJI_DATABASE_URL", None)  # the file store unless --database
    extra = ["--gc-default"] if gc_default else []
    if database:  # in the environment, not on the command line (the URL holds the password)
        env["MOMIJI_BENCH_DATABASE_URL"] = database.url
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bench.bench_ssh", "--child", str(data), "--workers", str(workers),
        *extra, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE)
    server = Server(proc, data, database)
    players: list[Player] = []
    rows: list[dict] = []
    windows: dict[str, tuple[float, float]] = {}
    try:
        port = await server.ready(workers)
        on_database = sum("games in the database at" in line for line in server.log)
        if database and on_database < workers:
            raise RuntimeError("the server is not on the database:\n" + "\n".join(server.log[-20:]))
        await asyncio.sleep(1.0)
        idle, pg_idle = server.memory(), server.database_memory()
        players.append(await login_and_start_solo(port, "p0"))
        await asyncio.sleep(0.5)
        one, pg_one = server.memory(), server.database_memory()
        start = time.perf_counter()
        for batch in range(1, sessions, 8):  # logins in bursts of 8
            names = [f"p{i}" for i in range(batch, min(batch + 8, sessions))]
            players += await asyncio.gather(*(login_and_start_solo(port, n) for n in names))
        burst = time.perf_counter() - start
        await asyncio.sleep(1.0)
        full, pg_full = server.memory(), server.database_memory()

        steps: list[dict[str, Any]] = []
        latencies: dict[str, list[float]] = {}
        loaded = full
        if ramp_seconds:
            steps = await ramp(players, ramp_seconds, lambda: sorted(tree_pids(proc.pid)),
                               lambda: sorted(tree_pids(database.pid())) if database else [])
        else:
            latencies, loaded = await _phases(server, players, samples, seconds, bots_alone, windows)
        stats = await server.stats()
        errors = [e for worker in stats for e in worker["bot_errors"]]
        if errors:
            print(f"bot errors: {errors}", file=sys.stderr)

        n, w = sessions, f"{workers} worker{'s' if workers > 1 else ''}{', database' if database else ''}"
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
        rows += [
            row(f"ssh [{w}]: machine load average (1 min) at the end, other processes included",
                load, "procs", None, False),
            row(f"ssh [{w}]: server memory (all processes), idle: PSS (RSS {idle[1]:.0f} MB)",
                idle[0], "MB", None, False),
            row(f"ssh [{w}]: server memory, {n} sessions at tables: PSS (RSS {full[1]:.0f} MB)",
                full[0], "MB", None, False),
            row(f"ssh [{w}]: memory per extra session, PSS (RSS {(full[1] - one[1]) / max(1, n - 1):.1f} MB)",
                (full[0] - one[0]) / max(1, n - 1), "MB", 10, False),
            *([] if ramp_seconds else [
                row(f"ssh [{w}]: server memory with the bot tables: PSS (RSS {loaded[1]:.0f} MB)",
                    loaded[0], "MB", None, False)]),
            row(f"ssh [{w}]: {n - 1} logins to a started solo game (bursts of 8)", burst, "s", None, False),
        ]
        if database:  # the cluster's processes are not the server's children: counted apart
            rows += [
                row(f"ssh [{w}]: PostgreSQL memory (all its processes), idle: PSS (RSS {pg_idle[1]:.0f} MB)",
                    pg_idle[0], "MB", None, False),
                row(f"ssh [{w}]: PostgreSQL memory, {n} sessions at tables: PSS (RSS {pg_full[1]:.0f} MB)",
                    pg_full[0], "MB", None, False),
                row(f"ssh [{w}]: memory per extra session, server + PostgreSQL, PSS "
                    f"(RSS {(full[1] + pg_full[1] - one[1] - pg_one[1]) / max(1, n - 1):.1f} MB)",
                    (full[0] + pg_full[0] - one[0] - pg_one[0]) / max(1, n - 1), "MB", 10, False),
            ]
        for name, (begin, end) in windows.items():
            rows += [dict(r, benchmark=r["benchmark"].replace("ssh:", f"ssh [{w}]:", 1))
                     for r in _phase_rows(f"{n} sessions, {name}" if name in latencies else name,
                                          phase_stats(stats, begin, end), latencies.get(name), end - begin)]
        rows += _ramp_rows(w, steps, stats)
        slow = [record for worker in stats for record in worker["slow"]]
        for name, (begin, end) in [*windows.items(), *((f"ramp step {i + 1}", step["window"])
                                                       for i, step in enumerate(steps))]:
            if lines := slow_summary([r for r in slow if begin <= r["at"] <= end]):
                print(f"slow callbacks (over 30 ms, any worker), {name}:", *lines, sep="\n")
            if lines := gc_summary([c for worker in stats for c in worker.get("slow_gcs", ())
                                    if begin <= c["at"] <= end]):
                print(f"collections over 20 ms (any worker), {name}:", *lines, sep="\n")
        if idle == (0, 0):  # no /proc: memory not measured
            rows = [r for r in rows if r["unit"] != "MB"]
    finally:
        await asyncio.gather(*(p.close() for p in players), return_exceptions=True)
        if proc.returncode is None:
            proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(proc.wait(), TIMEOUT)
            except (Exception, asyncio.CancelledError):
                proc.kill()
                await proc.wait()
        await asyncio.gather(server.reader, return_exceptions=True)
        shutil.rmtree(data, ignore_errors=True)
    return rows


def run(quick: bool, sessions: int | None = None, workers: int = 1, gc_default: bool = False,
        database: bool = False, ramp_seconds: float | None = None) -> list[dict]:
    """Rows ``{"benchmark", "value", "unit", "target", "met", ...}``; with
    ``database``, the server on a throw-away PostgreSQL started for the run;
    with ``ramp_seconds``, the ramp (``bench/ssh_ramp.py``) instead of the phases."""
    default, samples, seconds, bots_alone = (16, 40, 12.0, 8.0) if quick else (64, 150, 40.0, 15.0)
    if not database:
        return asyncio.run(_bench(sessions or default, samples, seconds, bots_alone, workers, gc_default,
                                  None, ramp_seconds))
    with cluster() as pg:
        return asyncio.run(_bench(sessions or default, samples, seconds, bots_alone, workers, gc_default, pg,
                                  ramp_seconds))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_ssh", description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="16 sessions, shorter phases")
    parser.add_argument("--sessions", type=int, metavar="N", help="players (default 64; 16 with --quick)")
    parser.add_argument("--workers", type=int, default=1, metavar="N",
                        help="momiji serve --workers N (default 1: today's single process)")
    parser.add_argument("--gc-default", action="store_true",
                        help="CPython's collector thresholds instead of tune_gc's (heap still frozen)")
    parser.add_argument("--gc-thresholds", metavar="A,B,C",
                        help="these collector thresholds instead of tune_gc's (heap still frozen)")
    parser.add_argument("--database", action="store_true",
                        help="serve with --database URL on a throw-away PostgreSQL started for the run "
                             "(initdb/pg_ctl from the machine's packages) instead of the file store")
    parser.add_argument("--ramp", type=float, nargs="?", const=20.0, metavar="SECONDS",
                        help="instead of the phases, raise the keys/s step by step (each step SECONDS, "
                             "default 20) and report the keys/s sustained at p95 ≤ 100 ms")
    parser.add_argument("--slow-callbacks", action="store_true",
                        help="report the servers' event-loop callbacks over 30 ms with their stacks")
    parser.add_argument("--child", metavar="DATA_DIR", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return server_main(Path(args.child), args.workers, args.gc_default,
                           os.environ.get("MOMIJI_BENCH_DATABASE_URL") or None)
    if args.ramp is not None and args.ramp <= SETTLE:
        parser.error(f"--ramp SECONDS must be more than {SETTLE:g} (the first {SETTLE:g} s of a step are not counted)")
    if args.gc_thresholds:  # the server child reads it (bench/ssh_server.py)
        os.environ["MOMIJI_BENCH_GC_THRESHOLDS"] = args.gc_thresholds
    if args.slow_callbacks:  # the server child reads it (bench/ssh_server.py)
        os.environ["MOMIJI_BENCH_SLOW_CALLBACKS"] = "1"
    rows = run(args.quick, args.sessions, args.workers, args.gc_default, args.database, args.ramp)
    width = max(len(r["benchmark"]) for r in rows)
    for r in rows:
        target = "" if r["target"] is None else f"{'≥' if r['higher_is_better'] else '≤'}{r['target']}"
        met = "" if r["met"] is None else ("yes" if r["met"] else "NO")
        print(f"{r['benchmark']:{width}}  {r['value']:>10}  {r['unit']:8}  {target:>6}  {met}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
