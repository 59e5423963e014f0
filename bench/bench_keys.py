"""CPU time per key press at the table, measured two ways.

A 3-seat game (seed 3, easy bots, no bot delay) is opened at 80×24 and at
200×60; once it is the player's turn four kinds of key are pressed many
times and the process's CPU time (``time.process_time``: the machine is
shared, wall time is not a fair measure) is taken per press:

* **select** — the hand-card key of a card that can be played alone
  (pressed again and again: it selects, then unselects);
* **cursor** — ``right`` (the cursor walks along the hand);
* **confirm** — ``enter`` with that card selected: the play is checked,
  submitted, saved and drawn (then ``u`` undoes it, not counted, so the next
  press finds the same table);
* **no-op** — ``f5``, bound to nothing: the floor, what the harness and
  Textual spend on any key press, whatever the table does.

Two modes:

* **pilot** — Textual's Pilot presses the key (``pilot.press``) in a
  headless app; CPU from just before the press until the redrawn screen has
  been handed to the driver (``App._display``). Pilot's own polling runs in
  the same process and is counted (most of the no-op floor).
* **serve** — the app runs as ``momiji serve`` runs it: its driver is the
  SSH ``ChannelDriver`` over a fake channel (no network), under the
  server's ``print_capture_disabled`` and ``session_colors_enabled``; the
  key arrives as the bytes a terminal sends (``1``, ``ESC [ C``, ``CR``,
  ``ESC [ 15 ~``) through ``ChannelTerminal.feed`` → Textual's XTermParser,
  and CPU is counted from that call until the app is idle again: every
  frame the key caused written to the channel, then ``QUIET`` seconds with
  no new frame (waiting costs no CPU; the escape-delay tick of an arrow key
  falls inside it and is counted). No Pilot in the loop.

``--log-lines N`` (serve mode) writes N more lines into the table's log
before the presses (the game's own log is short at its start): later in a
game the log is full, as through most of a game. The default, ``LOG_LINES``,
fills the log at both sizes; ``--log-lines 0`` starts from the short log of
the first turn (it fills during the run, about 22 confirms in at 200×60, so
that median mixes both). A full log at 80×24 (4 rows) scrolls on every
confirm; a full log at 200×60 (59 rows) turns its page by a quarter,
so about one confirm in seven scrolls it (``ui/widgets/log_panel.py``):
those confirms are in the p95, the others in the median.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from typing import Any

from .common import p95, row

SEED = 3
SEATS = 3
KINDS = ("select", "cursor", "confirm", "no-op")
MODES = ("pilot", "serve")
SIZES = ((80, 24), (200, 60))
QUIET = 0.2
"""Seconds with no new frame after which a served app counts as idle."""
LOG_LINES = 100
"""Lines written into the log first by default: more than a 200×60 log shows."""
KEY_BYTES = {"right": b"\x1b[C", "enter": b"\r", "f5": b"\x1b[15~", "u": b"u"}
"""What a terminal sends for the keys pressed (no kitty protocol: plain xterm)."""


def _new_app() -> Any:
    from momiji_tui.ui.app import MomijiApp, NewGameOptions

    return MomijiApp(tempfile.mkdtemp(prefix="momiji-bench-"), bot_delay=0,
                     new_game=NewGameOptions(seats=SEATS, bot_level="easy", seed=SEED))


def _my_turn(app: Any) -> bool:
    return (app.table is not None and app.table.bot_to_move() is None and app.thinking is None
            and app.screen.__class__.__name__ == "TableScreen" and app.table.current == app.seat)


def _card_key(app: Any) -> str:
    """The hand key of a card that can be played alone."""
    from momiji_tui import engine

    table = app.table
    hand = sorted(table.view(app.seat).me.hand,
                  key=lambda c: ("MGCOZK".index(engine.CARD_TYPE[c]), engine.CARD_VALUE[c], c))
    plays = [c for c in table.legal(app.seat) if isinstance(c, engine.Play) and len(c.cards) == 1]
    assert plays, "no single-card play at this table"
    return "1234567890"[hand.index(plays[0].cards[0])]


async def _presses(timed: Any, undo: Any, key: str, presses: int) -> None:
    """The key sequence both modes press: ``timed(kind, key)`` counts one."""
    for _ in range(presses):
        await timed("select", key)
        await timed("cursor", "right")
        await timed("no-op", "f5")
    for _ in range(presses):
        await timed("select", key)  # selected now (presses is even: it started unselected)
        await timed("confirm", "enter")
        await undo()


# ------------------------------------------------------------------ pilot
async def _until_shown(pilot: Any, shown: list[float], polls: int = 20) -> None:
    """Let the app run until a frame has been displayed (bounded)."""
    for _ in range(polls):
        await pilot.pause()
        if shown:
            return


async def _pilot_cpu(size: tuple[int, int], presses: int) -> dict[str, list[float]]:
    """CPU seconds per press of each kind at a table of ``size``, under Pilot."""
    app = _new_app()
    shown: list[float] = []
    original = app._display

    def display(screen: Any, renderable: Any) -> Any:
        if renderable is not None:
            shown.append(time.process_time())
        return original(screen, renderable)

    app._display = display
    out: dict[str, list[float]] = {k: [] for k in KINDS}
    async with app.run_test(size=size) as pilot:
        for _ in range(200):  # bounded: the bots move until it is seat 0's turn
            await app.workers.wait_for_complete()
            await pilot.pause()
            if _my_turn(app):
                break
        assert _my_turn(app), "the player's turn never came"

        async def timed(kind: str, k: str) -> None:
            await pilot.pause()
            shown.clear()
            start = time.process_time()
            await pilot.press(k)
            await _until_shown(pilot, shown, polls=20 if kind != "no-op" else 1)
            out[kind].append(time.process_time() - start)

        async def undo() -> None:
            await pilot.press("u")
            await pilot.pause()
            assert not app.table.state.turn.main_done, "undo did not take the play back"

        await _presses(timed, undo, _card_key(app), presses)
    return out


# ------------------------------------------------------------------ serve
class _Channel:
    """The part of an asyncssh channel the driver uses; counts frames and
    wakes the waiter of ``_until_idle`` at each one."""

    def __init__(self) -> None:
        self.frames = 0
        self.waiter: asyncio.Future[bool] | None = None

    def write(self, data: bytes) -> None:
        self.frames += 1
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(True)

    def is_closing(self) -> bool:
        return False

    def get_write_buffer_size(self) -> int:
        return 0


def _quiet(waiter: asyncio.Future[bool]) -> None:
    if not waiter.done():
        waiter.set_result(False)


async def _until_idle(channel: _Channel) -> None:
    """Wait until ``QUIET`` seconds pass with no frame written (bounded: 10 s).

    A future and a timer per wait, woken by the frame or the timer: the
    harness's own CPU stays small beside the key's (``asyncio.wait_for``
    made a task for each wait: the harness's callbacks took ~0.5 ms of a
    confirm, now ~0.35, the key's bytes fed in included)."""
    loop = asyncio.get_running_loop()
    for _ in range(int(10 / QUIET)):
        waiter = channel.waiter = loop.create_future()
        timer = loop.call_later(QUIET, _quiet, waiter)
        written = await waiter
        timer.cancel()
        if not written:
            return


async def _serve_cpu(size: tuple[int, int], presses: int, log_lines: int = 0) -> dict[str, list[float]]:
    """CPU seconds per press of each kind at a table of ``size``, served as
    ``momiji serve`` serves it (bytes in, frames out, no Pilot); with
    ``log_lines`` more lines in the log first (a log that scrolls)."""
    from momiji_tui.ssh import ChannelTerminal, harden_app
    from momiji_tui.textual_fence import (
        print_capture_disabled, session_colors_enabled, set_session_colors,
    )

    channel = _Channel()
    terminal = ChannelTerminal(channel, size, mouse=True, kitty_keys=False)
    out: dict[str, list[float]] = {k: [] for k in KINDS}
    with print_capture_disabled(), session_colors_enabled():
        app = harden_app(_new_app())
        app.driver_class = terminal.driver_class()
        set_session_colors(app, "truecolor", False)
        run = asyncio.ensure_future(app.run_async(size=size))
        for _ in range(400):  # bounded: the bots move until it is seat 0's turn
            await asyncio.sleep(0.05)
            if _my_turn(app):
                break
        assert _my_turn(app), "the player's turn never came"
        if log_lines:
            from momiji_tui.engine import events as ev

            names = [seat.name for seat in app.table.seats]
            app.screen.query_one("#log").write_events([ev.CardsDealt(1, (0, 1))] * log_lines, 0, names)
        await _until_idle(channel)

        async def timed(kind: str, k: str) -> None:
            frames = channel.frames
            start = time.process_time()
            terminal.feed(KEY_BYTES.get(k, k.encode()))
            await _until_idle(channel)
            out[kind].append(time.process_time() - start)
            assert kind == "no-op" or channel.frames > frames, f"{kind}: no frame written"

        async def undo() -> None:
            terminal.feed(b"u")
            await _until_idle(channel)
            assert not app.table.state.turn.main_done, "undo did not take the play back"

        await _presses(timed, undo, _card_key(app), presses)
        app.exit()
        await run
    return out


def measure(presses: int, modes: tuple[str, ...] = MODES,
            sizes: tuple[tuple[int, int], ...] = SIZES, log_lines: int = LOG_LINES) -> list[dict]:
    """Rows: median and p95 CPU ms per press, per mode, kind and size."""
    os.environ.setdefault("MOMIJI_DATA_DIR", tempfile.mkdtemp(prefix="momiji-bench-"))
    rows = []
    for mode in modes:
        for size in sizes:
            cpu = asyncio.run(_pilot_cpu(size, presses) if mode == "pilot" else _serve_cpu(size, presses, log_lines))
            for kind in KINDS:
                ms = [s * 1000 for s in cpu[kind]]
                label = f"key CPU {mode} {kind} {size[0]}x{size[1]}"
                target = None if kind == "no-op" else 10
                rows.append(row(f"{label} median", statistics.median(ms), "ms", target, False))
                rows.append(row(f"{label} p95", p95(ms), "ms", None, False))
    return rows


def run(quick: bool) -> list[dict]:
    return measure(10 if quick else 40)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m bench.bench_keys")
    parser.add_argument("--mode", choices=MODES, action="append", help="default: both")
    parser.add_argument("--size", action="append", help="WxH, default: 80x24 and 200x60")
    parser.add_argument("--presses", type=int, default=40)
    parser.add_argument("--log-lines", type=int, default=LOG_LINES,
                        help=f"serve: lines written into the log first (default {LOG_LINES}: a full log)")
    args = parser.parse_args()
    sizes = tuple(tuple(int(n) for n in s.split("x")) for s in args.size) if args.size else SIZES
    for r in measure(args.presses, tuple(args.mode or MODES), sizes, args.log_lines):  # type: ignore[arg-type]
        print(f"{r['benchmark']:40} {r['value']:8.1f} {r['unit']}")
