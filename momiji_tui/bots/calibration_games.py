"""Positions for calibrating the win chance: seeded bot games, and Hard's
raw estimate at sampled decisions, with the game's outcome.

Every seat of a game is a seeded Normal bot (``make_bot("normal")``); after
the game, ``per_game`` of its play-phase decisions (RULES §3–§5; the draft,
RULES §2.1, is left out: its figure is a measured win rate already) are
picked at random among those with more than one legal command, and Hard's
search (``HardBot.search`` at ``iterations``, from the deciding seat's view
only, RULES §8) gives its raw estimate: the best command's mean
sigma(d / scale) and the one the seat played. A second search with another
seed on every ``noise_every``-th sample measures the estimate's own noise.

Pure: no files, no clock; the same arguments give the same samples.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from ..engine import create_game, fold, legal_commands, run, score, view
from ..engine.commands import Command
from ..engine.view import PlayerView
from . import make_bot
from .calibration import CALIBRATED_LEAF
from .hard import HardBot
from .tournament import bot_seed


@dataclass(frozen=True, slots=True)
class Position:
    """One sampled decision of a finished game.

    ``seats``: the game's seat count; ``seat``: the deciding seat; ``raw``:
    Hard's raw estimate for its best command (0..1); ``played``: its raw
    estimate for the command the seat played; ``won``: the seat's share of
    the win (1, 0, or 1/k when k seats tie on total and acorns, RULES §7);
    ``raw2``/``played2``: the same from a search with another seed (None
    when not measured). ``game``/``decision``: where it came from."""

    seats: int
    game: int
    decision: int
    seat: int
    raw: float
    played: float
    won: float
    raw2: float | None = None
    played2: float | None = None


def _estimates(v: PlayerView, command: Command, seed: int, iterations: int) -> tuple[float, float]:
    """Hard's raw estimate of its best command and of ``command`` from ``v``."""
    ranked = HardBot(seed, iterations=iterations, leaf=CALIBRATED_LEAF).search(v, include=(command,))
    mine = next((w for c, _, w in ranked if c == command), ranked[0][2])
    return ranked[0][2], mine


def game_positions(seats: int, game: int, seed: int, *, per_game: int, iterations: int,
                   noise_every: int = 0) -> Iterator[Position]:
    """Play game number ``game`` of the run ``seed`` (deal ``seed * 100000 +
    game``; Normal bots seeded by ``tournament.bot_seed``), then yield
    ``per_game`` of its decisions (fewer if it has fewer) with Hard's raw
    estimates at ``iterations``. ``noise_every`` > 0: every such-th sample of
    the run (by game and pick) also gets a second search."""
    deal = seed * 100000 + game
    bots = [make_bot("normal", bot_seed(seed, game, s)) for s in range(seats)]
    state = fold(create_game([f"normal#{s}" for s in range(seats)], seed=deal, game_id=f"cal{deal}"))
    decisions: list[tuple[int, PlayerView, Command]] = []
    while state.phase != "ended":
        seat = state.current
        v = view(state, seat)
        command = bots[seat].choose(v)
        if state.phase == "play" and len(legal_commands(state, seat)) > 1:
            decisions.append((seat, v, command))
        state, _ = run(state, command)
    sheet = score(state)
    share = [0.0] * seats
    for w in sheet.winners:
        share[w] = 1.0 / len(sheet.winners)
    rng = random.Random(f"calibration|{seed}|{game}")
    picks = sorted(rng.sample(range(len(decisions)), min(per_game, len(decisions))))
    for k, i in enumerate(picks):
        seat, v, command = decisions[i]
        search_seed = bot_seed(seed, game, 100 + k)
        raw, played = _estimates(v, command, search_seed, iterations)
        raw2 = played2 = None
        if noise_every and (game * per_game + k) % noise_every == 0:
            raw2, played2 = _estimates(v, command, search_seed ^ 0x5A5A5A5A, iterations)
        yield Position(seats, game, i, seat, raw, played, share[seat], raw2, played2)


__all__ = ["Position", "game_positions"]
