"""Test-only helpers for the engine tests: named cards, exact tables, checks.

``table(...)`` starts from a real game (``create_game`` + ``fold``) and then
sets up exact hands, rows, display, deck and discard on a ``clone()`` of the
state. Only this construction is test-only; every change after it goes
through ``decide``/``run``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

import pytest

from momiji_tui.engine import GameState, IllegalCommand, card_by_name, create_game, fold, run
from momiji_tui.engine.cards import CARD_KIND, CARD_NAME, CARD_TYPE, CARD_VALUE, Card, cards_of_types
from momiji_tui.engine.rules_data import LEAF_TYPES, torii_supply
from momiji_tui.engine.state import PLAY, Pile, TurnState

NAMES = ("Ada", "Basho", "Chiyo", "Dogen")


def c(name: str) -> Card:
    """One card by name: ``c("M0a")``."""
    return card_by_name(name)


def cs(names: str) -> tuple[Card, ...]:
    """Several cards by name: ``cs("M0a M1b")``."""
    return tuple(card_by_name(n) for n in names.split())


def names(cards: Iterable[Card]) -> list[str]:
    """Card names, for readable assertions."""
    return [CARD_NAME[x] for x in cards]


def new_game(seats: int = 2, seed: int = 1, mode: str = "starter") -> GameState:
    """The folded state of a fresh game."""
    return fold(create_game(list(NAMES[:seats]), seed=seed, landscape_mode=mode))


def table(
    seats: int = 2,
    *,
    seed: int = 1,
    types: Sequence[str] | None = None,
    first_seat: int = 0,
    current: int | None = None,
    hands: Mapping[int, str] | None = None,
    rows: Mapping[int, Sequence[str]] | None = None,
    display: str = "",
    discard: str = "",
    deck: str = "",
    deck_rest: bool = True,
    acorns: Mapping[int, int] | int = 2,
    panoramas: Mapping[int, Sequence[str]] | Sequence[str] | None = None,
    used: Mapping[int, Sequence[str]] | None = None,
    objectives: Sequence[str] | None = None,
    owners: Mapping[str, int] | None = None,
    torii_left: int | None = None,
) -> GameState:
    """An exact table in the play phase, built on a clone of a real game.

    ``types`` defaults to the first ``seats + 2`` leaf types (M G C O for two
    seats). ``hands``/``display``/``discard``/``deck`` are card names
    separated by spaces; ``rows[seat]`` is a list of piles left to right,
    each a string of card names bottom first (a pile topped by a 3 is closed).
    ``deck`` lists the top of the deck; with ``deck_rest`` every card not
    placed elsewhere follows it (in card order), else the deck is exactly
    ``deck`` and the remaining cards are out of the game. ``panoramas`` is
    one list for every seat or a dict per seat (default: the starter
    panorama). The torii supply defaults to players + 2 minus closed piles.
    """
    state = new_game(seats, seed).clone()
    state.types = tuple(types) if types is not None else LEAF_TYPES[: seats + 2]
    state.first_seat = first_seat
    state.current = first_seat if current is None else current
    state.phase = PLAY
    state.turn = TurnState()
    state.end_trigger = None
    state.round = 1
    placed: list[Card] = []

    def take(text: str) -> list[Card]:
        got = list(cs(text)) if text.strip() else []
        placed.extend(got)
        return got

    hands = hands or {}
    rows = rows or {}
    closed = 0
    for i, seat in enumerate(state.seats):
        seat.hand = take(hands.get(i, ""))
        seat.known = []
        seat.row = []
        for pile_text in rows.get(i, ()):
            cards = take(pile_text)
            assert len({CARD_TYPE[x] for x in cards}) == 1, pile_text
            pile = Pile(CARD_TYPE[cards[0]], cards, CARD_VALUE[cards[-1]] == 3)
            closed += pile.closed
            seat.row.append(pile)
        seat.acorns = acorns if isinstance(acorns, int) else acorns.get(i, 0)
        if panoramas is not None:
            pano = panoramas.get(i, seat.panorama) if isinstance(panoramas, Mapping) else panoramas
            seat.panorama = list(pano)
        seat.used = list((used or {}).get(i, ()))
        seat.turns = 0
    state.display = take(display)
    state.discard = take(discard)
    top = take(deck)
    assert len(placed) == len(set(placed)), "a card is placed twice"
    for x in placed:
        assert CARD_TYPE[x] in state.types, f"{CARD_NAME[x]} is not of a type in play"
    rest = [x for x in cards_of_types(state.types) if x not in set(placed)] if deck_rest else []
    state.deck = tuple(top + rest)
    state.deck_pos = 0
    if objectives is not None:
        state.objectives = tuple(objectives)
    state.owners = dict(owners or {})
    state.torii_left = torii_supply(seats) - closed if torii_left is None else torii_left
    return state


def play(state: GameState, *commands) -> tuple[GameState, list]:
    """Run the commands one after the other; the final state and all events."""
    events: list = []
    for command in commands:
        state, new = run(state, command)
        events += new
    return state, events


def rejected(state: GameState, command, match: str) -> IllegalCommand:
    """Assert ``command`` is illegal (message matching ``match``) and that
    ``state`` is unchanged (compared with a clone taken before)."""
    before = state.clone()
    with pytest.raises(IllegalCommand, match=match) as info:
        run(state, command)
    assert state == before
    message = str(info.value)
    assert len(message) > 15 and message.endswith("."), message  # a sentence a player can read
    return info.value


def row_of(state: GameState, seat: int) -> list[str]:
    """A seat's row as strings, left to right: ``["M0a M1b", "G0c"]``."""
    return [" ".join(names(p.cards)) for p in state.seats[seat].row]


