"""What a screen may ask of the app that hosts it, as a Protocol.

Screens and widgets type ``self.app`` through :class:`GameHost` instead of
importing ``ui/app.py``, so nothing below the app imports it (no import
circle; the layers contract in pyproject.toml). Data goes down through
``table_changed`` (and ``memory_changed``); requests go up through these
few methods. The lobby screens of an SSH session see :class:`LobbyHost`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, runtime_checkable

if TYPE_CHECKING:
    from ...bots.advice import Advice
    from ...engine.commands import Command
    from ...engine.events import Event
    from ...session.bound_names import NameSession
    from ...session.lobby import Lobby, LobbyEvent, Player
    from ...session.saves import SavedGameRow
    from ...session.table import Table
    from ...store import SavedGame
    from .new_game import NewGameOptions
    from .settings import SettingsKeeper


T = TypeVar("T")


class Signal(Protocol[T]):
    """A broadcast the app owns (Textual's ``textual.signal.Signal``, seen
    without importing Textual): ``subscribe`` a mounted node's callback,
    ``publish`` data to every subscriber still mounted."""

    def subscribe(self, node: Any, callback: Callable[[T], Any], immediate: bool = False) -> None: ...
    def unsubscribe(self, node: Any) -> None: ...
    def publish(self, data: T) -> None: ...


class GameHost(Protocol):
    """The app as the screens see it.

    ``table_changed`` publishes the list of new events after every change of
    the open game (an empty list: redraw, nothing new, e.g. memory mode
    toggled or a bot started thinking). Subscribe in ``on_mount``:
    ``host(self).table_changed.subscribe(self, self.on_table_update)``.
    ``memory_changed`` publishes the new memory mode (RULES §8) before the
    redraw: a move log renders again from the start.
    """

    table: Table | None
    seat: int
    thinking: int | None
    memory_mode: bool
    hosted: bool
    data_dir: Path
    bot_delay: float
    settings: SettingsKeeper
    #: Hard's advice for a view (``bots.advice.advise``; over SSH the bot pool's).
    advise: Callable[..., Advice]

    @property
    def table_changed(self) -> Signal[list[Event]]: ...
    @property
    def memory_changed(self) -> Signal[bool]: ...

    def key_for(self, binding_id: str) -> str: ...
    def submit(self, command: Command) -> str | None: ...
    def hints_allowed(self) -> bool: ...
    def record_hint(self, seat: int, win_percent: int) -> str | None: ...
    def drive_bots(self) -> None: ...
    def close_table(self) -> None: ...
    def resume_game(self, path: str | os.PathLike[str]) -> None: ...
    def set_bot_delay(self, seconds: float) -> None: ...
    def start_game(self, options: NewGameOptions) -> None: ...
    def start_tutorial(self) -> None: ...
    def skip_step(self) -> str | None: ...
    def unfinished_solo(self) -> list[SavedGame]: ...
    def action_help(self) -> None: ...
    def action_toggle_memory(self) -> None: ...
    def watchers(self) -> tuple[str, ...]: ...
    def may_be_watched(self) -> bool: ...


class LobbyHost(GameHost, Protocol):
    """The app of one SSH session as the lobby screens see it: the server's
    ``lobby``, who this session is (``player``), and seats at shared tables.

    ``lobby_changed`` publishes (None) when the lobby's lists changed, at
    most once per frame; a screen redraws only while it is in view.
    """

    lobby: Lobby
    player: Player
    auto_returned: bool
    exiting: bool
    games_problem: str | None  # why ``unfinished_solo`` last listed none (the database failed), else None
    names: NameSession | None  # this session's name bound to its key (None: not bound)

    @property
    def lobby_changed(self) -> Signal[None]: ...
    def return_to_table(self, game_id: str) -> str | None: ...
    def start_daily(self) -> str | None: ...
    def daily_board(self) -> list[str]: ...
    def watch_game(self, game_id: str) -> str | None: ...
    def lobby_event(self, event: LobbyEvent) -> None: ...


@runtime_checkable
class SavedGamesLister(Protocol):
    """An app that lists the saved-games screen's rows itself (over SSH:
    the player's own games, from the database when the server has one)."""

    def saved_games(self) -> list[SavedGameRow]: ...


@runtime_checkable
class RatingsTeller(Protocol):
    """An app that says what a finished game did to its players' ratings
    (over SSH: the lobby's, ``session/lobby_ratings.py``)."""

    def rating_line(self, game_id: str) -> str | None: ...


def host(node: Any) -> GameHost:
    """``node.app`` typed as the :class:`GameHost` (a screen or widget in a
    mounted app). No check is made; the app implements the Protocol."""
    app: GameHost = node.app
    return app


def lobby_host(node: Any) -> LobbyHost:
    """``node.app`` typed as the :class:`LobbyHost` (a lobby screen in a
    mounted SSH session's app). No check is made; ``LobbyApp`` implements it."""
    app: LobbyHost = node.app
    return app
