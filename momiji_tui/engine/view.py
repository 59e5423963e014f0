"""Player views: what one seat may know (RULES §8, ARCHITECTURE "The engine").

Bots, the UI, every SSH client and the move log get a ``PlayerView``, never
the ``GameState``. ``determinize`` turns a view back into a full state by
dealing the cards the viewer has not seen at random; it is how bots search.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from .cards import Card, cards_of_types
from .events import SeatControlChanged
from .rules_data import CURRENT_RULES, LANDSCAPES, PARTS, HouseRules, draft_offer_size
from .state import DRAFT, GameState, Pile, SeatState, TurnState


@dataclass(frozen=True, slots=True)
class PileView:
    """A pile as everyone sees it (RULES §8: played cards are public)."""

    leaf_type: str
    cards: tuple[Card, ...]
    closed: bool


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat as the viewer sees it.

    ``hand`` is the full hand for the viewer's own seat (and every seat once
    the game is over), else None. ``known`` are cards of that hand every
    seat has seen enter it (RULES §8).
    """

    name: str
    hand: tuple[Card, ...] | None
    hand_size: int
    known: tuple[Card, ...]
    row: tuple[PileView, ...]
    acorns: int
    panorama: tuple[str, ...]
    used: tuple[str, ...]
    turns: int


@dataclass(frozen=True, slots=True)
class PlayerView:
    """Everything ``seat`` may know of the game (RULES §8). ``seat`` is None
    for a spectator, who sees no hand."""

    seat: int | None
    game_id: str
    phase: str
    current: int
    first_seat: int
    types: tuple[str, ...]
    objectives: tuple[str, ...]
    owners: tuple[tuple[str, int], ...]
    torii_left: int
    deck_size: int
    display: tuple[Card, ...]
    discard: tuple[Card, ...]
    seats: tuple[SeatView, ...]
    turn: TurnState
    landscape_mode: str
    draft_offers: tuple[tuple[str, ...], ...]
    draft_pick: int
    draft_remaining: tuple[str, ...]
    end_trigger: str | None
    round: int
    # Who controls each seat (``GameState.seat_control``; ``()``: as set up).
    # Out of the repr: bots seed each decision from the view's repr
    # (``bots.base.view_digest``), and no bot may play differently for it.
    seat_control: tuple[SeatControlChanged | None, ...] = field(default=(), repr=False)
    # Hints shown to each seat (``GameState.hints``; public): out of
    # the repr for the same reason.
    hints: tuple[int, ...] = field(default=(), repr=False)
    # The game's rules version (``GameState.rules``): public, and out of the
    # repr for the same reason.
    rules: HouseRules = field(default=CURRENT_RULES, repr=False)

    @property
    def me(self) -> SeatView | None:
        """The viewer's own seat, or None for a spectator."""
        return None if self.seat is None else self.seats[self.seat]

    def owner_of(self, objective: str) -> int | None:
        """The seat owning ``objective``, or None."""
        return dict(self.owners).get(objective)


def view(state: GameState, seat: int | None) -> PlayerView:
    """What ``seat`` may see of ``state`` (RULES §8). At the end of the game
    every hand is shown. During the draft, ``draft_offers`` holds only the
    offers revealed so far (RULES §2.1: each round reveals its own)."""
    ended = state.phase == "ended"
    offers = state.draft_offers
    if state.phase == DRAFT:
        offers = offers[:state.draft_pick // state.n_seats + 1]
    seats = tuple(
        SeatView(
            name=s.name,
            hand=tuple(s.hand) if (i == seat or ended) else None,
            hand_size=len(s.hand),
            known=tuple(s.known),
            row=tuple(PileView(p.leaf_type, tuple(p.cards), p.closed) for p in s.row),
            acorns=s.acorns,
            panorama=tuple(s.panorama),
            used=tuple(s.used),
            turns=s.turns,
        )
        for i, s in enumerate(state.seats)
    )
    return PlayerView(
        seat=seat, game_id=state.game_id, phase=state.phase, current=state.current,
        first_seat=state.first_seat, types=state.types, objectives=state.objectives,
        owners=tuple(state.owners.items()), torii_left=state.torii_left,
        deck_size=state.deck_size, display=tuple(state.display), discard=tuple(state.discard),
        seats=seats, turn=_public_turn(state), landscape_mode=state.landscape_mode,
        draft_offers=offers, draft_pick=state.draft_pick,
        draft_remaining=tuple(state.draft_remaining), end_trigger=state.end_trigger,
        round=state.round, seat_control=state.seat_control, hints=state.hints, rules=state.rules,
    )


def _public_turn(state: GameState) -> TurnState:
    """The turn as a seat sees it: without the undo checkpoint (it holds hidden cards)."""
    turn = state.turn.clone()
    turn.checkpoint = None
    return turn


def unseen_cards(v: PlayerView) -> list[Card]:
    """Cards the viewer cannot place: in the deck or unknown in other hands."""
    seen: set[Card] = set(v.display) | set(v.discard)
    for _i, s in enumerate(v.seats):
        for p in s.row:
            seen.update(p.cards)
        seen.update(s.hand if s.hand is not None else s.known)
    return [c for c in cards_of_types(v.types) if c not in seen]


def determinize(v: PlayerView, rng: random.Random) -> GameState:
    """A full state consistent with view ``v``: the unseen cards dealt at
    random to the deck and to the unknown part of other hands.

    Every public fact is kept: known hand cards stay in their hand, hand
    sizes and deck size match. During the draft, the offers of rounds not yet
    revealed are drawn at random too. Raises ``ValueError`` if the view is
    inconsistent (more unknown slots than unseen cards).
    """
    pool = unseen_cards(v)
    rng.shuffle(pool)
    offers = v.draft_offers
    if v.phase == DRAFT and len(offers) < len(PARTS):
        offers = offers + tuple(
            tuple(rng.sample([k for k, x in LANDSCAPES.items() if x[0] == part], draft_offer_size(len(v.seats))))
            for part in PARTS[len(offers):]
        )
    need = v.deck_size + sum(s.hand_size - len(s.known) for s in v.seats if s.hand is None)
    if need != len(pool):
        raise ValueError(f"view needs {need} hidden cards but {len(pool)} are unseen")
    seats = []
    pos = 0
    for s in v.seats:
        if s.hand is not None:
            hand = list(s.hand)
        else:
            k = s.hand_size - len(s.known)
            hand = list(s.known) + pool[pos:pos + k]
            pos += k
        seats.append(SeatState(
            s.name, hand, list(s.known), [Pile(p.leaf_type, list(p.cards), p.closed) for p in s.row],
            s.acorns, list(s.panorama), list(s.used), s.turns,
        ))
    deck_rest = tuple(pool[pos:])
    return GameState(
        game_id=v.game_id, seed=None, types=v.types, objectives=v.objectives,
        first_seat=v.first_seat, seats=seats, deck=deck_rest, deck_pos=0,
        display=list(v.display), discard=list(v.discard), owners=dict(v.owners),
        torii_left=v.torii_left, phase=v.phase, current=v.current, turn=v.turn.clone(),
        landscape_mode=v.landscape_mode, draft_offers=offers, draft_pick=v.draft_pick,
        draft_remaining=list(v.draft_remaining), end_trigger=v.end_trigger, round=v.round, hints=v.hints,
        rules=v.rules,
    )
