"""The typed pieces of a move being built: where the cursor is, the flows
(a landscape power, the hand-limit discard) and how each landscape power is
built (``POWER_FLOWS``, one table instead of ids spread over modules), and
``explain``: the engine's reason a command is refused. Pure: no Textual.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Literal

from ... import engine
from ...engine import ActivateObjective, Collect, Command, Exchange, IllegalCommand, Play, PlayerView
from ...engine.cards import CARD_TYPE, CARD_VALUE, Card
from ...engine.rules_data import FOX_DISCARDS_PER_ACORN, KOI_MAX, LEAF_TYPES

# Hand card keys: 1–0, then letters no other table key uses (the 11th+ card).
HAND_KEYS = "1234567890bfnvw"
# Leaf types' lower-case letters that no table key uses by default, so they
# act as the capital does when no key map binds them (m c o k are memory,
# collect, objective and up: those columns take the capital letter).
LOWER_CASE_COLUMNS = frozenset("gz")
# Actions whose refusal is explained when their key is pressed.
GAME_ACTIONS = frozenset({
    "collect", "reveal", "play", "confirm", "ends", "objective", "exchange", "landscape",
    "discard", "end_turn", "undo",
})


Check = Callable[[Command], Sequence["engine.Event"]]
Judge = Callable[[Command], "str | None"]
"""The engine's reason for a command of one view (``engine.Explainer``)."""


def cannot_judge(error: ValueError) -> Judge:
    """A judge for a view no state completes: it raises ``error`` (a
    ``ValueError``) for every command, as ``engine.explain`` would."""
    def judge(command: Command) -> str | None:
        raise error
    return judge


def explain(view: PlayerView, command: Command, check: Check | None = None,
            judge: Judge | None = None) -> str | None:
    """Why the engine refuses ``command`` from ``view``'s seat (its sentence,
    with the RULES §), or None when it is legal: ``engine.explain``, or
    ``judge`` (that view's ``engine.Explainer``, built once) when given.

    A view the engine cannot complete into a state (``ValueError``: only a
    hand-built test table, never a dealt game) is judged by ``check`` (the
    table's ``check`` of a public command, which raises ``IllegalCommand``)
    when given, else let through: the table refuses it when it is sent.
    """
    try:
        return judge(command) if judge is not None else engine.explain(view, command)
    except ValueError:
        if check is None or not isinstance(command, PUBLIC_COMMANDS):
            return None
        try:
            check(command)
        except IllegalCommand as refused:
            return str(refused)
        return None


# Commands whose effects reveal nothing hidden, so a table may check them in advance.
PUBLIC_COMMANDS = (Play, Collect, ActivateObjective, Exchange)


def hand_order(hand: Sequence[Card]) -> list[Card]:
    """The hand as shown: by leaf type, then value."""
    return sorted(hand, key=lambda c: (LEAF_TYPES.index(CARD_TYPE[c]), CARD_VALUE[c], c))


class Zone(Enum):
    """Where the arrow-key cursor is."""

    HAND = "hand"
    DISPLAY = "display"


@dataclass(frozen=True)
class PowerFlow:
    """How a landscape power is built at the table (RULES §1.5).

    ``hand``: the power takes cards from the hand, selected before ⏎
    (``needs_hand``: at least one). ``table_card``: a card is then chosen
    from the display or the discard pile. ``objective``: an objective is
    chosen. ``hint``: what to select, from the number of cards selected.
    """

    hand: bool = False
    needs_hand: bool = False
    table_card: Literal["display", "discard"] | None = None
    objective: bool = False
    hint: Callable[[int], str] | None = None


# The landscapes whose use needs more than a pick from the chooser.
POWER_FLOWS: dict[str, PowerFlow] = {
    "koi": PowerFlow(hand=True, needs_hand=True,
                     hint=lambda n: f"select up to {KOI_MAX} cards to discard and redraw ({n} selected)"),
    "fox": PowerFlow(hand=True,
                     hint=lambda n: f"select cards to discard: {n} selected → +{n // FOX_DISCARDS_PER_ACORN}●"),
    "crane": PowerFlow(hand=True, needs_hand=True, hint=lambda n: "select 1 card to place on one of your piles"),
    "bell": PowerFlow(hand=True, needs_hand=True, table_card="display",
                      hint=lambda n: "select 1 card to swap with a display card (chosen next)"),
    "lantern": PowerFlow(table_card="display"),
    "terrace": PowerFlow(table_card="discard"),
    "moongate": PowerFlow(objective=True),
}
NO_FLOW = PowerFlow()


@dataclass(frozen=True)
class DiscardFlow:
    """Selecting the cards to discard down to the hand limit (RULES §5.1);
    ``then_end``: the turn ends once they are discarded."""

    then_end: bool = False


@dataclass(frozen=True)
class LandscapeFlow:
    """Selecting the hand cards of a landscape power (RULES §1.5)."""

    landscape: str

    @property
    def power(self) -> PowerFlow:
        """The power's flow (``POWER_FLOWS``)."""
        return POWER_FLOWS.get(self.landscape, NO_FLOW)


Flow = DiscardFlow | LandscapeFlow