def all_cards(state: GameState) -> list[Card]:
    """Every card in a zone: deck rest, display, discard, hands, piles."""
    out = list(state.deck[state.deck_pos:]) + list(state.display) + list(state.discard)
    for s in state.seats:
        out += s.hand
        for p in s.row:
            out += p.cards
    return out


def check_conservation(state: GameState) -> None:
    """RULES §1.1/§2.2: every card of the types in play is in exactly one zone."""
    cards = all_cards(state)
    assert Counter(cards) == Counter(cards_of_types(state.types)), "cards not conserved"
    for s in state.seats:
        assert not Counter(s.known) - Counter(s.hand), "a known card is not in its hand"


def _first_of_kinds() -> tuple[Card, ...]:
    """For every card, the first (lowest) card of its kind."""
    first: dict = {}
    for x in range(len(CARD_KIND)):
        first.setdefault(CARD_KIND[x], x)
    return tuple(first[CARD_KIND[x]] for x in range(len(CARD_KIND)))


# Built once: by_kind runs tens of thousands of times in tests/engine/test_fast_paths.py.
FIRST_OF_KIND = _first_of_kinds()


def by_kind(state: GameState) -> GameState:
    """``state`` with every card replaced by the first card of its kind (RULES
    §1.2: cards differing only by letter behave alike). Two commands are
    equivalent when their outcomes agree under this map."""
    s = _merged_but_checkpoint(state)
    if s.turn.checkpoint is not None:
        s.turn.checkpoint = by_kind(s.turn.checkpoint)
    return s


def _merged_but_checkpoint(state: GameState) -> GameState:
    """``by_kind``'s work on a clone of ``state``, its undo checkpoint left as it is."""
    first = FIRST_OF_KIND

    def m(cards):
        return sorted([first[x] for x in cards])

    s = state.clone()
    s.display = m(s.display)
    s.discard = m(s.discard)
    for seat in s.seats:
        seat.hand = m(seat.hand)
        seat.known = m(seat.known)
        for p in seat.row:
            p.cards = [first[x] for x in p.cards]
    return s


def by_kind_text(state: GameState, memo: dict[int, tuple[GameState, str]]) -> tuple[str, str]:
    """``repr(by_kind(state))`` as two parts: the state with its undo
    checkpoint set to None, and ``repr(by_kind(checkpoint))`` (``"None"``
    without one). Both are the same dataclass reprs, split at one field, so
    two states' parts are equal exactly when their ``repr(by_kind(...))``
    are. The commands of one state mostly share one checkpoint object: its
    part is worked out once per object, kept in ``memo`` (with the object,
    so that its id is not reused while the memo lives)."""
    s = _merged_but_checkpoint(state)
    checkpoint = s.turn.checkpoint
    if checkpoint is None:
        return repr(s), "None"
    hit = memo.get(id(checkpoint))
    if hit is None or hit[0] is not checkpoint:
        hit = memo[id(checkpoint)] = (checkpoint, repr(by_kind(checkpoint)))
    s.turn.checkpoint = None  # the clone's own TurnState: ``state`` keeps its checkpoint
    return repr(s), hit[1]


class Outcomes:
    """``outcome(command)``: the state after ``command`` on ``state`` with
    alike cards merged (legal.py's equivalence), as ``by_kind_text``. Run
    does not change ``state`` (tests/engine/test_fast_paths.py checks it), so
    each command is run once and its outcome kept, and the undo checkpoint
    the commands share is merged and written out once."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self._memo: dict = {}
        self._of: dict = {}

    def __call__(self, command) -> tuple[str, str]:
        if command not in self._of:
            self._of[command] = by_kind_text(run(self.state, command)[0], self._memo)
        return self._of[command]
