"""The tutorial's table: an ordinary :class:`Table` that lets through only
the script's next move (``session/tutorial.py``).

Every command still goes to the engine: a move the rules refuse gets the
rules' reason; a legal move that is not the lesson's gets a short "try …"
(``OffScript``) and changes nothing. Easy's moves come from the script, not
from a bot. The game is saved like any other and, resumed, returns to its
step (``tutorial.progress`` reads it from the events).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Self

from .. import engine
from ..engine import events as ev
from ..store import new_game_id
from ..store.game_writer import GameWriter
from . import tutorial as script
from .table import BOT, HUMAN, LogFactory, SeatConfig, Table

SEATS = [SeatConfig(script.SEAT_NAMES[script.YOU], HUMAN),
         SeatConfig(script.SEAT_NAMES[script.EASY], BOT, "easy")]
"""You, and one Easy bot that plays the script's moves."""


class OffScript(engine.IllegalCommand):
    """A legal move that is not the lesson's: the message says what to try."""


@dataclass(frozen=True, slots=True)
class Lesson:
    """What the step panel shows: the step (``number`` of ``total``, from 1),
    the text of the beat due (or what happens while Easy plays), and the
    table regions to highlight. ``step`` is None once the game has ended."""

    number: int
    total: int
    step: script.Step | None
    beat_text: str


class TutorialTable(Table):
    """The guided first game (``momiji learn``): the ordinary engine behind
    a gate that lets only the script's next move through."""

    def __init__(self, events: list[ev.Event], seats: list[SeatConfig], log: GameWriter | None,
                 bot_seed: int = 0, seed_sha256: str = "", daily: str = "") -> None:
        super().__init__(events, seats, log, bot_seed, seed_sha256, daily)
        self.done = script.progress(self.events)

    @classmethod
    def new(cls, seats: list[SeatConfig], *, seed: int | None = None, landscape_mode: str = "starter",
            data_dir: str | os.PathLike[str] | None = None, holder: str = "momiji",
            create_log: LogFactory | None = None, game_id: str | None = None, daily: str = "") -> Self:
        """A new tutorial game, saved as :meth:`Table.new` saves a game (in
        ``data_dir``, or the log ``create_log`` makes). Its seats, deal and
        landscapes are the script's: ``seats`` must be :data:`SEATS`;
        ``seed``, ``landscape_mode`` and ``daily`` are not used. Raises ``ValueError``
        for other seats, the store's ``WriteFailed`` if it cannot be saved."""
        if list(seats) != SEATS:
            raise ValueError("the tutorial seats You and Easy")
        return cls.start(list(SEATS), script.opening_events(game_id or new_game_id()), data_dir=data_dir, holder=holder,
                         create_log=create_log)

    @classmethod
    def begin(cls, *, data_dir: str | os.PathLike[str] | None = None, holder: str = "momiji") -> Self:
        """A new tutorial game saved in ``data_dir`` (None: not saved)."""
        return cls.new(list(SEATS), data_dir=data_dir, holder=holder)

    @classmethod
    def adopt(cls, table: Table) -> Table:
        """``table`` as the tutorial's table when it is a plain solo table
        whose events are the tutorial's (``tutorial.is_tutorial``: a resumed
        tutorial, on the same open log) and every move so far the script's
        (``tutorial.on_script``); else ``table`` itself, an ordinary game
        against Easy (a save edited off the lesson is never stuck at its gate)."""
        if type(table) is not Table or not script.is_tutorial(table.events) or not script.on_script(table.events):
            return table
        return cls(table.events, table.seats, table.log, table.bot_seed)

    # ------------------------------------------------------------ the script

    @property
    def next_move(self) -> script.Move | None:
        """The script's next move, or None when every move is made."""
        return script.MOVES[self.done] if self.done < len(script.MOVES) else None

    def lesson(self) -> Lesson:
        """The step to show now (the next move's step; the last step's
        number past the end)."""
        total = len(script.STEPS)
        move = self.next_move
        if move is None:
            return Lesson(total + 1, total, None, "")
        if move.step >= total:
            return Lesson(total, total, script.STEPS[-1], "Easy plays its last turn; then the score sheet.")
        step = script.STEPS[move.step]
        if move.seat != script.YOU:
            return Lesson(move.step + 1, total, step, "Easy is playing its turn…")
        return Lesson(move.step + 1, total, step, step.beats[move.beat].text)

    def try_text(self) -> str:
        """The short "try …" for the move due (empty when it is not yours)."""
        move = self.next_move
        if move is None or move.seat != script.YOU:
            return ""
        return script.STEPS[move.step].beats[move.beat].hint

    def submit(self, command: engine.Command) -> list[ev.Event]:
        """As :meth:`Table.submit`, but only the script's next move passes:
        the rules' refusal first (``IllegalCommand``), then ``OffScript``
        ("Not in this lesson: try …") for any other legal move. Nothing
        changes when a move is refused."""
        with self._lock:
            if self.finished or not script.accepts(self.state, self.done, command):
                engine.decide(self.state, command)  # the rules' own reason, if they refuse it
                hint = self.try_text() or "wait for Easy"
                raise OffScript(f"Not in this lesson: {hint}.")
            new = super().submit(command)
            self.done += 1
            return new

    def skip(self) -> list[ev.Event]:
        """Play the rest of the current step for the player (its first
        alternatives) and return their events; nothing when it is not the
        player's move. Raises the store's ``WriteFailed`` like ``submit``."""
        out: list[ev.Event] = []
        move = self.next_move
        step = move.step if move is not None else -1
        while move is not None and move.seat == script.YOU and move.step == step:
            out += self.submit(move.accepts[0])
            move = self.next_move
        return out

    def bot_command(self, seat: int, make_bot: Callable[..., object] | None = None) -> engine.Command:
        """Easy's scripted move (the script's next one, which is Easy's
        whenever Easy must act). Raises ``LookupError`` off the script."""
        move = self.next_move
        if move is None or move.seat != seat:
            raise LookupError("the tutorial has no move for this seat now")
        return move.accepts[0]
