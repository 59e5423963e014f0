"""Helpers shared by the benchmark modules: timing and result rows."""

from __future__ import annotations

import statistics
import time
from pathlib import Path
from collections.abc import Callable


def row(benchmark: str, value: float, unit: str, target: float | None, higher_is_better: bool) -> dict:
    """One result row; ``met`` compares ``value`` to ``target`` (None: no target)."""
    met = None if target is None else (value >= target if higher_is_better else value <= target)
    return {"benchmark": benchmark, "value": round(value, 4), "unit": unit,
            "target": target, "met": met, "higher_is_better": higher_is_better}


def median_time(fn: Callable[[], object], repeat: int) -> float:
    """Median wall time of ``fn()`` over ``repeat`` runs, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def p95(values: list[float]) -> float:
    """The 95th percentile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(0.95 * len(ordered)) - 1))]


def rss_kb(pid: int) -> int:
    """Resident set size of process ``pid`` in kB (Linux ``/proc``); 0 elsewhere."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0
