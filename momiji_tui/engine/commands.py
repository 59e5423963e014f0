"""Commands: what a seat asks for (ARCHITECTURE "The engine").

Commands are frozen dataclasses and carry the asking ``seat``. They are
validated by ``decide``; an illegal one raises ``IllegalCommand``.
Cards are ``int`` ids (see ``cards.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card

LEFT, RIGHT = "left", "right"


@dataclass(frozen=True, slots=True)
class DraftPick:
    """Pick one landscape of the current draft offer (RULES §2.1)."""

    seat: int
    landscape: str


@dataclass(frozen=True, slots=True)
class Reveal:
    """Start a collect by paying to reveal up to 4 deck cards (RULES §4.1).

    After it the seat's main action must be a ``Collect``.
    """

    seat: int


@dataclass(frozen=True, slots=True)
class Collect:
    """Take every card of one column (two with Tea House) (RULES §4.1, §1.5)."""

    seat: int
    types: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Play:
    """Place cards from hand into the row (RULES §4.2).

    ``cards``: 1–2 (3 with Red Bridge) cards of one type, or 2+ cards of
    different types. ``new_pile_sides``: one of ``"left"``/``"right"`` for
    each pile the play starts, in the order of ``cards``.
    """

    seat: int
    cards: tuple[Card, ...]
    new_pile_sides: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ActivateObjective:
    """Pay 3 acorns (2 with Pagoda) to own an objective (RULES §4.3)."""

    seat: int
    objective: str


@dataclass(frozen=True, slots=True)
class Pass:
    """Take no main action; legal only when none is possible (RULES §3)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Exchange:
    """Free action: discard 2 cards from hand, gain 1 acorn (RULES §4.4)."""

    seat: int
    cards: tuple[Card, Card]


@dataclass(frozen=True, slots=True)
class UseLandscape:
    """Free action: pay 1 acorn and use a landscape power (RULES §4.5, §1.5).

    Arguments by power: ``hand_cards`` for koi, bell, crane, fox (cards from
    your hand); ``card`` for lantern, bell (a display card) and terrace (a
    discard-pile card); ``objective`` for moongate.
    """

    seat: int
    landscape: str
    hand_cards: tuple[Card, ...] = ()
    card: Card | None = None
    objective: str | None = None


@dataclass(frozen=True, slots=True)
class DiscardToLimit:
    """Discard down to the hand limit before ending the turn (RULES §5.1)."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class EndTurn:
    """End the turn: top up the display, check the end (RULES §5, §6)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back this turn's actions since the turn began or since something
    hidden was last revealed (Board Game Arena's undo policy; not a rule of
    the game, so ``legal_commands`` does not list it)."""

    seat: int


Command = (
    DraftPick | Reveal | Collect | Play | ActivateObjective | Pass | Exchange
    | UseLandscape | DiscardToLimit | EndTurn | Undo
)
MAIN_ACTIONS = (Reveal, Collect, Play, ActivateObjective, Pass)
