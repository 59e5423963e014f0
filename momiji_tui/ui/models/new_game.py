"""What a new game is made of (the new-game form, ``momiji play --seats …``)
and the bots' pace: plain data, no Textual."""

from __future__ import annotations

from dataclasses import dataclass

from ...session.table import BOT, HUMAN, SeatConfig
from ...store.errors import WriteFailed

BOT_NAMES = ("Kaede", "Ginnan", "Sakura", "Donguri")
# Bot speeds offered on the new-game form and in the palette: name → seconds
# each bot move stays on screen before the next.
BOT_SPEEDS: dict[str, float] = {"instant": 0.0, "fast": 0.3, "normal": 0.8, "slow": 1.6}


def bot_speed_name(seconds: float) -> str:
    """The speed of ``BOT_SPEEDS`` closest to ``seconds`` (``"normal"``…)."""
    return min(BOT_SPEEDS, key=lambda k: abs(BOT_SPEEDS[k] - seconds))


def not_saved_text(exc: WriteFailed, who: str = "The move") -> str:
    """What a player reads when a move could not be saved (nothing changed):
    ``Not saved: disk full. The move was not made; …``."""
    return (f"Not saved: {exc.reason}. {who} was not made; the game is saved up to the move before. "
            "Try again, or quit.")


@dataclass(frozen=True)
class NewGameOptions:
    """What the new-game screen asks: the player's name, 2–4 seats (the
    player in seat 0, bots elsewhere), the bots' level, starter or drafted
    landscapes (RULES §2.1), an optional seed."""

    name: str = "You"
    seats: int = 2
    bot_level: str = "normal"
    landscape_mode: str = "starter"
    seed: int | None = None
    bot_delay: float | None = None  # None: keep the app's pace
    memory: bool | None = None  # None: keep the app's memory mode (RULES §8)

    def seat_configs(self) -> list[SeatConfig]:
        """The seats: the human first, then the bots."""
        bots = [SeatConfig(BOT_NAMES[i], BOT, self.bot_level)
                for i in range(self.seats - 1)]
        return [SeatConfig(self.name or "You", HUMAN, None), *bots]
