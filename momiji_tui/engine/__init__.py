"""The Momiji rules engine: pure Python, event-sourced, no I/O (ARCHITECTURE "The engine").

    events = create_game(["Ada", "Bot"], seed=1)      # GameCreated + setup
    state = fold(events)                               # the fold of the events
    for command in legal_commands(state, state.current): ...
    new_events = decide(state, command)                # or IllegalCommand
    state = apply(state, new_events[0]) ...            # the only way state changes
    state, new_events = run(state, command)            # decide + apply, one copy
    run_in_place(own_state, command)                   # the same on a state you own
    view(state, seat)                                  # what a seat may know
    explain(view(state, seat), command)                # None, or why decide refuses it
    Explainer(view(state, seat))(command)              # the same, one state for many commands

A random legal command without listing them: ``engine.sample.sample_command``.
"""

from __future__ import annotations

from . import commands, events
from .cards import CARD_NAME, CARD_TYPE, CARD_VALUE, Card, card_by_name, describe_card
from .commands import (
    ActivateObjective, Collect, Command, DiscardToLimit, DraftPick, EndTurn, Exchange, Pass,
    Play, Reveal, Undo, UseLandscape,
)
from .decide import decide, run, run_in_place
from .errors import IllegalCommand
from .events import Event, from_dict, to_dict
from .explain import Explainer, explain
from .fold import apply, apply_in_place, fold
from .legal import can_take_main_action, legal_commands
from .scoring import ScoreSheet, score
from .setup import create_game
from .state import GameState
from .view import PlayerView, determinize, view

__all__ = [
    "ActivateObjective", "CARD_NAME", "CARD_TYPE", "CARD_VALUE", "Card", "Collect", "Command",
    "DiscardToLimit", "DraftPick", "EndTurn", "Event", "Exchange", "Explainer", "GameState", "IllegalCommand",
    "Pass", "Play", "PlayerView", "Reveal", "ScoreSheet", "Undo", "UseLandscape", "apply", "apply_in_place",
    "can_take_main_action", "card_by_name", "commands", "create_game", "decide", "describe_card",
    "determinize", "events", "explain", "fold", "from_dict", "legal_commands", "run", "run_in_place", "score",
    "to_dict", "view",
]
