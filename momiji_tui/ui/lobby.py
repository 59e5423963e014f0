"""The app of one SSH session: the lobby first, saves in the player's folder.

A :class:`LobbyApp` is a :class:`MomijiApp` whose start screen is the lobby
(``ui/screens/lobby.py`` and the screens it opens) and whose saves go to its
player's own folder. At a shared table it renders its own seat only; other
players' moves reach it as ``TableChanged`` messages (posted by the table's
listener, whichever app made the move), and lobby news reaches it as
:class:`LobbyEventMessage` (posted by the lobby); its screens hear of both
through Signals (``table_changed``, ``lobby_changed``).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, ClassVar

from textual.message import Message
from textual.screen import Screen
from textual.signal import Signal

from ..bots.advice import Advice
from ..session.lobby import (
    IN_LOBBY, Dissolved, Lobby, LobbyError, LobbyEvent, Player, Seated, SeatNews, SharedTable,
)
from ..session.bound_names import NameSession
from ..session.shared_table import WatchEnded
from ..session.spectators import Watch
from ..session.presence import waiting_with_others
from ..session.saves import SavedGameRow, describe, describe_saved_games
from ..session import daily
from ..session.table import HUMAN, SeatConfig, Table, validate_log
from ..session.tutorial_table import SEATS as TUTORIAL_SEATS
from ..session.tutorial_table import TutorialTable
from ..store import SavedGame, StoreError, load, new_game_id
from .app import MomijiApp
from .models.lobby_text import solo_activity
from .models.new_game import NewGameOptions
from .models.paths import styles_dir, stylesheets
from .screens.create_table import CreateTableScreen
from .screens.daily_board import DailyBoardScreen
from .screens.join import JoinScreen
from .screens.lobby import LobbyScreen
from .screens.my_games import MyGamesScreen
from .screens.names import NamesScreen
from .screens.waiting import WaitingScreen
from .screens.watch import WatchScreen
from .screens.watch_list import WatchListScreen


DAILY_OFF = "This server does not offer the daily deal."


class LobbyEventMessage(Message):
    """News from the lobby, delivered in this app's own context."""

    def __init__(self, event: LobbyEvent) -> None:
        super().__init__()
        self.event = event


