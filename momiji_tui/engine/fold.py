"""``apply`` and ``fold``: the only way a state changes (ARCHITECTURE "The engine").

``apply(state, event)`` returns a new state and leaves ``state`` as it was.
``apply_in_place`` is the same change made to a state the caller owns (bots'
simulations and ``decide`` use it on their own copies).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from . import events as ev
from .cards import CARD_TYPE, CARD_VALUE
from .rules_data import MAX_VALUE, STARTER_PANORAMA, rules_for, torii_supply
from .state import DRAFT, ENDED, PLAY, SETUP, GameState, Pile, SeatState, TurnState, drafter


def new_state(created: ev.GameCreated) -> GameState:
    """The state right after ``GameCreated`` (RULES §2 steps 1–4)."""
    n = len(created.seat_names)
    state = GameState(
        game_id=created.game_id,
        seed=created.seed,
        types=created.types,
        objectives=created.objectives,
        first_seat=created.first_seat,
        seats=[SeatState(name) for name in created.seat_names],
        deck=created.deck,
        torii_left=torii_supply(n),
        phase=DRAFT,
        current=created.first_seat,
        landscape_mode=created.landscape_mode,
        draft_offers=created.draft_offers,
        rules=rules_for(created.rules_version),
    )
    if created.landscape_mode == "starter":
        for seat in state.seats:
            seat.panorama = list(STARTER_PANORAMA)
        state.phase = SETUP
    else:
        state.draft_remaining = list(created.draft_offers[0])
    return state


def _remove(hand: list[int], known: list[int], cards: Iterable[int]) -> None:
    for c in cards:
        hand.remove(c)
        if c in known:
            known.remove(c)


def _draw(state: GameState, cards: tuple[int, ...]) -> None:
    n = len(cards)
    if state.deck[state.deck_pos:state.deck_pos + n] != cards:
        raise ValueError("event draws cards that are not on top of the deck")
    state.deck_pos += n


def apply_in_place(state: GameState, event: ev.Event, *, undo_checkpoint: bool = True) -> None:
    """Change ``state`` by ``event``. Raises ``ValueError`` on an event that
    cannot follow this state (a damaged log), leaving ``state`` undefined.
    ``undo_checkpoint=False``: take no undo checkpoint (below; ``fold``)."""
    if isinstance(event, ev.SeatControlChanged):  # who plays a seat: outside the rules and the undo
        _seat_control(state, event)
        return
    if isinstance(event, ev.HintShown):  # a hint shown: outside the rules and the undo
        _hint_shown(state, event)
        return
    t = type(event)
    turn = state.turn
    if undo_checkpoint and turn.since_checkpoint == 0 and state.phase == PLAY:  # at the undo checkpoint (below)
        if not _undoable(event):
            turn.checkpoint = None
        elif turn.checkpoint is None:
            turn.checkpoint = state.fork()  # the first change since: keep the state before it
    handler = _APPLY.get(t)
    if handler is None:  # pragma: no cover - every event type has a handler
        raise ValueError(f"unknown event {event!r}")
    handler(state, event)
    if state.phase == PLAY and t not in _OWN_CHECKPOINT:
        if t in _CHECKPOINT_EVENTS or (isinstance(event, ev.DisplayRevealed) and event.reason == "collect"):
            state.turn.checkpoint = None  # the state is its own checkpoint (see the note below)
            state.turn.since_checkpoint = 0
        else:
            state.turn.since_checkpoint += 1


# Undo checkpoints. After these events nothing earlier in the turn can be
# taken back: a new turn began, or a hidden card was revealed
# (DisplayRevealed for a collect too); the state right after one is the
# turn's checkpoint. It is kept lazily: in the play phase,
# ``since_checkpoint == 0`` means "this state is the checkpoint" and
# ``checkpoint`` is None; the snapshot is taken just before the next change
# that an Undo would take back. ``working_copy`` saves even that copy: its
# copy holds the unchanged original as the snapshot in waiting (dropped
# again if the next event is not such a change).
_CHECKPOINT_EVENTS: frozenset[type[ev.Event]] = frozenset({ev.TurnEnded, ev.PlayStarted, ev.CardsDrawn})
# An undo puts back the checkpoint state, with its own count.
_OWN_CHECKPOINT: frozenset[type[ev.Event]] = frozenset({ev.ActionsUndone})
_NOT_UNDOABLE: frozenset[type[ev.Event]] = _CHECKPOINT_EVENTS | {ev.GameEnded, ev.ActionsUndone}


SEAT_CONTROLS = ("player", "bot")


def _seat_control(state: GameState, event: ev.SeatControlChanged) -> None:
    """Record the last ``SeatControlChanged`` of each seat; raises
    ``ValueError`` for a seat or control that does not exist."""
    if not 0 <= event.seat < state.n_seats or event.control not in SEAT_CONTROLS:
        raise ValueError(f"event changes the control of a seat that cannot be: {event!r}")
    control = list(state.seat_control) or [None] * state.n_seats
    control[event.seat] = event
    state.seat_control = tuple(control)


def _hint_shown(state: GameState, event: ev.HintShown) -> None:
    """Count the hints of each seat; raises ``ValueError`` for a
    seat that does not exist or a win chance outside 0–100."""
    if not 0 <= event.seat < state.n_seats or not 0 <= event.win_percent <= 100:
        raise ValueError(f"event shows a hint that cannot be: {event!r}")
    hints = list(state.hints) or [0] * state.n_seats
    hints[event.seat] += 1
    state.hints = tuple(hints)


def _undoable(event: ev.Event) -> bool:
    """Whether ``event``, applied in the play phase, counts as a change an
    ``Undo`` takes back (not a checkpoint, not the end of the game)."""
    if type(event) in _NOT_UNDOABLE:
        return False
    return not (isinstance(event, ev.DisplayRevealed) and event.reason == "collect")


# ------------------------------------------------------------ one per event


def _acorns_gained(state: GameState, event: ev.AcornsGained) -> None:
    state.seats[event.seat].acorns += event.amount


def _acorns_paid(state: GameState, event: ev.AcornsPaid) -> None:
    seat = state.seats[event.seat]
    if seat.acorns < event.amount:
        raise ValueError("event pays more acorns than the seat holds")
    seat.acorns -= event.amount


def _display_revealed(state: GameState, event: ev.DisplayRevealed) -> None:
    _draw(state, event.cards)
    state.display.extend(event.cards)
    if event.reason == "collect":
        state.turn.revealed = True


def _column_collected(state: GameState, event: ev.ColumnCollected) -> None:
    seat = state.seats[event.seat]
    for c in event.cards:
        state.display.remove(c)
    seat.hand.extend(event.cards)
    seat.known.extend(event.cards)
    state.turn.main_done = True
    state.turn.revealed = False


def _pile_closed(state: GameState, event: ev.PileClosed) -> None:
    row = state.seats[event.seat].row
    i = _pile_index(row, event.leaf_type)
    if i is None or CARD_VALUE[row[i].top] != MAX_VALUE:
        raise ValueError("event closes a pile without a 3 on top")
    row[i] = Pile(event.leaf_type, row[i].cards, True)
    if event.torii:
        state.torii_left -= 1


def _cards_discarded(state: GameState, event: ev.CardsDiscarded) -> None:
    seat = state.seats[event.seat]
    _remove(seat.hand, seat.known, event.cards)
    state.discard.extend(event.cards)
    if event.reason == "exchange":
        state.turn.exchanged = True
    elif event.reason == "hand limit":
        state.turn.limit_discarded = True  # the end of the turn has begun (RULES §5.1)


def _cards_to_hand(state: GameState, event: ev.CardsDrawn | ev.CardsDealt) -> None:
    _draw(state, event.cards)
    state.seats[event.seat].hand.extend(event.cards)


def _card_taken(state: GameState, event: ev.CardTaken) -> None:
    seat = state.seats[event.seat]
    (state.display if event.source == "display" else state.discard).remove(event.card)
    seat.hand.append(event.card)
    seat.known.append(event.card)


def _cards_swapped(state: GameState, event: ev.CardsSwapped) -> None:
    seat = state.seats[event.seat]
    _remove(seat.hand, seat.known, (event.hand_card,))
    state.display.remove(event.display_card)
    state.display.append(event.hand_card)
    seat.hand.append(event.display_card)
    seat.known.append(event.display_card)


def _landscape_used(state: GameState, event: ev.LandscapeUsed) -> None:
    state.seats[event.seat].used.append(event.landscape)
    state.turn.landscape = event.landscape


def _objective_activated(state: GameState, event: ev.ObjectiveActivated) -> None:
    state.owners[event.objective] = event.seat
    if event.main_action:
        state.turn.main_done = True


def _main_action_passed(state: GameState, event: ev.MainActionPassed) -> None:
    state.turn.main_done = True


def _turn_ended(state: GameState, event: ev.TurnEnded) -> None:
    state.seats[event.seat].turns += 1
    if event.seat == state.last_seat:
        state.round += 1
    state.current = (event.seat + 1) % state.n_seats
    state.turn = TurnState()


def _end_triggered(state: GameState, event: ev.EndTriggered) -> None:
    state.end_trigger = event.reason


def _game_ended(state: GameState, event: ev.GameEnded) -> None:
    state.phase = ENDED


def _play_started(state: GameState, event: ev.PlayStarted) -> None:
    state.phase = PLAY
    state.current = event.first_seat
    state.turn = TurnState()


def _game_created(state: GameState, event: ev.GameCreated) -> None:
    raise ValueError("GameCreated can only begin a game")


def working_copy(state: GameState) -> GameState:
    """A copy of ``state`` (a ``GameState.fork``) to apply events to, while
    ``state`` itself stays unchanged.

    When ``state`` is its own undo checkpoint, the copy refers to ``state``
    as its checkpoint instead of taking a snapshot later. So a state given
    to ``apply``, ``decide`` or ``run`` must be treated as a value afterwards
    (``clone()`` it before changing it in place).
    """
    new = state.fork()
    turn = state.turn
    if turn.since_checkpoint == 0 and turn.checkpoint is None and state.phase == PLAY:
        new.turn.checkpoint = state
    return new


def _undo(state: GameState, event: ev.ActionsUndone) -> None:
    checkpoint = state.turn.checkpoint
    if checkpoint is None or event.count != state.turn.since_checkpoint or event.seat != state.current:
        raise ValueError("event undoes actions that cannot be taken back")
    seen = _public_cards(state)
    restored = checkpoint.fork()
    restored.seat_control = state.seat_control  # an undo takes back actions, not who plays
    restored.hints = state.hints  # nor the hints already shown
    for name in GameState.__slots__:
        setattr(state, name, getattr(restored, name))
    # ``restored`` is the checkpoint state itself: checkpoint None, since 0.
    # Every seat saw the undo put back the cards that were in sight (played,
    # discarded face up, swapped into the display): they are known now (RULES §8).
    for seat in state.seats:
        back = [c for c in seat.hand if c in seen and c not in seat.known]
        if back:
            seat.known.extend(back)


def _public_cards(state: GameState) -> set[int]:
    """Cards every seat can see (RULES §8): display, discard pile, rows, and
    the known cards of each hand."""
    seen = set(state.display)
    seen.update(state.discard)
    for seat in state.seats:
        seen.update(seat.known)
        for pile in seat.row:
            seen.update(pile.cards)
    return seen


def _pile_index(row: list[Pile], leaf_type: str) -> int | None:
    for i, pile in enumerate(row):
        if pile.leaf_type == leaf_type:
            return i
    return None


def _apply_played(state: GameState, event: ev.CardsPlayed) -> None:
    seat = state.seats[event.seat]
    row = seat.row
    for card, side in zip(event.cards, event.sides, strict=True):
        _remove(seat.hand, seat.known, (card,))
        if side:
            pile = Pile(CARD_TYPE[card], [card])
            if side == "left":
                row.insert(0, pile)
            else:
                row.append(pile)
        else:
            i = _pile_index(row, CARD_TYPE[card])
            if i is None or row[i].closed:
                raise ValueError("event plays onto a missing or closed pile")
            pile = row[i]
            if CARD_VALUE[card] - CARD_VALUE[pile.top] > 1:
                state.turn.stones_used = True
            row[i] = Pile(pile.leaf_type, [*pile.cards, card])  # a new pile: forks share the old one
    if event.mode != "crane":
        state.turn.main_done = True


def _apply_drafted(state: GameState, event: ev.LandscapeDrafted) -> None:
    state.seats[event.seat].panorama.append(event.landscape)
    state.draft_remaining.remove(event.landscape)
    state.draft_pick += 1
    n = state.n_seats
    if state.draft_pick >= 3 * n:
        state.phase = SETUP
        state.draft_remaining = []
        return
    rnd, seat = drafter(n, state.first_seat, state.draft_pick)
    if state.draft_pick % n == 0:
        state.draft_remaining = list(state.draft_offers[rnd])
    state.current = seat


E = TypeVar("E", bound=ev.Event)


def _on(kind: type[E], handler: Callable[[GameState, E], None]) -> tuple[type[E], Callable[[GameState, E], None]]:
    """One entry of ``_APPLY``: mypy checks that ``handler`` takes ``kind``."""
    return kind, handler


_APPLY: dict[type[Any], Callable[[GameState, Any], None]] = dict([
    _on(ev.AcornsGained, _acorns_gained),
    _on(ev.AcornsPaid, _acorns_paid),
    _on(ev.DisplayRevealed, _display_revealed),
    _on(ev.ColumnCollected, _column_collected),
    _on(ev.CardsPlayed, _apply_played),
    _on(ev.PileClosed, _pile_closed),
    _on(ev.CardsDiscarded, _cards_discarded),
    _on(ev.CardsDrawn, _cards_to_hand),
    _on(ev.CardTaken, _card_taken),
    _on(ev.CardsSwapped, _cards_swapped),
    _on(ev.LandscapeUsed, _landscape_used),
    _on(ev.ObjectiveActivated, _objective_activated),
    _on(ev.MainActionPassed, _main_action_passed),
    _on(ev.TurnEnded, _turn_ended),
    _on(ev.EndTriggered, _end_triggered),
    _on(ev.GameEnded, _game_ended),
    _on(ev.CardsDealt, _cards_to_hand),
    _on(ev.LandscapeDrafted, _apply_drafted),
    _on(ev.PlayStarted, _play_started),
    _on(ev.ActionsUndone, _undo),
    _on(ev.GameCreated, _game_created),
])


def apply(state: GameState, event: ev.Event) -> GameState:
    """Return the state after ``event``; ``state`` itself is not changed.

    Raises ``ValueError`` when the event cannot follow ``state``.
    """
    new = working_copy(state)
    apply_in_place(new, event)
    return new


def fold(events: Iterable[ev.Event]) -> GameState:
    """The state of a game from its whole event log (first event: GameCreated).

    Raises ``ValueError`` for an empty log, a log not starting with
    ``GameCreated``, or an event that cannot follow its predecessors.
    """
    log = list(events)
    if not log or not isinstance(log[0], ev.GameCreated):
        raise ValueError("an event log must begin with GameCreated")
    state = new_state(log[0])
    # Only an undo in its turn reads a checkpoint: none is taken before the first undo's or the last turn.
    first_undo = next((i for i, e in enumerate(log) if isinstance(e, ev.ActionsUndone)), len(log))
    start = next((i for i in range(first_undo - 1, 0, -1) if type(log[i]) in _CHECKPOINT_EVENTS), 1)
    for event in log[1:start]:
        apply_in_place(state, event, undo_checkpoint=False)
    for event in log[start:]:
        apply_in_place(state, event)
    return state
