"""The server side of ``bench/bench_ssh.py``: ``momiji serve`` as the bench runs it.

With ``--workers 1`` this process is the server, exactly today's single
``momiji serve`` process (``ssh.cli._serve``); with ``--workers N`` it is the
parent of ``momiji serve --workers N`` (``ssh.workers.serve_workers``) and
each worker runs ``ssh.cli._serve`` for its share. Every serving process is
instrumented the same way:

- its event loop's lag (how late a 10 ms sleep wakes up) and its garbage
  collections (a full one, or any other over 5 ms), with wall-clock times so
  the bench cuts them by phase;
- SIGUSR2 starts its share of the bot tables (headless apps, 4 ``hard`` bots
  each, thinking in the server's bot pool, as a shared table's bots would);
- SIGUSR1 writes everything to ``<data dir>/bench-stats-<pid>.json``;
- with ``MOMIJI_BENCH_SLOW_CALLBACKS=1``, the loop's callbacks over 30 ms with
  samples of their stacks (``bench/slow_callbacks.py``).

``--gc-default`` puts CPython's default collector thresholds back after
``tune_gc`` (the heap is still frozen): does tuning still pay with workers?
``--gc-thresholds A,B,C`` (``MOMIJI_BENCH_GC_THRESHOLDS``) sets others the same way.
"""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

BOT_TABLES = 4
BOT_LEVEL = "hard"
TIMEOUT = 60.0
SERVE_OPTIONS = ("--port", "0", "--seat-wait", "0", "--idle-timeout", "0", "--login-timeout", "120",
                 "--max-sessions", "500", "--max-sessions-per-ip", "500", "--max-startups", "200:30:400",
                 "--max-startups-per-ip", "100", "--max-auth-failures-per-ip", "0",
                 "--stop-countdown", "0", "--summary-every", "600")
"""``momiji serve``'s defaults but for limits the bench's single address would hit."""


def main(data_dir: Path, workers: int, gc_default: bool, database: str | None = None) -> int:
    """Serve until SIGTERM (with ``--database URL`` when ``database`` is
    given); the process's exit status."""
    from momiji_tui import ssh

    ssh.prepare_environment()
    from momiji_tui.ssh import cli, game_server
    from momiji_tui.ssh.worker_role import LOG_FORMAT

    args = cli.build_parser().parse_args([*SERVE_OPTIONS, "--data-dir", str(data_dir),
                                          "--workers", str(workers),
                                          *(["--database", database] if database else [])])
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format=LOG_FORMAT)
    _instrument(game_server, gc_default)
    if workers == 1:
        from momiji_tui.ssh.worker_role import tag_log_lines

        tag_log_lines("worker 1")
        os.umask(cli.PRIVATE_UMASK)
        return asyncio.run(_probed(cli._serve(args), data_dir, 1, 1))
    from momiji_tui.ssh.workers import serve_workers

    if database:  # as momiji serve's parent: the database checked (and its schema made) once, before the fork
        games = asyncio.run(cli._open_database(database))
        if games is None:
            return 1
        games.close()

    def worker(args: Any, role: Any) -> int:
        return asyncio.run(_probed(cli._serve(args, role), data_dir, role.number, role.count))

    return serve_workers(args, data_dir, worker)


_SERVERS: list[Any] = []


def _instrument(game_server: Any, gc_default: bool) -> None:
    """Keep the started server (for the bot tables); optionally undo the
    tuned thresholds (``cli`` looks both names up at call time)."""
    start, tune = game_server.start_game_server, game_server.tune_gc

    async def start_and_keep(**options: Any) -> Any:
        server = await start(**options)
        _SERVERS.append(server)
        return server

    thresholds = os.environ.get("MOMIJI_BENCH_GC_THRESHOLDS")  # bench_ssh --gc-thresholds

    def tune_then_default() -> None:
        tune()
        gc.set_threshold(*((700, 10, 10) if gc_default else (int(t) for t in thresholds.split(","))))

    game_server.start_game_server = start_and_keep
    if gc_default or thresholds:
        game_server.tune_gc = tune_then_default


