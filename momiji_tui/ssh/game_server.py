"""The game over SSH: one lobby per server, one :class:`LobbyApp` per session.

This module joins the transport (:func:`start_server`, :class:`Identity`) to
the game (:class:`~momiji_tui.session.lobby.Lobby`,
:class:`~momiji_tui.ui.lobby.LobbyApp`). ``momiji serve`` and the tests both
start the server here.
"""

from __future__ import annotations

import asyncio
import contextvars
import gc
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from momiji_tui.session.bound_names import NameBook, NameSession, bind_key, guest_name
from momiji_tui.session.lobby import Lobby, Player
from momiji_tui.store.names import FileNames
from momiji_tui.ssh.bot_pool import BotPool
from momiji_tui.ssh import housekeeping
from momiji_tui.ssh.hostkey import default_data_dir
from momiji_tui.ssh.oplog import server_event
from momiji_tui.ssh.identity import Identity
from momiji_tui.ssh.server import EndReason, SSHServerHandle, start_server
from momiji_tui.ui.lobby import LobbyApp

if TYPE_CHECKING:  # psycopg is optional: loaded only by momiji serve --database
    from momiji_tui.session.database_games import DatabaseGames

log = logging.getLogger("momiji_tui.ssh")


def player_of(identity: Identity) -> Player:
    """The lobby's view of an SSH identity whose name is not bound: its
    opaque account id, its display name, and a short form of its key
    fingerprint to show the player (and others: see ``session/names.py``)."""
    hint = ""
    if identity.fingerprint is not None:
        hint = identity.fingerprint[:19] + "…"  # "SHA256:" and 12 characters
    return Player(identity.account_id, identity.display_name, identity.is_guest, hint)


def bind_player(book: NameBook, identity: Identity, now: datetime | None = None
                ) -> tuple[Player, NameSession | None]:
    """The lobby's view of an SSH identity, its name bound to its key in
    ``book`` (``session/bound_names.py``): a key gets the name it asked for
    if it is free or its own, else the next one free; a guest never gets a
    name a key holds. If the store fails (logged), the player is
    :func:`player_of`'s, unbound, and the session None. Never raises."""
    plain = player_of(identity)
    try:
        if identity.fingerprint is None:
            bound = guest_name(book, identity.display_name, identity.account_id)
        else:
            bound = bind_key(book, identity.display_name, identity.fingerprint, identity.account_id,
                             now or datetime.now(UTC))
        player = Player(bound.account_id, bound.name, identity.is_guest, plain.key_hint,
                        bound=not identity.is_guest)
    except Exception as exc:  # the store failed (disk, database, a damaged name file)
        log.error("cannot bind the name %r of %s: %s", identity.display_name, identity.key, exc)
        return plain, None
    if bound.taken:
        log.info("name %r of %s is taken: given %r", bound.asked, identity.key, bound.name)
    return player, NameSession(book, bound, identity.fingerprint)


def names_of(root: Path, games: DatabaseGames | None) -> NameBook:
    """Where the server keeps its names: ``<root>/names`` on files, or the
    database beside the games (every process and host on it agrees)."""
    if games is None:
        return FileNames(root / "names")
    from momiji_tui.store.database.names import DatabaseNames

    return DatabaseNames(games.store)


GC_THRESHOLDS = (500, 10, 1000)
"""Collector thresholds for hosting (CPython's default is (700, 10, 10))."""


