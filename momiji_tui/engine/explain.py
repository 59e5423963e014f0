"""``explain``: why a seat's command is refused, from what the seat may see.

The UI asks it while a move is being built, holding only the seat's
``PlayerView`` (RULES §8). The sentence is the one ``decide`` gives: the
view is turned into a full state (``view.determinize``, with a fixed seed)
and ``decide`` runs on it, so every rule has one wording, where ``decide``
checks it (decide.py, turn_checks.py, placement.py, powers.py).

Hidden cards never decide whether a seat's own command is legal: every check
reads the seat's own hand, the public table (display, discard, rows, acorns,
objectives, sizes of hands and deck) or the turn. One piece of the real state
is missing from a view and does matter: the undo checkpoint (it holds hidden
cards). In the play phase a real state has one exactly when
``turn.since_checkpoint > 0`` (fold.py), so the state built here gets a
stand-in then.

``Explainer(view)`` answers for many commands of one view: it builds that
state once (the table asks why each key that does not apply is
refused, ~8 commands per view, and each ``explain`` call built a state).
``decide`` never changes the state it is given, so one state serves all.
"""

from __future__ import annotations

import random

from . import commands as cmd
from .decide import decide
from .errors import IllegalCommand
from .state import PLAY
from .view import PlayerView, determinize

_SEED = 0  # any fixed seed: the hidden cards it deals never change the answer


class Explainer:
    """``explain`` for one view and many commands: the view is turned into a
    state once (``determinize`` with the fixed seed), and each command is
    judged on it by ``decide``.

    Raises ``ValueError`` (on creation) when ``view`` is a spectator's or
    inconsistent (see ``determinize``), and (on a call) when the command is
    for another seat than the view's."""

    def __init__(self, view: PlayerView) -> None:
        if view.seat is None:
            raise ValueError("a spectator's view cannot judge a command: it shows no hand")
        self.seat: int = view.seat
        state = determinize(view, random.Random(_SEED))
        turn = state.turn
        if state.phase == PLAY and turn.since_checkpoint > 0 and turn.checkpoint is None:
            # A stand-in for the undo checkpoint the view leaves out: Undo is
            # legal whenever one exists; what it would restore is not looked at.
            turn.checkpoint = state.fork()
        self._state = state

    def __call__(self, command: cmd.Command) -> str | None:
        """Why ``command`` is refused now (``decide``'s sentence, citing its
        RULES §), or None when it is legal; see ``explain``."""
        if command.seat != self.seat:
            raise ValueError(f"a command of seat {command.seat} cannot be judged from seat {self.seat}'s view")
        try:
            decide(self._state, command)
        except IllegalCommand as refused:
            return str(refused)
        return None


def explain(view: PlayerView, command: cmd.Command) -> str | None:
    """Why ``command`` is refused now, as ``decide`` says it, or None when it is legal.

    ``view`` is the commanding seat's own view (``view(state, seat)``) and
    ``command.seat`` that seat. Returns ``str(IllegalCommand)`` exactly as
    ``decide(state, command)`` would raise it on the real state (each
    sentence cites the RULES section it applies: §1.5 landscapes, §2.1
    draft, §3 turn, §4.1–§4.5 actions, §5.1 hand limit), or None when
    ``decide`` would accept the command. ``view`` is not changed.

    Raises ``ValueError`` when ``view`` is a spectator's (``seat`` None) or
    ``command`` is for another seat than the view's: another seat's hand is
    hidden from this view, so its commands cannot be judged from it; and when
    the view is inconsistent (see ``determinize``).
    """
    if view.seat is None:
        raise ValueError("a spectator's view cannot judge a command: it shows no hand")
    if command.seat != view.seat:
        raise ValueError(f"a command of seat {command.seat} cannot be judged from seat {view.seat}'s view")
    return Explainer(view)(command)
