"""``momiji serve``: host the game over SSH (one lobby, shared tables).

Textual is imported only after :func:`momiji_tui.ssh.prepare_environment`
has fixed the colour system, and only once the arguments are valid.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from momiji_tui.session.database_games import DatabaseGames
    from momiji_tui.ssh.worker_role import WorkerRole

log = logging.getLogger("momiji_tui.ssh")

DATABASE_ENV = "MOMIJI_DATABASE_URL"
LOOPBACK = ("127.0.0.1", "::1", "localhost")
PRIVATE_UMASK = 0o077
"""The serve process's umask (see ``housekeeping.make_private``)."""


def _port(text: str) -> int:
    value = _int(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"port out of range (0-65535): {value}")
    return value


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None


def _positive_int(text: str) -> int:
    value = _int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be at least 1: {value}")
    return value


MAX_WORKERS = 64
"""``--workers`` at most: each is a whole server process (its own lobby and
memory); more than this is a typo, not a host (a fork storm)."""


def _worker_count(text: str) -> int:
    value = _positive_int(text)
    if value > MAX_WORKERS:
        raise argparse.ArgumentTypeError(f"at most {MAX_WORKERS}: {value}")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be 0 or more seconds: {text}")
    return value


def _positive_seconds(text: str) -> float:
    value = _seconds(text)
    if value == 0:
        raise argparse.ArgumentTypeError("must be more than 0 seconds")
    return value


