"""Refusals every ``decide`` handler shares: whose turn it is, which phase,
what the turn still allows, cards named from a hand (RULES §3, §5).

Each check raises ``IllegalCommand`` with a sentence a player can read and
changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import commands as cmd
from .cards import Card
from .errors import IllegalCommand
from .rules_data import HAND_LIMIT, OBJECTIVE_COST, OBJECTIVE_NAMES
from .state import ENDED, PLAY, GameState, SeatState

TURN_ENDING = (
    "You have discarded down to the hand limit: your turn is ending (RULES §5.1), so no main "
    "or free action can follow (RULES §3); end your turn."
)


def check_seat(state: GameState, seat: int) -> None:
    """``seat`` may act now: the game goes on and it is this seat's turn
    (RULES §3). Raises ``IllegalCommand`` otherwise."""
    if state.phase == ENDED:
        raise IllegalCommand("The game is over.")
    if not 0 <= seat < state.n_seats:
        raise IllegalCommand(f"There is no seat {seat}.")
    if state.current != seat:
        who = state.seats[state.current].name
        raise IllegalCommand(f"It is {who}'s turn, not yours (RULES §3).")


def check_turn_open(state: GameState, command: cmd.Command) -> None:
    """``command`` fits this moment of the turn (RULES §3–§5).

    Raises ``IllegalCommand`` during the draft (RULES §2.1); after a paid
    reveal for anything but the collect (RULES §4.1); and after the
    hand-limit discard (RULES §5.1) for anything but ending the turn. (A
    second discard is let through only when the hand is still over the
    limit, which only a game saved by an older version can show: it let a
    seat gain cards after its discard.)
    """
    if state.phase != PLAY:
        raise IllegalCommand("Finish the landscape draft first (RULES §2.1).")
    turn = state.turn
    if turn.revealed and not isinstance(command, cmd.Collect):
        raise IllegalCommand(
            "You revealed cards for a collect: choose a column to collect first (RULES §4.1)."
        )
    if turn.limit_discarded and not isinstance(command, cmd.EndTurn):
        over = len(state.seats[command.seat].hand) > HAND_LIMIT
        if not (over and isinstance(command, cmd.DiscardToLimit)):
            raise IllegalCommand(TURN_ENDING)


def check_main_open(state: GameState) -> None:
    """The main action is still to take (RULES §3); raises ``IllegalCommand``."""
    if state.turn.main_done:
        raise IllegalCommand("You have already taken your main action this turn (RULES §3).")


def check_hand_cards(seat: SeatState, cards: Sequence[Card], what: str = "play") -> None:
    """``cards`` are different cards, all in ``seat``'s hand; raises
    ``IllegalCommand`` otherwise (``what`` names the action in the message)."""
    if len(set(cards)) != len(cards):
        raise IllegalCommand("The same card is named twice.")
    for c in cards:
        if not isinstance(c, int) or c not in seat.hand:
            raise IllegalCommand(f"You cannot {what} a card that is not in your hand.")


def objective_cost(s: GameState) -> int:
    """What activating an objective costs now: 3 acorns, 2 with the Pagoda (RULES §4.3, §1.5)."""
    return s.rules.pagoda_objective_cost if s.turn.boost == "pagoda" else OBJECTIVE_COST


def check_objective(s: GameState, seat: int, objective: str | None, cost: int) -> str:
    """``seat`` may activate ``objective`` for ``cost`` acorns: it is revealed
    in this game (RULES §1.4), nobody owns it and the seat can pay (RULES
    §4.3). Returns the objective; raises ``IllegalCommand`` otherwise."""
    if objective not in s.objectives:
        name = OBJECTIVE_NAMES.get(objective or "", objective)
        raise IllegalCommand(f"{name!r} is not one of this game's revealed objectives (RULES §1.4).")
    if objective in s.owners:
        owner = s.seats[s.owners[objective]].name
        raise IllegalCommand(f"{OBJECTIVE_NAMES[objective]} is already activated by {owner} (RULES §4.3).")
    if s.seats[seat].acorns < cost:
        raise IllegalCommand(
            f"Activating an objective costs {cost} acorns; you have {s.seats[seat].acorns} (RULES §4.3)."
        )
    return objective