async def _probed(serve: Any, data_dir: Path, number: int, count: int) -> int:
    loop = asyncio.get_running_loop()
    lags: list[tuple[float, float]] = []
    gcs: list[tuple[float, int, float]] = []
    turns: list[float] = []
    errors: list[str] = []
    started = [0.0]
    slow = None
    if os.environ.get("MOMIJI_BENCH_SLOW_CALLBACKS") == "1":
        try:
            from .slow_callbacks import SlowCallbacks
        except ImportError:  # run as a script
            from bench.slow_callbacks import SlowCallbacks
        slow = SlowCallbacks()
        slow.install()

    def on_gc(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
            return
        pause = time.perf_counter() - started[0]
        if info["generation"] == 2 or pause > 0.005:
            gcs.append((time.time(), info["generation"], pause))

    async def measure_lag() -> None:
        while True:
            start = loop.time()
            await asyncio.sleep(0.01)
            lags.append((time.time(), loop.time() - start - 0.01))

    def dump() -> None:
        path = data_dir / f"bench-stats-{os.getpid()}.json"
        path.write_text(json.dumps({"worker": number, "pid": os.getpid(), "lags": lags, "gcs": gcs,
                                    "turns": turns, "bot_errors": errors[-3:],
                                    "slow": slow.records if slow else [],
                                    "slow_gcs": slow.collections if slow else []}))

    tables: list[asyncio.Task[Any]] = []

    def start_bots() -> None:
        make_bot = _reporting(_SERVERS[0].bots.make_bot if _SERVERS and _SERVERS[0].bots else None,
                              errors)
        games = _SERVERS[0].lobby.games if _SERVERS else None  # the database, with --database
        for index in range(BOT_TABLES):
            if index % count == number - 1:
                tables.append(loop.create_task(_bot_table(data_dir / f"bots-{number}-{index}", turns,
                                                          make_bot, games)))

    gc.callbacks.append(on_gc)
    lag_task = loop.create_task(measure_lag())
    loop.add_signal_handler(signal.SIGUSR1, dump)
    loop.add_signal_handler(signal.SIGUSR2, start_bots)
    try:
        return int(await serve)
    finally:
        lag_task.cancel()
        for task in tables:
            task.cancel()


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


async def _bot_table(data_dir: Path, turns: list[float], make_bot: Any, games: Any = None) -> None:
    """A headless app on the server's loop, at a table of 4 bots of
    ``BOT_LEVEL``, starting a new game whenever one ends; saved where the
    server saves its tables: in ``games`` (the database) when given, else
    under ``data_dir``."""
    from momiji_tui.engine import events as ev
    from momiji_tui.session.table import BOT, SeatConfig, Table
    from momiji_tui.ui.app import MomijiApp

    app = MomijiApp(data_dir, hosted=True, make_bot=make_bot)  # the default pause between bot moves
    run = asyncio.ensure_future(app.run_async(headless=True, size=(80, 24)))
    deadline = time.monotonic() + TIMEOUT
    while not (app.is_running and app.screen_stack):
        if time.monotonic() > deadline:
            raise TimeoutError("the bot table's app did not start")
        await asyncio.sleep(0.01)
    seed = 0
    try:
        while not run.done():
            seed += 1
            seats = [SeatConfig(f"Bot {i}", BOT, BOT_LEVEL) for i in range(4)]
            if games is not None:
                table = games.new_table(Table, seats, seed=seed, landscape_mode="starter", owners=[])
            else:
                table = Table.new(seats, seed=seed, data_dir=data_dir)
            table.subscribe(lambda events: turns.extend(
                time.time() for e in events if isinstance(e, ev.TurnEnded)))
            app.call_later(app.open_table, table, 0)
            while not table.finished and not run.done():
                await asyncio.sleep(0.1)
    finally:
        app.exit()
        await asyncio.gather(run, return_exceptions=True)
