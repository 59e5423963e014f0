"""CPU time per key press at the table (issue 13), measured with Pilot.

A 3-seat game (seed 3, easy bots, no bot delay) is opened at 80×24 and at
200×60; once it is the player's turn three kinds of key are pressed many
times and the process's CPU time (``time.process_time``: the machine is
shared, wall time is not a fair measure) is taken from just before the press
until the redrawn screen has been handed to the terminal driver
(``App._display``, which runs in headless mode too):

* **select** — the hand-card key of a card that can be played alone
  (pressed again and again: it selects, then unselects);
* **cursor** — ``right`` (the cursor walks along the hand);
* **confirm** — ``enter`` with that card selected: the play is checked,
  submitted, saved and drawn (then ``u`` undoes it, not counted, so the next
  press finds the same table);
* **no-op** — ``f5``, bound to nothing: the floor, what Pilot and Textual
  spend on any key press and one idle frame, whatever the table does.

Pilot's own bookkeeping runs in the same process and is counted too; it is
the same before and after a change, so the figures compare.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import tempfile
import time

from .common import p95, row

SEED = 3
SEATS = 3
KINDS = ("select", "cursor", "confirm", "no-op")


async def _until_shown(pilot, shown: list[float], polls: int = 20) -> None:
    """Let the app run until a frame has been displayed (bounded)."""
    for _ in range(polls):
        await pilot.pause()
        if shown:
            return


async def _press_cpu(size: tuple[int, int], presses: int) -> dict[str, list[float]]:
    """CPU seconds per press of each kind at a table of ``size``."""
    from momiji_tui import engine
    from momiji_tui.ui.app import MomijiApp, NewGameOptions

    app = MomijiApp(tempfile.mkdtemp(prefix="momiji-bench-"), bot_delay=0,
                    new_game=NewGameOptions(seats=SEATS, bot_level="easy", seed=SEED))
    shown: list[float] = []
    original = app._display

    def display(screen, renderable):
        if renderable is not None:
            shown.append(time.process_time())
        return original(screen, renderable)

    app._display = display  # type: ignore[method-assign]
    out: dict[str, list[float]] = {k: [] for k in KINDS}
    async with app.run_test(size=size) as pilot:
        for _ in range(200):  # bounded: the bots move until it is seat 0's turn
            await app.workers.wait_for_complete()
            await pilot.pause()
            if app.table is not None and app.table.bot_to_move() is None \
                    and app.screen.__class__.__name__ == "TableScreen":
                break
        table = app.table
        assert table is not None and table.current == app.seat, "the player's turn never came"
        hand = sorted(table.view(app.seat).me.hand,
                      key=lambda c: ("MGCOZK".index(engine.CARD_TYPE[c]), engine.CARD_VALUE[c], c))
        plays = [c for c in table.legal(app.seat) if isinstance(c, engine.Play) and len(c.cards) == 1]
        assert plays, "no single-card play at this table"
        key = "1234567890"[hand.index(plays[0].cards[0])]

        async def timed(kind: str, k: str) -> None:
            await pilot.pause()
            shown.clear()
            start = time.process_time()
            await pilot.press(k)
            await _until_shown(pilot, shown, polls=20 if kind != "no-op" else 1)
            out[kind].append(time.process_time() - start)

        for _ in range(presses):
            await timed("select", key)
            await timed("cursor", "right")
            await timed("no-op", "f5")
        for _ in range(presses):
            await timed("select", key)  # selected now (presses is even: it started unselected)
            await timed("confirm", "enter")
            await pilot.press("u")
            await pilot.pause()
            assert not table.state.turn.main_done, "undo did not take the play back"
    return out


def measure(presses: int) -> list[dict]:
    """Rows: median and p95 CPU ms per press, per kind and size."""
    os.environ.setdefault("MOMIJI_DATA_DIR", tempfile.mkdtemp(prefix="momiji-bench-"))
    rows = []
    for size in ((80, 24), (200, 60)):
        cpu = asyncio.run(_press_cpu(size, presses))
        for kind in KINDS:
            ms = [s * 1000 for s in cpu[kind]]
            label = f"key CPU {kind} {size[0]}x{size[1]}"
            target = None if kind == "no-op" else 10
            rows.append(row(f"{label} median", statistics.median(ms), "ms", target, False))
            rows.append(row(f"{label} p95", p95(ms), "ms", None, False))
    return rows


def run(quick: bool) -> list[dict]:
    return measure(10 if quick else 40)


if __name__ == "__main__":
    for r in run(quick=False):
        print(r)
