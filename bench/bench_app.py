"""App speed: ``momiji --help`` wall time, start to first frame, key to screen."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
import time

from .common import median_time, p95, row


def help_seconds(repeat: int) -> float:
    """Median wall time of ``python -m momiji_tui.cli --help`` (a fresh process)."""
    cmd = [sys.executable, "-m", "momiji_tui.cli", "--help"]
    return median_time(lambda: subprocess.run(cmd, capture_output=True, check=True), repeat)


async def _first_frame() -> float:
    from momiji_tui.ui.app import MomijiApp

    start = time.perf_counter()
    app = MomijiApp(tempfile.mkdtemp(prefix="momiji-bench-"), bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        return time.perf_counter() - start


async def _key_latencies(presses: int) -> list[float]:
    """Seconds from a hand-card key press until the app hands the redrawn
    table to the terminal driver (``App._display``, a Textual internal that
    runs in headless mode too); Pilot's own waiting is not counted."""
    from momiji_tui.ui.app import MomijiApp
    from momiji_tui.ui.models.new_game import NewGameOptions
    from momiji_tui.ui.screens.table import TableScreen

    app = MomijiApp(tempfile.mkdtemp(prefix="momiji-bench-"), bot_delay=0,
                    new_game=NewGameOptions(seats=2, bot_level="easy", seed=1))
    shown: list[float] = []
    original = app._display

    def display(screen, renderable):
        if renderable is not None:
            shown.append(time.perf_counter())
        return original(screen, renderable)

    app._display = display  # type: ignore[method-assign]
    out = []
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(50):
            await app.workers.wait_for_complete()
            await pilot.pause()
            if app.table.bot_to_move() is None and isinstance(app.screen, TableScreen):
                break
        for _ in range(presses):
            await pilot.pause()
            shown.clear()
            start = time.perf_counter()
            await pilot.press("1")
            await pilot.pause()
            if shown:
                out.append(shown[0] - start)
    return out


def run(quick: bool) -> list[dict]:
    os.environ.setdefault("MOMIJI_DATA_DIR", tempfile.mkdtemp(prefix="momiji-bench-"))
    starts = [asyncio.run(_first_frame()) for _ in range(3 if quick else 7)]
    latencies = asyncio.run(_key_latencies(20 if quick else 100))
    return [
        row("momiji --help wall time", help_seconds(3 if quick else 9), "s", 0.15, False),
        row("app start to first frame (Pilot)", sorted(starts)[len(starts) // 2], "s", 0.6, False),
        row("key to screen update p95 (Pilot)", p95(latencies) * 1000, "ms", 50, False),
    ]


if __name__ == "__main__":
    for r in run(quick=False):
        print(r)