def _max_startups(text: str) -> tuple[int, int, int]:
    from momiji_tui.ssh.throttle import parse_max_startups

    try:
        return parse_max_startups(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _count(text: str) -> int:
    value = _int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more: {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The ``momiji serve`` command line."""
    p = argparse.ArgumentParser(
        prog="momiji serve",
        description="Host Momiji over SSH: each player connects with `ssh -p PORT HOST` and "
                    "lands in the lobby (solo games, shared tables, who is playing).",
    )
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1; 0.0.0.0 or :: for everyone)")
    p.add_argument("--port", type=_port, default=2222, help="TCP port (default 2222; 0 picks a free one)")
    p.add_argument("--host-key", type=Path, metavar="PATH",
                   help="the server's ed25519 host key, created (0600) if missing "
                        "(default: <data dir>/ssh_host_ed25519_key)")
    p.add_argument("--auth", choices=("open", "keys", "allowlist"), default="open",
                   help="open: any SSH key, or a guest without one (default); keys: any key, no "
                        "guests; allowlist: only the keys in --authorized-keys")
    p.add_argument("--authorized-keys", type=Path, metavar="FILE",
                   help="OpenSSH authorized_keys file for --auth allowlist (re-read at each login)")
    p.add_argument("--max-sessions", type=_positive_int, default=100, metavar="N",
                   help="sessions open at once, in all (default 100)")
    p.add_argument("--max-sessions-per-ip", type=_positive_int, default=4, metavar="N",
                   help="sessions open at once from one address (default 4)")
    p.add_argument("--idle-timeout", type=_seconds, default=900.0, metavar="S",
                   help="close a session after S seconds without input (default 900; 0: never)")
    p.add_argument("--login-timeout", type=_positive_seconds, default=10.0, metavar="S",
                   help="seconds allowed to log in and open a session (default 10)")
    p.add_argument("--max-startups", type=_max_startups, default=(10, 30, 100),
                   metavar="START:RATE:FULL",
                   help="connections not logged in yet, as OpenSSH's MaxStartups: from START of "
                        "them refuse RATE%% of new ones, rising to all at FULL (default 10:30:100)")
    p.add_argument("--max-startups-per-ip", type=_positive_int, default=5, metavar="N",
                   help="connections not logged in yet from one address (IPv6: one /64) "
                        "(default 5)")
    p.add_argument("--max-auth-failures-per-ip", type=_count, default=10, metavar="N",
                   help="after N connections from one address end without a login within "
                        "10 minutes, refuse that address until the oldest is 10 minutes old "
                        "(default 10; 0: never)")
    p.add_argument("--data-dir", type=Path, metavar="DIR",
                   help="host key, players' games and shared tables (default: $MOMIJI_DATA_DIR or "
                        "the platform data directory)")
    p.add_argument("--seat-wait", type=_seconds, default=120.0, metavar="S",
                   help="at a shared table, seconds a player who left keeps the seat to themselves "
                        "before a bot plays it so the others can finish (default 120; 0: never)")
    p.add_argument("--no-spectators", dest="spectators", action="store_false",
                   help="players may not watch games from the lobby (by default they may watch "
                        "shared tables, and solo games whose player allowed it; a watcher sees no hand)")
    p.add_argument("--bot-delay", type=_seconds, default=0.6, metavar="S",
                   help="pause between bot moves so players can follow them (default 0.6)")
    p.add_argument("--bot-workers", type=_int, default=None, metavar="N",
                   help="processes the bots think in, so they never slow the players' screens "
                        "(default: one per CPU, shared among the --workers; 0: in threads of the "
                        "server process)")
    p.add_argument("--database", metavar="URL",
                   help="save every game (solo and shared tables) in this PostgreSQL database "
                        "(postgresql://USER@HOST:PORT/DBNAME) instead of the data dir, which keeps "
                        "the host key (default: $MOMIJI_DATABASE_URL if set)")
    p.add_argument("--ratings", action=argparse.BooleanOptionalAction, default=True,
                   help="rate players from the shared games they finish (openskill; kept with the "
                        "games: the data dir or --database) and show the ratings in the lobby, at "
                        "tables and on the score sheet (default: on; --no-ratings: off)")
    p.add_argument("--workers", type=_worker_count, default=1, metavar="N",
                   help="serve from N processes on the same port (SO_REUSEPORT), so every core "
                        "renders; a worker that dies is replaced (default 1, at most "
                        f"{MAX_WORKERS}). On the data dir each worker has its "
                        "own lobby: solo games and resuming work from any worker (the save files "
                        "are the truth; a game open in one worker is locked against the others), "
                        "but players meet at a shared table only within one worker; with --database "
                        "every worker and host shares one lobby")
    p.add_argument("--lobby-heartbeat", type=_seconds, default=5.0, metavar="S",
                   help="with --database: seconds between this process's heartbeats in the shared "
                        "lobby; a process silent for 4 of them is taken for dead (its players vanish "
                        "from the lobby and can take their seats back from another) (default 5)")
    p.add_argument("--lobby-ttl", type=_positive_seconds, default=None, metavar="S",
                   help="with --database: seconds after its last heartbeat that a process is taken "
                        "for dead, more than --lobby-heartbeat (default: 4 heartbeats)")
    p.add_argument("--stop-countdown", type=_seconds, default=5.0, metavar="S",
                   help="on SIGTERM or ctrl+c, warn every player S seconds before stopping "
                        "(default 5; 0: stop at once)")
    p.add_argument("--guest-retention", type=_seconds, default=3.0, metavar="DAYS",
                   help="remove a guest's games DAYS days after their last change; swept at "
                        "start and with every summary (default 3; 0: keep forever)")
    p.add_argument("--summary-every", type=_positive_seconds, default=10.0, metavar="MIN",
                   help="log a summary line (sessions, tables, memory) every MIN minutes "
                        "(default 10)")
    p.add_argument("--no-daily-deal", dest="daily_deal", action="store_false",
                   help="do not offer the daily deal in the lobby (default: offered; docs/SERVER.md)")
    p.add_argument("--color-system", choices=("truecolor", "256", "standard", "auto"),
                   default="truecolor", help="colours sent to every player (default truecolor)")
    p.add_argument("--log-level", choices=("debug", "info", "warning", "error"), default="info")
    return p


def main_serve(argv: list[str]) -> int:
    """Entry point of ``momiji serve``; returns the process exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.auth == "allowlist":
        if args.authorized_keys is None:
            parser.error("--auth allowlist needs --authorized-keys FILE")
        if not args.authorized_keys.is_file():
            parser.error(f"--authorized-keys: no such file: {args.authorized_keys}")
    elif args.authorized_keys is not None:
        parser.error("--authorized-keys is only used with --auth allowlist")
    if args.bot_workers is not None and args.bot_workers < 0:
        parser.error("--bot-workers must be 0 or more")
    if args.lobby_ttl is not None and args.lobby_ttl <= _lobby_heartbeat(args):
        parser.error("--lobby-ttl must be more than --lobby-heartbeat (a live process would be taken for dead)")

    from momiji_tui import ssh

    ssh.prepare_environment(args.color_system)  # before anything imports Textual
    if args.workers > 1:
        return _serve_with_workers(args)
    logging.basicConfig(level=args.log_level.upper(), stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        return asyncio.run(_serve(args))
    except KeyboardInterrupt:  # no signal handlers on this platform
        return 130


def _serve_with_workers(args: argparse.Namespace) -> int:
    """``--workers N``: the parent (see :mod:`momiji_tui.ssh.workers`)."""
    from momiji_tui.ssh.worker_role import LOG_FORMAT, tag_log_lines
    from momiji_tui.ssh.workers import serve_workers
    from momiji_tui.store import data_dir

    logging.basicConfig(level=args.log_level.upper(), stream=sys.stderr, format=LOG_FORMAT)
    tag_log_lines("parent")  # LOG_FORMAT names the process
    url = args.database or os.environ.get(DATABASE_ENV) or None
    if url:  # checked once, before any fork: a database that cannot be used is one line, exit 1
        games = asyncio.run(_open_database(url))
        if games is None:
            return 1
        games.close()  # each worker opens its own connection
    os.umask(PRIVATE_UMASK)
    return serve_workers(args, data_dir(args.data_dir), _serve_worker, file_store=url is None)


def _serve_worker(args: argparse.Namespace, role: WorkerRole) -> int:
    """One worker of ``--workers N``, in the forked child (no loop exists yet)."""
    return asyncio.run(_serve(args, role))


async def _serve(args: argparse.Namespace, role: WorkerRole | None = None) -> int:
    # The handlers go in before anything is started or logged: a SIGINT that arrives just after
    # "listening on" must stop the server cleanly (exit 0), not raise KeyboardInterrupt (exit 130).
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    installed = []
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, _on_signal, sig, stop)
            installed.append(sig)
        except (NotImplementedError, RuntimeError, ValueError):  # not on this platform / thread
            pass
    if role is not None:  # a worker: forked with these blocked, now the loop handles them
        signal.pthread_sigmask(signal.SIG_UNBLOCK, (signal.SIGINT, signal.SIGTERM, signal.SIGCHLD))
    try:
        return await _serve_until(args, stop, role)
    finally:
        for sig in installed:
            loop.remove_signal_handler(sig)


async def _serve_until(args: argparse.Namespace, stop: asyncio.Event,
                       role: WorkerRole | None = None) -> int:
    from momiji_tui.ssh.bot_pool import default_workers
    from momiji_tui.ssh.game_server import start_game_server
    from momiji_tui.ssh.hostkey import HostKeyError
    from momiji_tui.store import data_dir

    root = data_dir(args.data_dir)
    os.umask(PRIVATE_UMASK)  # every folder made from now on 0700, every file 0600
    bot_workers = args.bot_workers
    if bot_workers is None:
        bot_workers = default_workers() if role is None else role.bot_workers(default_workers())
    sweep = role is None or role.sweeps_guests  # one worker sweeps for all
    url = args.database or os.environ.get(DATABASE_ENV) or None
    games = None
    if url:
        games = await _open_database(url)
        if games is None:
            return 1
    try:
        server = await start_game_server(
            games=games,
            data_dir=root, seat_wait=args.seat_wait or None, bot_delay=args.bot_delay,
            bot_workers=bot_workers, reuse_port=role is not None,
            host=args.host, port=args.port, host_key_path=args.host_key, auth=args.auth,
            authorized_keys=args.authorized_keys, max_sessions=args.max_sessions,
            max_sessions_per_ip=args.max_sessions_per_ip, idle_timeout=args.idle_timeout or None,
            login_timeout=args.login_timeout, throttle=_throttle_limits(args),
            guest_retention_days=args.guest_retention if sweep else 0,
            housekeeping_every=args.summary_every * 60,
            ratings=args.ratings,
            spectators=args.spectators,
            lobby_options={"heartbeat": _lobby_heartbeat(args), "ttl": args.lobby_ttl or 4 * _lobby_heartbeat(args)},
            daily_deal=args.daily_deal,
        )
    except HostKeyError as exc:
        log.error("%s", exc)
        return _closed(games, 1)
    except (OSError, ValueError) as exc:
        log.error("cannot start the server on %s:%s: %s", args.host, args.port, exc)
        return _closed(games, 1)
    from momiji_tui.ssh.game_server import tune_gc

    tune_gc()
    server.collect_after_sessions()
    if server.bots is not None:
        try:
            pids = await asyncio.to_thread(server.bots.start)
        except Exception as exc:
            log.error("cannot start the bot worker processes: %s (try --bot-workers 0)", exc)
            await server.close()
            return 1
        log.info("bots think in %s", worker_processes(pids))
    handle = server.handle
    port_hint = "" if handle.port == 22 else f"-p {handle.port} "
    log.info("momiji serve: listening on %s port %d; data in %s", args.host, handle.port, root)
    if url:
        log.info("games in the database at %s", _where(url))
    log.info("host key fingerprint: %s (publish it so players can check it)", handle.host_key_fingerprint)
    log.info("players connect with: ssh %s%s", port_hint, args.host if args.host not in ("0.0.0.0", "::")
             else "<this host>")

    if role is not None:
        role.ready(handle.port)
    try:
        await stop.wait()
    finally:
        log.info("stopping: telling every session, saving every table")
        await server.close(countdown=args.stop_countdown)
    log.info("stopped")
    return 0


def worker_processes(pids: list[int]) -> str:
    """``1 worker process (pid 4242)`` or ``2 worker processes (pids 4242,
    4243)``: the bot pool as the log names it. Raises nothing."""
    if len(pids) == 1:
        return f"1 worker process (pid {pids[0]})"
    return f"{len(pids)} worker processes (pids {', '.join(map(str, pids))})"


async def _open_database(url: str) -> DatabaseGames | None:
    """The server's games on ``url`` (``--database``), or None after logging
    one line on why not (no driver, no answer, refused, newer schema)."""
    try:
        from momiji_tui.session.database_games import DatabaseGames
        from momiji_tui.store.errors import DatabaseUnavailable, NewerSchema
    except ImportError:
        from momiji_tui.cli_database import NOT_INSTALLED

        log.error("%s", NOT_INSTALLED)
        return None
    try:
        return await asyncio.to_thread(DatabaseGames.open, url)
    except (DatabaseUnavailable, NewerSchema) as exc:
        log.error("%s", exc)
        return None


def _where(url: str) -> str:
    from momiji_tui.store.database import where

    return where(url)


def _closed(games: DatabaseGames | None, status: int) -> int:
    """Close the database (if any) of a server that did not start; return ``status``."""
    if games is not None:
        games.close()
    return status


def _lobby_heartbeat(args: argparse.Namespace) -> float:
    """Seconds between heartbeats in the shared lobby (0 given: the default, 5)."""
    return float(args.lobby_heartbeat or 5.0)


def _throttle_limits(args: argparse.Namespace) -> object:
    from momiji_tui.ssh.throttle import ThrottleLimits

    start, rate, full = args.max_startups
    return ThrottleLimits(start=start, rate=rate, full=full, per_source=args.max_startups_per_ip,
                          max_failures=args.max_auth_failures_per_ip)


def _on_signal(sig: signal.Signals, stop: asyncio.Event) -> None:
    log.info("received %s", sig.name)
    stop.set()
