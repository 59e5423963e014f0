"""Fast move choice for simulations: a random legal-move sampler and light
greedy policies, all without listing every legal command (ARCHITECTURE "The
engine": a way to pick a random legal move without listing every mixed play).

Each builds one command directly from the state of the seat to move. Every
command they return is accepted by ``decide`` (tests/bots/test_playout.py
checks this over many states); ``step`` applies it.

The bots import them from here; they live by concept in
``playout_moves`` (what a row and hand allow; commands built from a choice),
``playout_sampler`` (``random_command``), ``playout_policy``
(``policy_command``, ``greedy_policy_command``) and ``playout_prefilter``
(``prefilter``).
"""

from __future__ import annotations

from ..engine import run
from ..engine.commands import Command
from ..engine.state import GameState
from .playout_moves import keep_value
from .playout_policy import greedy_policy_command, policy_command
from .playout_prefilter import prefilter
from .playout_sampler import random_command

__all__ = ["greedy_policy_command", "keep_value", "policy_command", "prefilter", "random_command", "step"]


def step(state: GameState, command: Command) -> GameState:
    """The state after ``command`` (``engine.run``: one copy; ``state`` is
    left unchanged). Raises ``IllegalCommand`` when it is illegal."""
    return run(state, command)[0]
