"""The ramp of ``bench/bench_ssh.py --ramp``: the keys/s a server sustains at
key-to-screen p95 ≤ 100 ms.

The sessions stay logged in at their tables; step by step each player presses
``1`` more often (it waits for its redraw, then pauses a random 0.5-1.5 × the
step's mean interval, so the offered rate is ``sessions / interval`` at most:
a slow server also slows its players). Each step runs ``seconds`` (no pause runs past its end); the keys
sent in its first ``SETTLE`` seconds are not counted, achieved keys/s is the
keys sent (and answered) in the rest over its length. The players stop rendering
into pyte during the ramp (any bytes after a key are its redraw), so that the
bench process, on the same cores, costs as little as it can; its own CPU is
measured per step, with the server's and PostgreSQL's (``/proc/PID/stat``)
and the whole machine's (``/proc/stat``), so a saturated load generator or a
busy machine shows. The ramp stops after a step whose p95 is over
``STOP_P95`` or two steps in a row over the target.
"""

from __future__ import annotations

import asyncio
import os
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .common import p95
from .ssh_players import Player

INTERVALS = (6.0, 3.0, 2.0, 1.4, 1.0, 0.7, 0.5, 0.35, 0.25, 0.18)
"""Mean seconds between one player's keys, step by step."""
SETTLE = 3.0
TARGET = 0.100
STOP_P95 = 0.400
TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds of ``pids`` so far (Linux ``/proc``; a
    process gone is 0)."""
    total = 0
    for pid in pids:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            fields = stat[stat.rindex(")") + 2:].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, ValueError, IndexError):
            continue
    return total / TICK


def machine_busy_seconds() -> float:
    """CPU seconds every core of the machine spent not idle (``/proc/stat``)."""
    try:
        fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return 0.0
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return (sum(fields[:8]) - idle) / TICK


async def _step(players: list[Player], interval: float, seconds: float,
                rng: random.Random) -> list[tuple[float, float]]:
    """(sent at, latency) of every key answered in the step."""
    keys: list[tuple[float, float]] = []
    end = time.perf_counter() + seconds

    async def one(player: Player) -> None:
        pause = rng.uniform(0, interval)
        while time.perf_counter() + pause < end:  # no pause runs past the step's end
            await asyncio.sleep(pause)
            keys.append(await player.key_to_screen(b"1"))
            pause = rng.uniform(0.5, 1.5) * interval

    await asyncio.gather(*(one(p) for p in players))
    return keys


async def ramp(players: list[Player], seconds: float, server_pids: Callable[[], list[int]],
               database_pids: Callable[[], list[int]]) -> list[dict[str, Any]]:
    """One dict per step: offered and achieved keys/s, p50/p95 (ms), keys
    counted, CPU in cores of the server, PostgreSQL, the bench, the rest of
    the machine, and the step's window (wall-clock) for the loop's figures."""
    for player in players:
        player.render = False
    rng = random.Random(15)
    steps = []
    over = 0
    for interval in INTERVALS:
        pids, pg = server_pids(), database_pids()
        wall, t0 = time.perf_counter(), time.time()
        cpu = (cpu_seconds(pids), cpu_seconds(pg), time.process_time(), machine_busy_seconds())
        keys = await _step(players, interval, seconds, rng)
        cpu_end = (cpu_seconds(pids), cpu_seconds(pg), time.process_time(), machine_busy_seconds())
        elapsed = time.perf_counter() - wall
        counted = sorted(latency for sent, latency in keys if t0 + SETTLE <= sent <= t0 + seconds)
        window = seconds - SETTLE  # keys are sent until the step's end; the last ones' answers come after
        server, database, bench, machine = ((b - a) / elapsed for a, b in zip(cpu, cpu_end, strict=True))
        step = {"interval": interval, "offered": len(players) / interval,
                "achieved": len(counted) / window, "keys": len(counted),
                "p50_ms": statistics.median(counted) * 1000 if counted else 0.0,
                "p95_ms": p95(counted) * 1000 if counted else 0.0,
                "server_cores": server, "database_cores": database, "bench_cores": bench,
                "other_cores": max(0.0, machine - server - database - bench),
                "window": (t0 + SETTLE, t0 + seconds), "load": os.getloadavg()[0]}
        steps.append(step)
        print(f"ramp: every {interval:.2f} s: offered {step['offered']:.0f}, achieved "
              f"{step['achieved']:.1f} keys/s ({step['keys']} keys), p50/p95 {step['p50_ms']:.0f}/"
              f"{step['p95_ms']:.0f} ms; cores: server {server:.2f}, PostgreSQL {database:.2f}, "
              f"bench {bench:.2f}, others {step['other_cores']:.2f}", flush=True)
        over = over + 1 if step["p95_ms"] > TARGET * 1000 else 0
        if step["p95_ms"] > STOP_P95 * 1000 or over >= 2:
            break
    return steps


def sustained(steps: list[dict[str, Any]]) -> tuple[float, float]:
    """(the highest achieved keys/s of a step with p95 ≤ 100 ms, and the same
    interpolated linearly in p95 between that step and the next one); (0, 0)
    when no step met the target."""
    best = 0.0
    interpolated = 0.0
    for index, step in enumerate(steps):
        if step["p95_ms"] > TARGET * 1000:
            continue
        if step["achieved"] > best:
            best = interpolated = step["achieved"]
            following = steps[index + 1] if index + 1 < len(steps) else None
            if following and following["p95_ms"] > TARGET * 1000 and following["achieved"] > best:
                share = (TARGET * 1000 - step["p95_ms"]) / (following["p95_ms"] - step["p95_ms"])
                interpolated = best + share * (following["achieved"] - best)
    return best, interpolated
