"""Bench-only: which event-loop callbacks run longer than a threshold, and
what they were doing (``MOMIJI_BENCH_SLOW_CALLBACKS=1``, ``bench_ssh
--slow-callbacks``).

Not asyncio's debug mode (``loop.slow_callback_duration`` with
``set_debug(True)``): that mode records a traceback at every handle's creation
and would slow the very server being measured. Instead ``Handle._run`` is
wrapped to time each callback (two clock reads), and a watchdog thread looks
every 5 ms at the callback in progress: once it has run over half the
threshold, the main thread's stack is sampled (``sys._current_frames``). A
callback over the threshold is kept with its duration, its name (the task's
coroutine, or the callback's), and its samples. Never imported by the product.
"""

from __future__ import annotations

import asyncio
import collections
import gc
import sys
import threading
import time
import traceback
from typing import Any

THRESHOLD = 0.03
"""Seconds: a callback that runs longer is recorded (asyncio's own default is 0.1)."""
EVERY = 0.005
STACK_DEPTH = 14


def describe(handle: asyncio.Handle) -> str:
    """A callback's name: the task's coroutine for a task's step, else the callback."""
    callback = handle._callback  # type: ignore[attr-defined]
    try:
        owner = callback.__self__
    except AttributeError:
        owner = None
    if isinstance(owner, asyncio.Task):
        coro = owner.get_coro()
        try:
            name = coro.__qualname__  # type: ignore[union-attr]
        except AttributeError:
            name = repr(coro)
        return f"task {name}"
    try:
        return f"callback {callback.__qualname__}"
    except AttributeError:
        return f"callback {callback!r}"[:120]


def _frame_text(frame: Any) -> list[str]:
    lines = []
    for summary in traceback.extract_stack(frame)[-STACK_DEPTH:]:
        path = summary.filename
        for marker in ("/momiji_tui/", "/textual/", "/rich/", "/asyncssh/", "/psycopg/", "/asyncio/",
                       "/bench/", "/pyte/"):
            if marker in path:
                path = marker.strip("/") + "/" + path.split(marker, 1)[1]
                break
        else:
            path = path.rsplit("/", 1)[-1]
        lines.append(f"{path}:{summary.lineno} {summary.name}")
    return lines


class SlowCallbacks:
    """Records the loop's callbacks that run over ``THRESHOLD`` (see the module)."""

    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []
        self.collections: list[dict[str, Any]] = []  # over 20 ms: generation, wall and CPU seconds
        self._gc_start = (0.0, 0.0)
        self._current: tuple[float, Any, list[list[str]]] | None = None
        self._main = threading.get_ident()
        self._stop = threading.Event()

    def install(self) -> None:
        """Wrap ``asyncio.Handle._run`` (every loop of this process) and start the watchdog."""
        original = asyncio.Handle._run  # type: ignore[attr-defined]
        records, clock, cpu_clock = self.records, time.perf_counter, time.thread_time

        def timed_run(handle: asyncio.Handle) -> None:
            samples: list[list[str]] = []
            cpu = cpu_clock()
            start = clock()
            self._current = (start, handle, samples)
            try:
                original(handle)
            finally:
                self._current = None
                duration = clock() - start
                if duration > THRESHOLD:
                    records.append({"at": time.time(), "seconds": duration, "name": describe(handle),
                                    "cpu": cpu_clock() - cpu, "samples": samples})

        asyncio.Handle._run = timed_run  # type: ignore[attr-defined]
        gc.callbacks.append(self._on_gc)
        threading.Thread(target=self._watch, name="slow-callbacks", daemon=True).start()

    def _on_gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_start = (time.perf_counter(), time.thread_time())
            return
        wall = time.perf_counter() - self._gc_start[0]
        if wall > 0.02:
            self.collections.append({"at": time.time(), "generation": info["generation"], "seconds": wall,
                                     "cpu": time.thread_time() - self._gc_start[1],
                                     "collected": info["collected"], "objects": len(gc.get_objects(0))})

    def _watch(self) -> None:
        while not self._stop.wait(EVERY):
            current = self._current
            if current is None or time.perf_counter() - current[0] < THRESHOLD / 2:
                continue
            frame = sys._current_frames().get(self._main)
            if frame is not None and self._current is current:
                current[2].append(_frame_text(frame))


def gc_summary(collections_: list[dict[str, Any]]) -> list[str]:
    """Lines: the collections over 20 ms, longest first (wall and CPU)."""
    return [f"  GC gen {c['generation']}: {c['seconds'] * 1000:.0f} ms wall, {c['cpu'] * 1000:.0f} ms CPU, "
            f"{c['collected']} collected" for c in sorted(collections_, key=lambda c: -c["seconds"])[:8]]


def summary(records: list[dict[str, Any]], top: int = 12) -> list[str]:
    """Lines: the slow callbacks (wall time; the main thread's CPU time
    beside it: the rest is the process waiting for a core, or for the
    interpreter lock held by another of its threads) grouped by name and most-sampled innermost
    frame of our code (``momiji_tui``, else any), by total time."""
    groups: dict[tuple[str, str], list[float]] = collections.defaultdict(list)
    cpus: dict[tuple[str, str], list[float]] = collections.defaultdict(list)
    stacks: dict[tuple[str, str], collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for record in records:
        ours = collections.Counter()
        for sample in record["samples"]:
            mine = [line for line in sample if line.startswith("momiji_tui/")]
            ours[(mine or sample or ["(not sampled)"])[-1]] += 1
        where = ours.most_common(1)[0][0] if ours else "(not sampled)"
        key = (record["name"], where)
        groups[key].append(record["seconds"])
        cpus[key].append(record.get("cpu", 0.0))
        for sample in record["samples"]:
            stacks[key][" < ".join(reversed(sample[-6:]))] += 1
    lines = []
    for (name, where), times in sorted(groups.items(), key=lambda kv: -sum(kv[1]))[:top]:
        lines.append(f"{len(times):4d} × {name} at {where}: total {sum(times) * 1000:.0f} ms, "
                     f"max {max(times) * 1000:.0f} ms, median {sorted(times)[len(times) // 2] * 1000:.0f} ms; "
                     f"on the CPU (thread time): total {sum(cpus[(name, where)]) * 1000:.0f} ms, "
                     f"max {max(cpus[(name, where)]) * 1000:.0f} ms")
        for stack, count in stacks[(name, where)].most_common(2):
            lines.append(f"        {count} samples: {stack}")
    return lines