def tune_gc() -> None:
    """Garbage-collector settings for a long-running server hosting many apps.

    Every collection stops every session of the process. A full collection
    walks every object of every session (Textual keeps ~18,000 tracked
    objects per app): 311-335 ms at 32 sessions on the bench machine
    (1 December 2026). A young collection walks the objects made since the
    last one that are still alive: with 64 players typing and a first
    threshold of 5000, generation-0 collections took 19-26 ms of CPU and
    generation-1 ones 26-81 ms, the longest pauses. Here they
    come often and stay short (500; a generation-1 collection every 10 of
    them, 11-20 ms of CPU), and a full collection waits for 1000
    generation-1 collections: as many net allocations as before (5000 × 10
    × 100); CPython also waits until the objects promoted since the last
    one are a quarter of the long-lived ones. What exists after start-up
    (modules, classes, the server) is frozen out of every walk. With the
    64-player bench (``bench_ssh --database --workers 2``, two runs each)
    the longest pause of any phase was 25-30 ms instead of 37-51 ms; the
    price is ~1 MB a session more (7.9 instead of 6.8-6.9 MB PSS: objects
    promoted before they die wait for a full collection). Call once, after
    the server started.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


class SessionGarbage:
    """Full collections paced by ended sessions (``momiji serve``, after
    :func:`tune_gc`).

    A finished session leaves its app (about 6,800 objects in reference
    cycles) to the collector, and only a full collection frees it: left to
    the thresholds, those come rarely, and the soak
    (``bench/bench_soak.py``) grew 0.7-2 MB of RSS a session, all of it
    garbage waiting. Here a full collection runs ``delay`` seconds after a
    session ends, once the sessions ended since the last one reach a quarter
    of those still running (at least one): a full collection walks every
    live session (311-335 ms at 32), so its cost is spread over a quarter
    of them, and the garbage waiting stays below a quarter of what is live.
    The callback runs in an empty context: the ending session's context
    holds its app (Textual's ``active_app``), which must not outlive it.
    """

    def __init__(self, live: Callable[[], int], loop: Any = None, *,
                 collect: Callable[[], object] = gc.collect, delay: float = 2.0,
                 share: int = 4) -> None:
        self._live, self._loop, self._collect = live, loop, collect
        self._delay, self._share = delay, share
        self._ended = 0
        self._pending: Any = None

    def session_ended(self) -> None:
        """Count an ended session; schedule a full collection when due."""
        self._ended += 1
        if self._pending is None and self._ended >= max(1, self._live() // self._share):
            loop = self._loop or asyncio.get_running_loop()
            self._pending = loop.call_later(self._delay, self._run, context=contextvars.Context())

    def _run(self) -> None:
        self._pending = None
        self._ended = 0
        self._collect()

    def close(self) -> None:
        """Cancel a pending collection."""
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None


class GameServer:
    """A running game server: the SSH handle and the lobby.

    Attributes:
        handle: the SSH server (``handle.port``, ``handle.host_key_fingerprint``).
        lobby: the shared tables and players.
    """

    def __init__(self, handle: SSHServerHandle, lobby: Lobby, bots: BotPool | None = None) -> None:
        self.handle = handle
        self.lobby = lobby
        self.bots = bots
        self._housekeeping: asyncio.Task[None] | None = None
        self.garbage: SessionGarbage | None = None

    def collect_after_sessions(self, *, collect: Callable[[], object] = gc.collect,
                               delay: float = 2.0) -> None:
        """Free ended sessions with full collections (:class:`SessionGarbage`);
        ``momiji serve`` turns it on with :func:`tune_gc`."""
        if self.garbage is None:
            self.garbage = SessionGarbage(lambda: self.handle.session_count, collect=collect,
                                          delay=delay)

    def summary(self) -> str:
        """One line: sessions, shared tables being played, resident memory."""
        return housekeeping.summary_line(self.handle.session_count, len(self.lobby.live),
                                         housekeeping.rss_bytes())

    def sweep_guests(self, retention_days: float, now: float) -> list[str]:
        """Remove guest data older than ``retention_days`` (see
        :func:`housekeeping.sweep_guests`), never a guest logged in now."""
        in_use = {identity.account_id for identity in self.handle.identities()}
        return housekeeping.sweep_guests(self.lobby.data_dir, retention_days, now, in_use)

    def start_housekeeping(self, every: float, retention_days: float,
                           clock: Callable[[], float] = housekeeping.wall_clock,
                           sleep: Callable[[float], Awaitable[object]] = asyncio.sleep) -> None:
        """Every ``every`` seconds (first at once): sweep old guest data and
        log the summary line. Stopped by :meth:`close`."""
        jobs = [lambda: self.sweep_guests(retention_days, clock()),
                lambda: server_event("summary", self.summary())]
        self._housekeeping = asyncio.get_running_loop().create_task(
            housekeeping.run_periodically(every, jobs, sleep))

    @property
    def port(self) -> int:
        return self.handle.port

    def apps(self) -> list[LobbyApp]:
        """The apps of the sessions in the lobby now (for tests and benchmarks)."""
        return [m for m in self.lobby.members if isinstance(m, LobbyApp)]

    async def close(self, timeout: float = 10.0, *, countdown: float = 0.0) -> None:
        """Warn every player ``countdown`` seconds ahead, end every session
        (see :meth:`SSHServerHandle.close`), then save and close every shared
        table and stop the bot workers. Safe twice."""
        if self._housekeeping is not None:
            self._housekeeping.cancel()
            self._housekeeping = None
        if self.garbage is not None:
            self.garbage.close()
            self.garbage = None
        if not self.handle.closing:
            await self.handle.warn(countdown)
        if self.bots is not None:
            self.bots.close()  # a bot thinking now gives up: nothing waits on it
        await self.handle.close(timeout)
        await self.lobby.stop_following()
        self.lobby.close()

    async def serve_forever(self) -> None:
        await self.handle.serve_forever()

    async def __aenter__(self) -> GameServer:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


async def start_game_server(
    *,
    data_dir: str | Path | None = None,
    seat_wait: float | None = 120.0,
    bot_delay: float = 0.6,
    make_bot: Callable[..., object] | None = None,
    bot_workers: int = 0,
    guest_retention_days: float = 3.0,
    housekeeping_every: float | None = 600.0,
    games: DatabaseGames | None = None,
    lobby_options: dict[str, Any] | None = None,
    ratings: bool = False,
    daily_deal: bool = True,
    spectators: bool = True,
    **server_options: Any,
) -> GameServer:
    """Start the SSH server with the lobby as every session's first screen.

    Args:
        data_dir: where the host key, players' games and shared tables live
            (default: ``$MOMIJI_DATA_DIR`` or the platform data directory).
        seat_wait: seconds before a bot plays the seat of a player who left a
            shared game (None or 0: never).
        bot_delay: seconds between bot moves, so people can follow them.
        make_bot: bot factory (tests inject cheap bots).
        bot_workers: think in this many worker processes (see
            :mod:`momiji_tui.ssh.bot_pool`); 0: in the apps' threads. Ignored
            when ``make_bot`` is given.
        guest_retention_days: guests' folders untouched this many days are
            removed (0: kept forever).
        housekeeping_every: seconds between guest sweeps and summary log
            lines, the first at start; None: neither (tests call them).
        games: the database every game is saved in (``momiji serve
            --database``; the lobby closes it when the server stops); None:
            the data dir's files.
        spectators: players may watch games from the lobby
            (``session/spectators.py``; False: ``--no-spectators``).
        lobby_options: more options of the database's shared lobby
            (``DatabaseLobby``: ``heartbeat``, ``ttl``; tests shorten them).
        ratings: rate the shared games that finish, in the same store as
            the games (``momiji serve --ratings``, the default there).
        daily_deal: offer the daily deal in the lobby (``session/daily.py``;
            kept in ``games`` or the data dir); False: ``--no-daily-deal``.
        server_options: passed to :func:`momiji_tui.ssh.start_server`
            (host, port, auth, limits, timeouts, host_key_path, ...).
    """
    root = Path(data_dir) if data_dir is not None else default_data_dir()
    housekeeping.make_private(root, file_store=games is None)
    pool = BotPool(bot_workers) if bot_workers > 0 and make_bot is None else None
    if pool is not None:
        make_bot = pool.make_bot
    # The lobby runs the shared tables' bots (one task per table); the apps run their solo games' bots.
    if games is None:
        lobby = Lobby(root, seat_wait=seat_wait, make_bot=make_bot, bot_delay=bot_delay, ratings=ratings,
                      spectators=spectators)
    else:  # the lobby shared with every process on the database (docs/SERVER.md); psycopg only then
        from momiji_tui.session.database_lobby import DatabaseLobby

        lobby = DatabaseLobby(root, games=games, seat_wait=seat_wait, make_bot=make_bot, bot_delay=bot_delay,
                              ratings=ratings, spectators=spectators, **(lobby_options or {}))
        try:
            await lobby.start_following()
        except BaseException:
            await lobby.stop_following()
            if pool is not None:
                pool.close()
            lobby.close()
            raise

    book = names_of(root, games)
    if daily_deal:
        from momiji_tui.session.daily import open_daily_store

        lobby.daily = open_daily_store(root, games)

    def factory(identity: Identity) -> LobbyApp:
        player, names = bind_player(book, identity)
        return LobbyApp(lobby, player, bot_delay=bot_delay, make_bot=make_bot,
                        advise=pool.advise if pool is not None else None, names=names)

    chained = server_options.pop("on_session_end", None)
    started: list[GameServer] = []

    def on_session_end(identity: Identity, reason: EndReason) -> Any:
        # The app has stopped; its unmount already left the lobby.
        log.debug("session of %s ended: %s", identity.account_id, reason)
        if started and started[0].garbage is not None:
            started[0].garbage.session_ended()
        return chained(identity, reason) if chained is not None else None

    try:
        handle = await start_server(app_factory=factory, data_dir=root, on_session_end=on_session_end,
                                    **server_options)
    except BaseException:
        if pool is not None:
            pool.close()
        await lobby.stop_following()
        lobby.close()
        raise
    server = GameServer(handle, lobby, pool)
    started.append(server)
    if housekeeping_every:
        server.start_housekeeping(housekeeping_every, guest_retention_days)
    return server
