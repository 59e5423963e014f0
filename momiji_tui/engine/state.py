"""The state of a game: the fold of its events (ARCHITECTURE "The engine").

Nothing but ``fold.apply`` changes a state; callers treat it as a value.
``clone`` is a cheap structural copy (lists of small ints and strings).
``fork`` is cheaper still, for the engine's own copies (``apply``,
``decide``, ``run``): the engine never changes a ``Pile`` in place but puts a
new one in the row, so forks share their piles.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .cards import CARD_TYPE, CARD_VALUE, Card
from .rules_data import CURRENT_RULES, LANDSCAPES, MIDDAY, HouseRules

if TYPE_CHECKING:
    from .events import SeatControlChanged

DRAFT, SETUP, PLAY, ENDED = "draft", "setup", "play", "ended"


@dataclass(slots=True)
class Pile:
    """One pile of a row: a leaf type's cards, bottom first (RULES §4.2).

    The engine treats a pile as a value: a card placed or a torii put on it
    gives the row a new ``Pile`` (so ``GameState.fork`` copies can share them).
    """

    leaf_type: str
    cards: list[Card]
    closed: bool = False

    @property
    def top(self) -> Card:
        """The top card (the last placed)."""
        return self.cards[-1]

    @property
    def top_value(self) -> int:
        """The value of the top card (RULES §7: it prices the pile)."""
        return CARD_VALUE[self.cards[-1]]

    def clone(self) -> Pile:
        """An independent copy."""
        return Pile(self.leaf_type, list(self.cards), self.closed)


@dataclass(slots=True)
class SeatState:
    """Everything one seat holds (RULES §1, §8).

    ``known`` lists the cards of ``hand`` every seat has seen enter it
    (collected from the display, taken from the discard pile, swapped in):
    RULES §8 makes them public.
    """

    name: str
    hand: list[Card] = field(default_factory=list)
    known: list[Card] = field(default_factory=list)
    row: list[Pile] = field(default_factory=list)
    acorns: int = 0
    panorama: list[str] = field(default_factory=list)
    used: list[str] = field(default_factory=list)
    turns: int = 0

    def pile_of(self, leaf_type: str) -> Pile | None:
        """This seat's pile of ``leaf_type``, or None (RULES §4.2: at most one)."""
        for pile in self.row:
            if pile.leaf_type == leaf_type:
                return pile
        return None

    def clone(self) -> SeatState:
        """An independent copy."""
        return SeatState(
            self.name, list(self.hand), list(self.known), [p.clone() for p in self.row],
            self.acorns, list(self.panorama), list(self.used), self.turns,
        )

    def fork(self) -> SeatState:
        """A copy sharing the piles (see ``GameState.fork``)."""
        return SeatState(
            self.name, self.hand[:], self.known[:], self.row[:],
            self.acorns, self.panorama[:], self.used[:], self.turns,
        )


@dataclass(slots=True)
class TurnState:
    """What the current seat has done this turn (RULES §3).

    ``checkpoint`` is the state an ``Undo`` returns to: the start of the turn,
    or the moment after the last hidden card was revealed (a paid reveal, a
    draw). ``since_checkpoint`` counts the events after it; while it is 0 the
    state is its own checkpoint and ``checkpoint`` is None (the snapshot is
    taken at the next change, see fold.py). Views never carry the checkpoint
    (it holds hidden cards).

    ``limit_discarded``: the seat has made its hand-limit discard, the first
    step of the end of its turn (RULES §5.1): only ending the turn follows.
    """

    main_done: bool = False
    revealed: bool = False
    exchanged: bool = False
    landscape: str | None = None
    stones_used: bool = False
    checkpoint: GameState | None = None
    since_checkpoint: int = 0
    limit_discarded: bool = False

    @property
    def boost(self) -> str | None:
        """The midday power boosting this turn's main action, if any (RULES §1.5)."""
        if self.landscape is not None and LANDSCAPES[self.landscape][0] == MIDDAY:
            return self.landscape
        return None

    def clone(self) -> TurnState:
        """An independent copy."""
        return TurnState(self.main_done, self.revealed, self.exchanged, self.landscape, self.stones_used,
                         self.checkpoint, self.since_checkpoint, self.limit_discarded)


