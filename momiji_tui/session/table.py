"""A table: one game's engine state, its event log on disk and its seats.

The one place that runs turns (ARCHITECTURE "Layers"): front ends (the Textual app,
each SSH client) send commands here and get ``PlayerView``s back; bots are
asked here; every event is appended to the log (flushed and fsynced) before
it changes the table, then published to listeners.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Self

from .. import engine
from ..bots import LEVELS as _BOT_LEVELS
from ..engine import events as ev
from ..engine.rules_data import RULES_VERSION
from ..store import GameLog, NewerRules, load, new_game_id
from ..store.errors import HeaderRejected
from ..store.game_writer import GameWriter
from ..safe_text import safe_text
from . import deal_seed
from .versions import is_newer_rules

ACCOUNT_ID_RE = re.compile(r"[a-z0-9][a-z0-9-]{0,79}")
"""What an account id may look like (it becomes a folder name)."""
HUMAN, BOT = "human", "bot"
Listener = Callable[[list[ev.Event]], None]
#: Makes a new game's log from its header and setup events (the database's
#: ``DatabaseGameLog.create``; the file store's ``GameLog.create`` by default).
LogFactory = Callable[[dict, list[dict]], GameWriter]


@dataclass(frozen=True, slots=True)
class SeatConfig:
    """Who sits in a seat: a human (``level`` None) or a bot of a level."""

    name: str
    kind: str = HUMAN
    level: str | None = None

    @property
    def is_bot(self) -> bool:
        """True for a bot seat."""
        return self.kind == BOT


_SEAT_KEYS = frozenset(f.name for f in fields(SeatConfig))
LANDSCAPE_MODES = ("starter", "draft")  # RULES §2.1, as engine.create_game takes them


def seat_configs(header: dict) -> list[SeatConfig]:
    """The header's ``seats`` as :class:`SeatConfig` s: the schema a save's
    header is held to wherever it is read (load, import, resume, replay,
    list). Each seat is an object with exactly ``SeatConfig``'s fields: a
    ``name`` string (made safe to show: ``safe_text``), ``kind`` ``"human"``
    or ``"bot"``, ``level`` null for a human, a bot level for a bot. Raises
    ``ValueError`` saying what is wrong, in one sentence."""
    seats = header.get("seats")
    if not isinstance(seats, list) or not 2 <= len(seats) <= 4:
        raise ValueError("The header does not list 2 to 4 seats.")
    out = []
    for number, seat in enumerate(seats, start=1):
        if not isinstance(seat, dict):
            raise ValueError(f"Seat {number} in the header is not an object with a name and a kind.")
        if not _SEAT_KEYS.issuperset(seat) or "name" not in seat:
            extra = sorted(str(k) for k in set(seat) - _SEAT_KEYS)
            raise ValueError(f"Seat {number} in the header has unknown fields {extra} or no name."[:200])
        name, kind, level = seat["name"], seat.get("kind", HUMAN), seat.get("level")
        if not isinstance(name, str):
            raise ValueError(f"Seat {number} in the header has a name that is not text.")
        if (kind == HUMAN and level is None) or (kind == BOT and level in _BOT_LEVELS):
            out.append(SeatConfig(safe_text(name), kind, level))
        else:
            raise ValueError(f"Seat {number} in the header is neither a human nor a bot of a known level.")
    mode = header.get("landscape_mode", "starter")
    if mode not in LANDSCAPE_MODES:
        raise ValueError("The header's landscape mode is neither starter nor draft.")
    return out


def validate_log(header: dict, events: list[dict]) -> None:
    """Store validator: the header's seats must follow :func:`seat_configs`
    and the events must fold under the rules, one seat per header seat
    (raises ValueError). A save from newer rules (its header's
    ``rules_version`` is later than ``RULES_VERSION``) raises the store's
    ``NewerRules`` instead: it is not damaged, this version is too old to
    open it."""
    checked_state(header, events)


def checked_state(header: dict, events: list[dict]) -> engine.GameState:
    """The state the events fold to, checked as :func:`validate_log` checks
    a save (raises as it does)."""
    if is_newer_rules(header.get("rules_version"), RULES_VERSION):
        raise NewerRules("", str(header["rules_version"]), RULES_VERSION)
    if not events:
        raise ValueError("The save holds no game.")
    try:
        seats = seat_configs(header)
    except ValueError as exc:
        raise HeaderRejected(str(exc)) from None
    try:
        state = engine.fold(engine.from_dict(e) for e in events)
        if len(state.seats) != len(seats):
            raise ValueError(f"the header lists {len(seats)} seats, the game has {len(state.seats)}")
    except ValueError as exc:
        raise ValueError(f"The rules reject this save: {exc}") from None
    except (KeyError, IndexError, TypeError) as exc:
        raise ValueError(f"The rules reject this save ({type(exc).__name__}: {exc}).") from None
    return state


class Table:
    """A game being played: state, log, seats, listeners.

    ``bots_run_by_front_end``: the front end that opened the table runs its
    bots (a solo game); a shared table's bots run in the lobby's one task.

    Thread-safety: ``submit`` and the read methods take a lock, so a bot
    worker thread may call ``view``/``bot_command`` while the UI reads.
    """

    bots_run_by_front_end = True
    commits_seed = False  # a new game's header carries ``seed_sha256`` (deal_seed.py): shared tables do

    def __init__(self, events: list[ev.Event], seats: list[SeatConfig], log: GameWriter | None,
                 bot_seed: int = 0, seed_sha256: str = "", daily: str = "") -> None:
        self.events: list[ev.Event] = list(events)
        self.state = engine.fold(self.events)
        self.seats = seats
        self.log = log
        self.bot_seed = bot_seed
        self.seed_sha256 = seed_sha256  # the deal's commitment shown from the start ("" if none)
        self.daily = daily  # the UTC day (YYYY-MM-DD) of a daily deal (session/daily.py), else ""
        self._listeners: list[Listener] = []
        self._lock = threading.RLock()

    # ---------------------------------------------------------------- create

    @classmethod
    def new(cls, seats: list[SeatConfig], *, seed: int | None = None, landscape_mode: str = "starter",
            data_dir: str | os.PathLike[str] | None = None, holder: str = "momiji",
            create_log: LogFactory | None = None, game_id: str | None = None, daily: str = "") -> Self:
        """Start a new game and (with ``data_dir``) its save file, held open
        for writing by ``holder`` (e.g. ``"an SSH session"``) until :meth:`close`;
        or, with ``create_log``, the log it makes (a game on the database).
        ``game_id``: the id to give it (default: a new one). ``daily``: the
        UTC day of a daily deal (kept in the header as ``daily``).

        Raises ``ValueError`` for a wrong number of seats or mode, the
        store's ``WriteFailed`` if the save file cannot be made (disk full,
        read-only…).
        """
        if seed is None:
            seed = int.from_bytes(os.urandom(4), "big")
        game_id = game_id or new_game_id()
        events = engine.create_game([s.name for s in seats], seed=seed,
                                    landscape_mode=landscape_mode, game_id=game_id)
        return cls.start(seats, events, data_dir=data_dir, holder=holder, create_log=create_log, daily=daily)

    @classmethod
    def start(cls, seats: list[SeatConfig], events: list[ev.Event], *,
              data_dir: str | os.PathLike[str] | None = None, holder: str = "momiji",
              create_log: LogFactory | None = None, daily: str = "") -> Self:
        """A new game from its opening ``events`` (``GameCreated`` first, as
        ``engine.create_game`` makes them, or a fixed deal such as the
        tutorial's), saved as :meth:`new` saves it. Raises the store's
        ``WriteFailed`` if the save cannot be made."""
        created = events[0]
        if not isinstance(created, ev.GameCreated):
            raise ValueError("a game starts with GameCreated")
        game_id, seed, landscape_mode = created.game_id, created.seed, created.landscape_mode
        log: GameWriter | None = None
        header = {
            "game_id": game_id, "rules_version": created.rules_version, "seed": seed,
            "seats": [asdict(s) for s in seats], "landscape_mode": landscape_mode,
        }
        commitment = deal_seed.seed_sha256(seed) if cls.commits_seed and seed is not None else ""
        if commitment:
            header["seed_sha256"] = commitment
        if daily:
            header["daily"] = daily
        if create_log is not None:
            log = create_log(header, [engine.to_dict(e) for e in events])
        elif data_dir is not None:
            log = GameLog.create(data_dir, header, events=[engine.to_dict(e) for e in events], holder=holder)
        return cls(events, seats, log, bot_seed=seed or 0, seed_sha256=commitment, daily=daily)

    @classmethod
    def resume(cls, path: str | os.PathLike[str], *, holder: str = "momiji") -> Self:
        """Continue a saved game exactly where it stopped, holding it open
        for writing (one writer per game) until :meth:`close`.

        Raises the store's ``DamagedLog``/``NewerFormat`` (``NewerRules``)
        for a file it cannot open, ``GameInUse`` if another writer has it
        open (saying where), ``WriteFailed`` if it cannot be opened for
        writing (e.g. a read-only data dir).
        """
        return cls.from_log(GameLog.open_for_append(path, validate_log, holder=holder))

    @classmethod
    def from_log(cls, log: GameWriter) -> Self:
        """Continue the game of a log already open for writing (a save file's
        ``GameLog``, or a game on the database), checked when it was opened."""
        header = log.header
        seats = seat_configs(header)
        events = [engine.from_dict(e) for e in log.loaded.events]
        return cls(events, seats, log, bot_seed=header.get("seed") or 0,
                   seed_sha256=header.get("seed_sha256") or "", daily=str(header.get("daily") or ""))

    @classmethod
    def replay(cls, path: str | os.PathLike[str]) -> Table:
        """Read a saved game without opening it for writing."""
        loaded = load(path, validate_log)
        seats = seat_configs(loaded.header)
        return cls([engine.from_dict(e) for e in loaded.events], seats, None)

    # ------------------------------------------------------------------ read

    @property
    def game_id(self) -> str:
        """The game's id (also its save file's name)."""
        return self.state.game_id

    @property
    def save_file(self) -> Path | None:
        """The game's save file, or None: not saved, or saved on the database
        (whose log's ``path`` is only the game's id, no file to keep a
        post-game review beside)."""
        return self.log.path if isinstance(self.log, GameLog) else None

    @property
    def finished(self) -> bool:
        """True once ``GameEnded`` has happened (RULES §6)."""
        return self.state.phase == "ended"

    @property
    def current(self) -> int:
        """The seat to act now (drafting or playing)."""
        return self.state.current

    def view(self, seat: int | None) -> engine.PlayerView:
        """What ``seat`` may see now (RULES §8)."""
        with self._lock:
            return engine.view(self.state, seat)

    def legal(self, seat: int) -> list[engine.Command]:
        """Every legal command of ``seat`` now (empty when not its turn)."""
        with self._lock:
            return engine.legal_commands(self.state, seat)

    def score(self) -> engine.ScoreSheet:
        """The score sheet (final once the game is finished, RULES §7)."""
        with self._lock:
            return engine.score(self.state)

    def check(self, command: engine.Command) -> list[ev.Event]:
        """The events ``command`` would cause, without doing it. Only for
        commands that reveal nothing hidden (plays, collects, objectives);
        raises ``IllegalCommand``."""
        if not isinstance(command, (engine.Play, engine.Collect, engine.ActivateObjective, engine.Exchange)):
            raise TypeError("only public commands can be checked in advance")
        with self._lock:
            return engine.decide(self.state, command)

    def bot_to_move(self) -> int | None:
        """The bot seat that must act now, or None (a human's turn, or the end)."""
        if self.finished:
            return None
        seat = self.state.current
        return seat if self.seats[seat].is_bot else None

    # ----------------------------------------------------------------- write

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(events)`` after each accepted command; returns an
        unsubscribe function."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def submit(self, command: engine.Command) -> list[ev.Event]:
        """Decide ``command``, save its events, apply them, tell listeners.

        Raises ``IllegalCommand`` (nothing changes, nothing is written).
        If the move cannot be saved, raises the store's ``WriteFailed``
        (an ``OSError``; ``.reason`` says why in words, e.g. "disk full"):
        the move is not made, the table and the file stay as they were, and
        the same command may simply be sent again.
        """
        with self._lock:
            new_events = engine.decide(self.state, command)
            if self.log is not None:
                self.log.extend([engine.to_dict(e) for e in new_events])
            state = self.state.clone()
            for e in new_events:
                engine.apply_in_place(state, e)
            self.state = state
            self.events.extend(new_events)
        for listener in list(self._listeners):
            listener(new_events)
        return new_events

    #: Whether the hint key works here: a game of one's own always
    #: allows it; a shared table only if every player agreed (``SharedTable``).
    hints_allowed = True

    def record(self, events: Sequence[ev.SeatControlChanged | ev.HintShown]) -> None:
        """Save and apply seat-control events or a hint shown: the session
        layer's record of who plays a seat, appended to the log as one move
        (the same lock, fsync and move mark as a command's events), then
        published to listeners. No rule looks at them, so they are never
        refused; raises ``ValueError`` for a seat or control that does not
        exist and the store's ``WriteFailed`` if the disk refuses (nothing
        changes, as for :meth:`submit`)."""
        events = list(events)
        with self._lock:
            state = self.state.clone()
            for event in events:
                engine.apply_in_place(state, event)
            if self.log is not None:
                self.log.extend([engine.to_dict(e) for e in events])
            self.state = state
            self.events.extend(events)
        for listener in list(self._listeners):
            listener(list(events))

    def bot_command(self, seat: int, make_bot: Callable[..., object] | None = None) -> engine.Command:
        """Ask the bot in ``seat`` for its next command (slow: call it from a
        worker). The bot sees only its view; its seed depends on the game's
        seed, the seat and how far the game is, so a resumed game continues
        the same way."""
        if make_bot is None:
            from ..bots import make_bot as default_make_bot

            make_bot = default_make_bot
        with self._lock:
            v = engine.view(self.state, seat)
            step = len(self.events)
        config = self.seats[seat]
        bot = make_bot(config.level or "normal", seed=hash((self.bot_seed, seat, step)) & 0xFFFFFFFF)
        return bot.choose(v)  # type: ignore[attr-defined]

    @property
    def save_diverged(self) -> bool:
        """True once the save file was found replaced, removed or changed by
        someone else (the store's ``SaveDiverged``): no move is saved until
        :meth:`keep_in_recovered_copy`, or the game is resumed from the file."""
        return isinstance(self.log, GameLog) and self.log.diverged is not None

    def keep_in_recovered_copy(self) -> Path | None:
        """Keep playing this table after its save file diverged: the table's
        game is written anew under its own name, the other file moved aside
        (``GameLog.recover``). Returns where the other file went (None if it
        was removed). Raises ``ValueError`` when the table has no save file
        of its own, the store's ``WriteFailed`` if the disk refuses."""
        if not isinstance(self.log, GameLog):
            raise ValueError("This game is not saved in a file of its own.")
        with self._lock:
            return self.log.recover([engine.to_dict(e) for e in self.events])

    def close(self) -> None:
        """Close the save file (the game stays resumable)."""
        if self.log is not None:
            self.log.close()