class LobbyApp(MomijiApp):
    """The game for one SSH session: lobby first, saves in the player's folder.

    ``lobby``: the server's lobby. ``player``: who this session is.
    ``bot_delay``/``make_bot``/``advise`` as for :class:`MomijiApp`.
    ``names``: this session's name bound to its key (None: not bound).
    """

    CSS_PATH = [*stylesheets(), styles_dir() / "lobby.tcss"]
    #: The screens of an SSH session: the app's and the lobby's (their
    #: BINDINGS are the key map's ids, see ``ui/keymap.py``).
    SCREEN_CLASSES: ClassVar[tuple[type[Screen[Any]], ...]] = (
        *MomijiApp.SCREEN_CLASSES, LobbyScreen, MyGamesScreen, CreateTableScreen, JoinScreen, WaitingScreen,
        NamesScreen, DailyBoardScreen, WatchListScreen, WatchScreen)

    def __init__(self, lobby: Lobby, player: Player, *, bot_delay: float = 0.6,
                 make_bot: Callable[..., object] | None = None,
                 advise: Callable[..., Advice] | None = None, names: NameSession | None = None) -> None:
        super().__init__(lobby.player_dir(player), bot_delay=bot_delay, make_bot=make_bot, hosted=True,
                         advise=advise)
        self.lobby = lobby
        self.player = player
        self.names = names
        self.auto_returned = False
        self.exiting = False
        self.games_problem: str | None = None  # why the last listing of this player's games failed
        self._lobby_redraw_pending = False
        self.watching: Watch | None = None  # the game this session watches (session/spectators.py)
        self._watchers_shown: tuple[str, ...] = ()  # who watched the open game at the last lobby change
        # The lobby's lists changed (published at most once per frame); see models/host.py LobbyHost.
        self.lobby_changed: Signal[None] = Signal(self, "lobby-changed")

    def start_screen(self) -> Screen[Any]:
        """The lobby (game screens sit on top of it)."""
        return LobbyScreen()

    def exit(self, *args: Any, **kwargs: Any) -> None:
        """Exit; from now on ``exiting`` is True (the server calls this when the
        client leaves, possibly while a screen is still being composed)."""
        self.exiting = True
        super().exit(*args, **kwargs)

    def on_mount(self) -> None:
        self.lobby.enter(self)

    def on_unmount(self) -> None:
        self.close_table()
        self.lobby.exit(self)

    def waiting_with_others(self) -> bool:
        """For the SSH server's idle timeout: True while others wait with us."""
        return waiting_with_others(self.lobby, self, self.table) or (
            self.watching is not None and not self.watching.table.finished)

    # ------------------------------------------------------------ lobby news
    def lobby_event(self, event: LobbyEvent) -> None:
        """Called by the lobby (possibly from another app's handler): queue only."""
        self.post_message(LobbyEventMessage(event))

    def on_lobby_event_message(self, message: LobbyEventMessage) -> None:
        event = message.event
        if isinstance(event, Seated):
            if self.table is not event.table:
                self.open_table(event.table, event.seat)
                self.notify("Every seat is taken: the game begins.")
        elif isinstance(event, Dissolved):
            if isinstance(self.screen, WaitingScreen):
                self.pop_screen()
            self.notify(event.reason, severity="warning")
        elif isinstance(event, SeatNews) and self.table is event.table:
            self.notify(event.text)
            self.table_changed.publish([])  # the lobby's task runs a shared table's bots
        elif isinstance(event, WatchEnded) and self.watching is not None \
                and self.watching.game_id == event.game_id:
            self.watching = None
            if isinstance(self.screen, WatchScreen):
                self.pop_screen()
            self.notify(event.reason, severity="warning")
        # Redraw lobby lists once per frame however many changes arrive, and
        # only on the screen in view (the others redraw when they come back).
        if not self._lobby_redraw_pending:
            self._lobby_redraw_pending = True
            self.call_after_refresh(self._redraw_lobby)

    def _redraw_lobby(self) -> None:
        self._lobby_redraw_pending = False
        self.lobby_changed.publish(None)
        watchers = self.watchers()
        if watchers != self._watchers_shown:  # someone in another process started or stopped watching
            self._watchers_shown = watchers
            self.table_changed.publish([])

    # ----------------------------------------------------------------- games
    def start_game(self, options: NewGameOptions) -> None:
        """Start a solo game (see ``MomijiApp.start_game``; with a database,
        saved there under this player); the lobby shows what this player does."""
        games = self.lobby.games
        if games is None:
            super().start_game(options)
        else:
            if options.bot_delay is not None:
                self.bot_delay = max(0.0, options.bot_delay)
            if options.memory is not None:
                self.memory_mode = options.memory
            self.open_table(games.new_table(Table, options.seat_configs(), seed=options.seed,
                                            landscape_mode=options.landscape_mode,
                                            owners=[self.player.account_id]), seat=0)
        if self.table is not None and self.table.log is not None:
            self.lobby.claim_file(self, self.table.log.path)
        if self.table is not None and options.watchable:
            self.lobby.offer_solo(self, self.table)
        self.lobby.set_activity(self, solo_activity(options.seats - 1))

    def start_tutorial(self) -> None:
        """Start the guided first game (see ``MomijiApp.start_tutorial``;
        with a database, saved there under this player)."""
        games = self.lobby.games
        if games is None:
            super().start_tutorial()
        else:
            self.open_table(games.new_table(TutorialTable, list(TUTORIAL_SEATS), seed=None,
                                            landscape_mode="starter", owners=[self.player.account_id]), seat=0)
        if self.table is not None and self.table.log is not None:
            self.lobby.claim_file(self, self.table.log.path)
        self.lobby.set_activity(self, solo_activity(1))

    def resume_game(self, path: str | os.PathLike[str]) -> None:
        """Resume a solo game of this player (never one open in another session)."""
        if not self.lobby.claim_file(self, path):
            raise LobbyError("That game is open in another of your sessions.")
        try:
            if self.lobby.games is None:
                super().resume_game(path)
            elif self.table is not None and self.table.game_id == str(path):  # path: the game id
                self.show_phase()
            else:
                table = self.lobby.games.resume(Table, str(path))
                self.open_table(table, seat=next((i for i, s in enumerate(table.seats) if s.kind == HUMAN), 0))
        except BaseException:
            self.lobby.release_file(self, path)
            raise
        if self.table is not None:
            self.lobby.set_activity(self, solo_activity(sum(s.is_bot for s in self.table.seats)))

    def unfinished_solo(self) -> list[SavedGame]:
        """This player's solo games in progress (with a database, listed from it
        by owner; if that fails, none, and ``games_problem`` says why)."""
        if self.lobby.games is None:
            return super().unfinished_solo()
        try:
            games = self.lobby.games.unfinished_solo(self.player.account_id)
        except (OSError, StoreError) as exc:  # the database failed: say so (``games_problem``), not "none"
            self.games_problem = f"Your games cannot be listed now: {exc} They are kept; try again later."
            return []
        self.games_problem = None
        return games

    def saved_games(self) -> list[SavedGameRow]:
        """The saved-games screen's rows: this player's games (with a database,
        their solo games there). Raises ``OSError`` if they cannot be read."""
        if self.lobby.games is None:
            return describe_saved_games(self.data_dir)
        return [describe(g) for g in self.lobby.games.solo_games(self.player.account_id)]

    # -------------------------------------------------------------- watching
    def watch_game(self, game_id: str) -> str | None:
        """Watch ``game_id`` from the spectator's view (the watch screen);
        returns why not, or None."""
        try:
            self.watching = self.lobby.watch(self, game_id)
        except LobbyError as exc:
            return str(exc)
        self.push_screen(WatchScreen(self.watching, leave=self.stop_watching))
        return None

    def stop_watching(self) -> None:
        """Leave the game watched (the players are told); nothing if none is."""
        if self.watching is not None:
            self.watching = None
            self.lobby.stop_watching(self)

    def watchers(self) -> tuple[str, ...]:
        """The names of those watching the open game."""
        return self.lobby.watchers_of(self.table.game_id) if self.table is not None else ()

    def may_be_watched(self) -> bool:
        """Whether the server lets games be watched (``--no-spectators``: no)."""
        return self.lobby.spectators.enabled

    def rating_line(self, game_id: str) -> str | None:
        """What ``game_id`` did to its players' ratings, as the score sheet
        says it (``"Ratings: You rating 27.1 (+0.8), bob rating 3.2
        (-0.4)."``), or None: not a shared game rated here."""
        live = self.lobby.live.get(game_id)
        if live is None:
            return None
        names = {s.account_id: "You" if s.account_id == self.player.account_id else s.name
                 for s in live.seats if s.account_id is not None}
        return self.lobby.rating_line(game_id, names)

    # ---------------------------------------------------------- the daily deal
    def start_daily(self) -> str | None:
        """Open today's daily deal (``session/daily.py``) for this player,
        saved where their solo games go; returns why not in one line (turned
        off, a guest, already played today, the store failed), or None."""
        lobby = self.lobby
        if lobby.daily is None:
            return DAILY_OFF
        if self.player.is_guest:
            return "The daily deal is for players with a key: a guest is a new player at every visit."
        account = self.player.account_id
        games = lobby.games

        def make(seats: list[SeatConfig], seed: int, game_id: str, day: str) -> Table:
            if games is None:
                return daily.DailyTable.new(seats, seed=seed, data_dir=self.data_dir, holder=self.holder,
                                            game_id=game_id, daily=day)
            return games.new_table(daily.DailyTable, seats, seed=seed, landscape_mode=daily.DAILY_LANDSCAPE_MODE,
                                   owners=[account], game_id=game_id, daily=day)

        try:
            play = daily.todays_play(lobby.daily, account, lobby.daily_clock())
            if play is not None and play.score is None and self._daily_unfinished(play):
                self.resume_game(play.game_id if games is not None else self.data_dir / "games" /
                                 f"{play.game_id}.jsonl")  # begun today, not ended: continue it
                return None
            made = daily.start_daily(lobby.daily, account, lobby.label(self), lobby.daily_clock(), make, new_game_id)
        except Exception as exc:  # the store failed (nothing claimed), or the game is open elsewhere
            return f"The daily deal cannot be started now: {exc}"
        if isinstance(made, str):
            return made
        self.open_table(made, seat=daily.PLAYER_SEAT)
        if made.log is not None:
            lobby.claim_file(self, made.log.path)
        lobby.set_activity(self, solo_activity(len(made.seats) - 1))
        return None

    def _daily_unfinished(self, play: daily.DailyPlay) -> bool:
        """True if ``play``'s game can be read and has not ended."""
        games = self.lobby.games
        try:
            if games is None:
                events = load(self.data_dir / "games" / f"{play.game_id}.jsonl", validate_log).events
            else:
                events = games.store.load_game(play.game_id, validate_log).loaded.events
            return daily.final_score(events) is None
        except Exception:  # missing or unreadable: not one to continue
            return False

    def daily_board(self) -> list[str]:
        """The daily deal's boards (today and this week) as lines, this player marked."""
        lobby = self.lobby
        if lobby.daily is None:
            return [DAILY_OFF]
        games = lobby.games

        def final_score(play: daily.DailyPlay) -> int | None:
            try:
                if games is None:
                    path = lobby.data_dir / "players" / play.account_id / "games" / f"{play.game_id}.jsonl"
                    loaded = load(path, validate_log)
                else:
                    loaded = games.store.load_game(play.game_id, validate_log).loaded
                return daily.ranked_score(loaded.events, loaded.last_played, play.day)
            except Exception:  # not readable now: no score yet
                return None

        try:
            return daily.board_text(lobby.daily, lobby.daily_clock(), final_score, self.player.account_id)
        except Exception as exc:  # the store failed
            return [f"The boards cannot be read now: {exc}"]

    def return_to_table(self, game_id: str) -> str | None:
        """Sit back down at a shared game; returns why not, or None."""
        try:
            table, seat = self.lobby.return_to(self, game_id)
        except LobbyError as exc:
            return str(exc)
        self.open_table(table, seat)
        return None

    def close_table(self) -> None:
        """Leave the table (a shared one: the lobby frees the seat) and go back to the lobby."""
        table = self.table
        super().close_table()
        if table is None:
            return
        if isinstance(table, SharedTable):
            self.lobby.leave_table(self, table)
        else:
            self.lobby.withdraw_solo(self)
            if table.log is not None:
                self.lobby.release_file(self, table.log.path)
        self.lobby.set_activity(self, IN_LOBBY)