@dataclass(slots=True)
class GameState:
    """A whole game (RULES §1–§7).

    ``deck[deck_pos:]`` are the cards still in the deck, top first.
    ``owners`` maps an activated objective to its owner seat.
    ``draft_offers``/``draft_pick`` follow the draft (RULES §2.1);
    ``draft_remaining`` is the current round's unpicked offer.
    ``seat_control[i]`` is the last ``SeatControlChanged`` of seat i (None,
    or ``()`` for all, when none was recorded: the save header's seats).
    ``hints[i]`` counts the ``HintShown`` events of seat i (``()``: none yet).
    """

    game_id: str
    seed: int | None
    types: tuple[str, ...]
    objectives: tuple[str, ...]
    first_seat: int
    seats: list[SeatState]
    deck: tuple[Card, ...]
    deck_pos: int = 0
    display: list[Card] = field(default_factory=list)
    discard: list[Card] = field(default_factory=list)
    owners: dict[str, int] = field(default_factory=dict)
    torii_left: int = 0
    phase: str = DRAFT
    current: int = 0
    turn: TurnState = field(default_factory=TurnState)
    landscape_mode: str = "starter"
    draft_offers: tuple[tuple[str, ...], ...] = ()
    draft_pick: int = 0
    draft_remaining: list[str] = field(default_factory=list)
    end_trigger: str | None = None
    round: int = 1
    seat_control: tuple[SeatControlChanged | None, ...] = field(default=(), repr=False)
    hints: tuple[int, ...] = field(default=(), repr=False)
    # The [house] values of the game's rules version (GameCreated.rules_version).
    rules: HouseRules = field(default=CURRENT_RULES, repr=False)

    @property
    def n_seats(self) -> int:
        """How many seats play (2–4)."""
        return len(self.seats)

    @property
    def deck_size(self) -> int:
        """Cards left in the deck."""
        return len(self.deck) - self.deck_pos

    @property
    def last_seat(self) -> int:
        """The seat just before the first seat: it ends each round (RULES §6)."""
        return (self.first_seat - 1) % len(self.seats)

    def column(self, leaf_type: str) -> list[Card]:
        """The display's cards of one type (RULES §2.2)."""
        return [c for c in self.display if CARD_TYPE[c] == leaf_type]

    def columns(self) -> list[str]:
        """The leaf types that have a column in the display, in type order."""
        present = {CARD_TYPE[c] for c in self.display}
        return [t for t in self.types if t in present]

    def clone(self) -> GameState:
        """An independent copy (the deck tuple and draft offers are shared)."""
        return self._copy([s.clone() for s in self.seats])

    def fork(self) -> GameState:
        """A copy for the engine to change with ``fold.apply_in_place``: like
        ``clone``, but the piles are shared, since the engine never changes a
        pile in place. Change a fork's piles yourself only on a ``clone``."""
        return self._copy([s.fork() for s in self.seats])

    def _copy(self, seats: list[SeatState]) -> GameState:
        return GameState(
            self.game_id, self.seed, self.types, self.objectives, self.first_seat,
            seats, self.deck, self.deck_pos,
            self.display[:], self.discard[:], self.owners.copy(), self.torii_left,
            self.phase, self.current, self.turn.clone(), self.landscape_mode,
            self.draft_offers, self.draft_pick, self.draft_remaining[:],
            self.end_trigger, self.round, self.seat_control, self.hints, self.rules,
        )


def drafter(n_seats: int, first_seat: int, pick: int) -> tuple[int, int]:
    """Who picks at draft pick number ``pick`` (0-based): ``(round, seat)``.

    RULES §2.1: round 1 in seat order from the first seat, round 2 in
    reverse order, round 3 in seat order again.
    """
    rnd, k = divmod(pick, n_seats)
    offset = k if rnd % 2 == 0 else n_seats - 1 - k
    return rnd, (first_seat + offset) % n_seats
