"""What a new game is made of (the new-game form, ``momiji play --seats …``)
and the bots' pace: plain data, no Textual."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...session.table import BOT, HUMAN, SeatConfig
from ...store.errors import Conflict, SaveDiverged, WriteFailed

#: The palette command that keeps a diverged game going (``ui/commands.py``).
RECOVER_COMMAND = "Keep playing in a recovered copy"

BOT_NAMES = ("Kaede", "Ginnan", "Sakura", "Donguri")
#: The bots' levels, weakest first (docs/BOTS.md): what the form and ``--bots`` offer.
BOT_LEVELS = ("easy", "normal", "hard")
# Bot speeds offered on the new-game form and in the palette: name → seconds
# each bot move stays on screen before the next.
BOT_SPEEDS: dict[str, float] = {"instant": 0.0, "fast": 0.3, "normal": 0.8, "slow": 1.6}


def bot_speed_name(seconds: float) -> str:
    """The speed of ``BOT_SPEEDS`` closest to ``seconds`` (``"normal"``…)."""
    return min(BOT_SPEEDS, key=lambda k: abs(BOT_SPEEDS[k] - seconds))


def not_saved_text(exc: WriteFailed, who: str = "The move") -> str:
    """What a player reads when a move could not be saved (nothing changed):
    ``Not saved: disk full. The move was not made; …``. When another
    session saved a move of the game first (the database store's
    ``Conflict``), trying again cannot help: the reason already says to
    leave the game and open it again, and nothing invites another try.
    When the save file was replaced, removed or changed by someone else
    (``SaveDiverged``), it says so and offers the two ways on."""
    if isinstance(exc, SaveDiverged):
        return (f"Not saved: {exc.reason}. {who} was not made. To continue from the file on disk, quit and "
                f"resume the game; to keep playing this table, choose \"{RECOVER_COMMAND}\" (ctrl+p): "
                "the other file is kept aside.")
    if isinstance(exc.__cause__, Conflict):
        return f"Not saved: {exc.reason}. {who} was not made; the game is saved up to the other session's move."
    return (f"Not saved: {exc.reason}. {who} was not made; the game is saved up to the move before. "
            "Try again, or quit.")


@dataclass(frozen=True)
class NewGameOptions:
    """What the new-game screen asks: the player's name, 2–4 seats (the
    player in seat 0, bots elsewhere), the bots' levels (``bot_level`` for
    every bot, or ``bot_levels`` one per bot seat), starter or drafted
    landscapes (RULES §2.1), an optional seed."""

    name: str = "You"
    seats: int = 2
    bot_level: str = "normal"
    bot_levels: tuple[str, ...] = ()  # one per bot seat; () = ``bot_level`` for all
    landscape_mode: str = "starter"
    seed: int | None = None
    seat_list: tuple[SeatConfig, ...] = ()  # these exact seats (a rematch); () = the player, then bots
    bot_delay: float | None = None  # None: keep the app's pace
    memory: bool | None = None  # None: keep the app's memory mode (RULES §8)
    watchable: bool = False  # over SSH: others may watch it from the lobby (session/spectators.py)

    def levels(self) -> list[str]:
        """Each bot seat's level, seat 1 first. Raises ValueError when
        ``bot_levels`` does not give one level per bot seat, or names a level
        not in ``BOT_LEVELS``."""
        if self.seat_list:
            return [s.level or "normal" for s in self.seat_list if s.is_bot]
        levels = list(self.bot_levels) or [self.bot_level] * (self.seats - 1)
        if len(levels) != self.seats - 1:
            raise ValueError(f"{self.seats} seats need {self.seats - 1} bot level(s), not {len(levels)}.")
        for level in levels:
            if level not in BOT_LEVELS:
                raise ValueError(f"No bot level {level!r}: choose from {', '.join(BOT_LEVELS)}.")
        return levels

    def seat_configs(self) -> list[SeatConfig]:
        """The seats: the human first, then the bots, each at its level.
        Raises ValueError as ``levels`` does. A rematch's ``seat_list`` is kept as it is."""
        if self.seat_list:
            return list(self.seat_list)
        bots = [SeatConfig(BOT_NAMES[i], BOT, level) for i, level in enumerate(self.levels())]
        return [SeatConfig(self.name or "You", HUMAN, None), *bots]


def rematch_options(seats: Sequence[SeatConfig], landscape_mode: str) -> NewGameOptions | None:
    """A new deal for the same seats, names and bot levels (and landscapes),
    with a new seed; None unless exactly one seat is a human (a solo game)."""
    if sum(not s.is_bot for s in seats) != 1:
        return None
    human = next(s for s in seats if not s.is_bot)
    return NewGameOptions(name=human.name, seats=len(seats), seat_list=tuple(seats),
                          landscape_mode=landscape_mode)
