"""``decide``: validate a command against a state and say what happens.

``decide(state, command) -> list[Event]`` never changes ``state``. An illegal
command raises ``IllegalCommand`` with a sentence a player can read, citing
the RULES section it breaks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from . import commands as cmd
from . import events as ev
from .decision import Decision, emit_play
from .errors import IllegalCommand
from .fold import working_copy
from .legal import can_take_main_action
from .placement import Misplaced, acorn_pairs, placement, plan_placement, play_order, row_tops, stones_jump
from .powers import use_landscape
from .rules_data import (
    ACORN_PAIR_GAIN, DISPLAY_SIZE, EXCHANGE_DISCARD, EXCHANGE_GAIN,
    HAND_LIMIT, LEAF_NAMES, REVEAL_COST, REVEAL_COUNT, SAME_TYPE_MAX,
)
from .setup import setup_events
from .state import DRAFT, PLAY, GameState
from .turn_checks import check_hand_cards as _hand_cards
from .turn_checks import check_main_open, check_objective, objective_cost
from .turn_checks import check_seat as _check_seat
from .turn_checks import check_turn_open as _require_play

# Re-exported: the placement helpers lived here before placement.py.
__all__ = [
    "Misplaced", "acorn_pairs", "decide", "placement", "plan_placement", "play_order", "row_tops",
    "run", "run_in_place",
]


def decide(state: GameState, command: cmd.Command) -> list[ev.Event]:
    """The events that follow from ``command`` in ``state``.

    Raises ``IllegalCommand`` (and changes nothing) when the command breaks a
    rule, is not this seat's to give, or comes at the wrong time.
    """
    return _decided(state, command, in_place=False).events


def run(state: GameState, command: cmd.Command) -> tuple[GameState, list[ev.Event]]:
    """Decide and apply ``command``: the new state and the events.

    The scratch copy ``decide`` applied the events to is the new state, so
    the state is copied once. Raises ``IllegalCommand`` (state unchanged)
    when the command is illegal.
    """
    draft = _decided(state, command, in_place=False)
    return draft.state, draft.events


def run_in_place(state: GameState, command: cmd.Command) -> list[ev.Event]:
    """Decide ``command`` and apply its events to ``state`` itself, a state
    the caller owns (as with ``apply_in_place``; for simulations): no copy.

    Raises ``IllegalCommand`` and leaves ``state`` unchanged when the command
    is illegal: every rule is checked before the first event is applied.
    """
    return _decided(state, command, in_place=True).events


def _decided(state: GameState, command: cmd.Command, *, in_place: bool) -> Decision:
    handler = _HANDLERS.get(type(command))
    if handler is None:
        raise IllegalCommand(f"Unknown command {command!r}.")
    _check_seat(state, command.seat)
    draft = Decision(state if in_place else working_copy(state))
    try:
        handler(draft, command)
    except IllegalCommand:
        if draft.events:  # pragma: no cover - a handler must check everything first
            raise AssertionError(f"{command!r} was refused after it changed the state") from None
        raise
    return draft


# ------------------------------------------------------------------ handlers


def _draft_pick(d: Decision, c: cmd.DraftPick) -> None:
    s = d.state
    if s.phase != DRAFT:
        raise IllegalCommand("The landscape draft is over.")
    if c.landscape not in s.draft_remaining:
        raise IllegalCommand(f"{c.landscape!r} is not in this round's draft offer (RULES §2.1).")
    d.emit(ev.LandscapeDrafted(c.seat, c.landscape))
    if d.state.phase != DRAFT:
        for e in setup_events(d.state):
            d.emit(e)


def _reveal(d: Decision, c: cmd.Reveal) -> None:
    s = d.state
    _require_play(s, c)
    check_main_open(s)
    if s.turn.revealed:
        raise IllegalCommand("You may reveal only once per collect (RULES §4.1).")
    if s.deck_size == 0:
        raise IllegalCommand("The deck is empty: there is nothing to reveal (RULES §4.1).")
    cost = 0 if s.turn.boost == "waterfall" else REVEAL_COST
    if s.seats[c.seat].acorns < cost:
        raise IllegalCommand(f"Revealing costs {cost} acorn; you have none (RULES §4.1).")
    if cost:
        d.emit(ev.AcornsPaid(c.seat, cost, "reveal"))
    d.emit(ev.DisplayRevealed(s.deck[s.deck_pos:s.deck_pos + REVEAL_COUNT], "collect"))


def _collect(d: Decision, c: cmd.Collect) -> None:
    s = d.state
    _require_play(s, c)
    check_main_open(s)
    columns = s.columns()
    if not columns:
        raise IllegalCommand("The display is empty: pay to reveal cards first (RULES §4.1).")
    want = min(s.rules.teahouse_columns, len(columns)) if s.turn.boost == "teahouse" else 1
    if len(c.types) != want or len(set(c.types)) != len(c.types):
        if want == 1:
            raise IllegalCommand("Collect exactly one column (RULES §4.1).")
        raise IllegalCommand(f"With the Tea House, collect {want} different columns (RULES §1.5).")
    for t in c.types:
        if t not in columns:
            raise IllegalCommand(f"There is no {LEAF_NAMES.get(t, t)} column in the display (RULES §4.1).")
    for t in c.types:
        d.emit(ev.ColumnCollected(c.seat, t, tuple(s.column(t))))


def _play(d: Decision, c: cmd.Play) -> None:
    s = d.state
    _require_play(s, c)
    check_main_open(s)
    seat = s.seats[c.seat]
    _hand_cards(seat, c.cards)
    mode, ordered = play_order(c.cards)
    boost = s.turn.boost
    if mode == "same":
        limit = s.rules.bridge_same_type_max if boost == "bridge" else SAME_TYPE_MAX
        if len(ordered) > limit:
            raise IllegalCommand(
                f"A same-type play places at most {limit} cards (RULES §4.2"
                + (", Red Bridge §1.5)." if limit > SAME_TYPE_MAX else ").")
            )
    sides = plan_placement(seat, ordered, c.new_pile_sides, jump_step=stones_jump(s))
    emit_play(d, c.seat, ordered, sides, mode)
    if mode == "mixed" or boost == "moss":
        pairs = acorn_pairs(d.state.seats[c.seat])
        if pairs:
            gain = s.rules.moss_pair_gain if boost == "moss" else ACORN_PAIR_GAIN
            d.emit(ev.AcornsGained(c.seat, pairs * gain, "acorn pairs"))


def _activate(d: Decision, c: cmd.ActivateObjective) -> None:
    s = d.state
    _require_play(s, c)
    check_main_open(s)
    cost = objective_cost(s)
    check_objective(s, c.seat, c.objective, cost)
    d.emit(ev.AcornsPaid(c.seat, cost, "objective"))
    d.emit(ev.ObjectiveActivated(c.seat, c.objective))


def _pass(d: Decision, c: cmd.Pass) -> None:
    s = d.state
    _require_play(s, c)
    check_main_open(s)
    if can_take_main_action(s, c.seat):
        raise IllegalCommand("You can still take a main action, so you cannot pass (RULES §3).")
    d.emit(ev.MainActionPassed(c.seat))


def _exchange(d: Decision, c: cmd.Exchange) -> None:
    s = d.state
    _require_play(s, c)
    if s.turn.exchanged:
        raise IllegalCommand("You may exchange only once per turn (RULES §3, §4.4).")
    if len(c.cards) != EXCHANGE_DISCARD:
        raise IllegalCommand(f"An exchange discards exactly {EXCHANGE_DISCARD} cards (RULES §4.4).")
    _hand_cards(s.seats[c.seat], c.cards, "discard")
    d.emit(ev.CardsDiscarded(c.seat, tuple(c.cards), "exchange"))
    d.emit(ev.AcornsGained(c.seat, EXCHANGE_GAIN, "exchange"))


def _discard_to_limit(d: Decision, c: cmd.DiscardToLimit) -> None:
    s = d.state
    _require_play(s, c)
    seat = s.seats[c.seat]
    if not s.turn.main_done:
        raise IllegalCommand("The hand limit applies at the end of your turn (RULES §5.1).")
    excess = len(seat.hand) - HAND_LIMIT
    if excess <= 0:
        raise IllegalCommand(f"You hold {len(seat.hand)} cards: no need to discard (RULES §5.1).")
    if len(c.cards) != excess:
        raise IllegalCommand(f"Discard exactly {excess} card(s) to get down to {HAND_LIMIT} (RULES §5.1).")
    _hand_cards(seat, c.cards, "discard")
    d.emit(ev.CardsDiscarded(c.seat, tuple(c.cards), "hand limit"))


def _end_turn(d: Decision, c: cmd.EndTurn) -> None:
    s = d.state
    _require_play(s, c)
    if not s.turn.main_done:
        raise IllegalCommand(
            "Take your main action first: collect, play or activate an objective "
            "(or pass if you cannot) (RULES §3)."
        )
    held = len(s.seats[c.seat].hand)
    if held > HAND_LIMIT:
        raise IllegalCommand(f"You hold {held} cards: discard down to {HAND_LIMIT} first (RULES §5.1).")
    need = DISPLAY_SIZE - len(s.display)
    if need > 0 and s.deck_size:
        d.emit(ev.DisplayRevealed(s.deck[s.deck_pos:s.deck_pos + need], "top-up"))
    if s.end_trigger is None:
        if s.deck_size == 0:
            d.emit(ev.EndTriggered(c.seat, "deck"))
        elif s.torii_left <= 0:
            d.emit(ev.EndTriggered(c.seat, "torii"))
    d.emit(ev.TurnEnded(c.seat))
    if s.end_trigger is not None and c.seat == s.last_seat:
        d.emit(ev.GameEnded())


def _undo(d: Decision, c: cmd.Undo) -> None:
    s = d.state
    if s.phase != PLAY:
        raise IllegalCommand("There is nothing to undo during the draft.")
    if s.turn.checkpoint is None or s.turn.since_checkpoint == 0:
        raise IllegalCommand(
            "Nothing to undo: your turn has just begun, or a hidden card was revealed since "
            "your last action (a reveal or a draw cannot be taken back)."
        )
    d.emit(ev.ActionsUndone(c.seat, s.turn.since_checkpoint))


C = TypeVar("C", bound=cmd.Command)


def _handler(kind: type[C], handle: Callable[[Decision, C], None]) -> tuple[type[C], Callable[[Decision, C], None]]:
    """One entry of ``_HANDLERS``: mypy checks that ``handle`` takes ``kind``."""
    return kind, handle


_HANDLERS: dict[type[Any], Callable[[Decision, Any], None]] = dict([
    _handler(cmd.DraftPick, _draft_pick),
    _handler(cmd.Reveal, _reveal),
    _handler(cmd.Collect, _collect),
    _handler(cmd.Play, _play),
    _handler(cmd.ActivateObjective, _activate),
    _handler(cmd.Pass, _pass),
    _handler(cmd.Exchange, _exchange),
    _handler(cmd.UseLandscape, use_landscape),
    _handler(cmd.DiscardToLimit, _discard_to_limit),
    _handler(cmd.EndTurn, _end_turn),
    _handler(cmd.Undo, _undo),
])
