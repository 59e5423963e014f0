"""What one part of a key press costs, measured by taking it away.

    python -m bench.key_parts log --size 80x24 --presses 40
    python -m bench.key_parts footer --size 200x60 --measure compositor

The VM's speed drifts by up to a quarter within an hour, so two runs of
``bench_keys`` compare badly when the difference is a millisecond. Here one
served app (``bench_keys``' serve mode: bytes in, frames out) presses the
same keys, and every other select–confirm pair runs with the part taken
away (it switches after every no-op and every confirm, so the
select–cursor–no-op rounds alternate too): both halves are measured at the
same moment. Printed: the median CPU
ms per press of each kind, with and without the part. ``--measure
compositor`` counts only the CPU of the screen's repaints
(``Screen._compositor_refresh``), for a part that changes only how lines are
drawn: a smaller figure, less noise.

Parts (each replaced by "do nothing" or "always yes"; the table then shows
less, so this measures, it is not a fix):

* ``log``    — the log panel's ``add``: no new line, no scroll;
* ``scroll`` — the log panel's ``scroll_end``: the new line is added, the log
  does not follow it;
* ``footer`` — the table's ``check_action`` answers yes to every key: no
  reasons are worked out and the footer's line never changes.

``--log-lines N`` writes N lines into the log first (default
``bench_keys.LOG_LINES``: a full log, as in most of a game; 0: the first
turn's short log). A full log scrolls on every confirm at 80×24; at 200×60
it turns its page by a quarter, so ``scroll``
there measures the confirms that turn it.

Not run by ``python -m bench`` (its name has no ``bench_`` prefix).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from typing import Any

from . import bench_keys

PARTS = ("log", "scroll", "footer")
MEASURES = ("key", "compositor")


def _switch(part: str) -> Callable[[bool], None]:
    """A function that takes ``part`` away (True) or puts it back (False)."""
    from textual.widget import Widget

    from momiji_tui.ui.screens.table import TableScreen
    from momiji_tui.ui.widgets.log_panel import LogPanel

    def no_line(self: Any, *args: Any, **kwargs: Any) -> None:
        return None

    scroll_end = Widget.scroll_end

    def no_scroll(self: Any, *args: Any, **kwargs: Any) -> Any:
        return None if isinstance(self, LogPanel) else scroll_end(self, *args, **kwargs)

    def every_key(self: Any, action: str, parameters: tuple[object, ...]) -> bool:
        return True

    ways: dict[str, tuple[Any, str, Any]] = {
        "log": (LogPanel, "add", no_line),
        "scroll": (Widget, "scroll_end", no_scroll),
        "footer": (TableScreen, "check_action", every_key),
    }
    if part not in ways:
        raise ValueError(f"no part {part!r}: one of {', '.join(PARTS)}")
    owner, name, away = ways[part]
    kept = vars(owner).get(name)

    def switch(taken: bool) -> None:
        if taken:
            setattr(owner, name, away)
        elif kept is not None:
            setattr(owner, name, kept)
        elif name in vars(owner):
            delattr(owner, name)  # it was inherited: inherit it again
    return switch


def measure(part: str, size: tuple[int, int], presses: int,
            what: str = "key", log_lines: int = 0) -> dict[tuple[str, bool], list[float]]:
    """CPU seconds per press of each kind (``bench_keys.KINDS``), with the
    part (False) and without it (True), interleaved in one served app;
    ``what``: the whole press (``key``) or only the screen's repaints
    (``compositor``)."""
    from textual.screen import Screen

    switch = _switch(part)
    out: dict[tuple[str, bool], list[float]] = {(k, t): [] for k in bench_keys.KINDS for t in (False, True)}
    taken = [False]
    presses_of = bench_keys._presses
    repaint = Screen._compositor_refresh
    repainting = [0.0]  # CPU seconds in repaints since the press began

    def counted_repaint(self: Screen[Any]) -> None:
        start = time.process_time()
        try:
            repaint(self)
        finally:
            repainting[0] += time.process_time() - start

    async def interleaved(timed: Any, undo: Any, key: str, presses: int) -> None:
        async def one(kind: str, k: str) -> None:
            switch(taken[0])
            repainting[0] = 0.0
            start = time.process_time()
            await timed(kind, k)
            out[(kind, taken[0])].append(repainting[0] if what == "compositor" else time.process_time() - start)
            if kind in ("no-op", "confirm"):  # the next round of keys runs the other way
                taken[0] = not taken[0]
        await presses_of(one, undo, key, presses)

    bench_keys._presses = interleaved
    if what == "compositor":
        Screen._compositor_refresh = counted_repaint  # type: ignore[method-assign]
    try:
        asyncio.run(bench_keys._serve_cpu(size, presses, log_lines))
    finally:
        bench_keys._presses = presses_of
        Screen._compositor_refresh = repaint  # type: ignore[method-assign]
        switch(False)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.key_parts")
    parser.add_argument("part", choices=PARTS)
    parser.add_argument("--size", default="80x24", help="WxH (default 80x24)")
    parser.add_argument("--presses", type=int, default=40,
                        help="even (as bench_keys needs); half of each kind run without the part")
    parser.add_argument("--measure", choices=MEASURES, default="key",
                        help="CPU of the whole press (default) or of the screen's repaints only")
    parser.add_argument("--log-lines", type=int, default=bench_keys.LOG_LINES,
                        help=f"lines written into the log first (default {bench_keys.LOG_LINES}: a full log)")
    args = parser.parse_args()
    os.environ.setdefault("MOMIJI_DATA_DIR", tempfile.mkdtemp(prefix="momiji-bench-"))
    size = (int(args.size.split("x")[0]), int(args.size.split("x")[1]))
    out = measure(args.part, size, args.presses, args.measure, args.log_lines)
    for kind in bench_keys.KINDS:
        with_part, without = out[(kind, False)], out[(kind, True)]
        print(f"{args.measure} {kind:8} {args.size}  with {args.part}: {statistics.median(with_part) * 1000:6.2f} ms"
              f"  without: {statistics.median(without) * 1000:6.2f} ms  (n={len(with_part)},{len(without)})")


if __name__ == "__main__":
    main()
