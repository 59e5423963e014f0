"""What every bot shares: the ``Bot`` protocol and decision helpers.

A bot sees only a ``PlayerView`` (RULES §8), never the ``GameState``. To
list its own legal commands it determinizes the view (``determinize`` deals
the cards it cannot see at random) and asks ``legal_commands`` for its seat:
the commands of the seat to move never depend on hidden cards.

Decisions are a pure function of ``(view, seed)``: each decision draws from
its own ``random.Random`` seeded by the bot's seed and a stable digest of the
view (its game id left out), so the same view and seed give the same
command, whatever was asked before (and whatever the true state behind the
view is), and the same seed and options give the same game.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
from typing import Protocol, runtime_checkable

from ..engine import Command, GameState, PlayerView, determinize, legal_commands


@runtime_checkable
class Bot(Protocol):
    """A player that sees only its ``PlayerView``."""

    name: str

    def choose(self, view: PlayerView) -> Command:
        """One legal command for ``view.seat``, which must be the seat to move."""
        ...


def view_digest(view: PlayerView) -> int:
    """A stable 64-bit digest of everything in ``view`` but its game id
    (independent of ``PYTHONHASHSEED``: it hashes the dataclass ``repr``,
    which holds only ints, strings, tuples and None).

    The game id is random (``store.new_game_id``): with it, two games created
    with the same seed and options would part as soon as a bot moved.
    """
    same_for_every_id = dataclasses.replace(view, game_id="")
    return int.from_bytes(hashlib.blake2b(repr(same_for_every_id).encode(), digest_size=8).digest(), "big")


def decision_rng(view: PlayerView, seed: int, salt: str = "") -> random.Random:
    """The random generator for one decision: seeded by the bot seed, the
    view and ``salt`` only (never by the game's seed or hidden state)."""
    h = hashlib.blake2b(f"{seed}|{salt}|".encode(), digest_size=8)
    h.update(view_digest(view).to_bytes(8, "big"))
    return random.Random(int.from_bytes(h.digest(), "big"))


def check_view(view: PlayerView) -> int:
    """The seat the bot plays; raises ``ValueError`` when it is not to move."""
    if view.seat is None:
        raise ValueError("a bot needs a seat's view, not a spectator's")
    if view.phase not in ("draft", "play"):
        raise ValueError(f"nothing to decide in phase {view.phase!r}")
    if view.current != view.seat:
        raise ValueError(f"it is seat {view.current}'s turn, not seat {view.seat}'s")
    return view.seat


def world_and_legal(view: PlayerView, rng: random.Random) -> tuple[GameState, list[Command]]:
    """A determinized world for ``view`` and the seat's legal commands in it
    (identical in every world: they depend only on what the seat sees)."""
    seat = check_view(view)
    world = determinize(view, rng)
    return world, legal_commands(world, seat)
