"""A seat's decisions read back from a finished game's event log.

The log holds events, not commands (ARCHITECTURE "Saves"), so each of the seat's
moves is found again: in the state folded up to the move, the command whose
events (``decide``) are the log's next events. Pure: no files, no UI.

Fair by construction (RULES §8): each decision carries
``view(state folded to that point, seat)`` and nothing else the review uses.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from .. import engine
from ..engine import events as ev
from ..engine.cards import CARD_KIND_ID
from ..engine.commands import Command, Play, Undo
from ..engine.state import PLAY


@dataclass(frozen=True, slots=True)
class DecisionPoint:
    """One decision of the reviewed seat.

    ``position``: how many events had happened when it was taken (the view
    is that of ``fold(events[:position])``); ``turn``: the seat's own turn
    number (1 = its first turn); ``legal``: how many commands it could give.
    """

    position: int
    turn: int
    view: engine.PlayerView
    command: Command
    legal: int


def _kinds(value: object) -> object:
    """An event field with cards told apart by kind only (letters dropped,
    order of a card tuple ignored): see ``legal_commands``' first simplification."""
    if isinstance(value, tuple) and value and all(isinstance(c, int) for c in value):
        return tuple(sorted(CARD_KIND_ID[c] for c in value))
    return value


def _loose(event: ev.Event) -> tuple[object, ...]:
    """``event`` compared up to which copy of a card of one kind moved."""
    fields = engine.to_dict(event)
    return tuple((k, _kinds(tuple(v) if isinstance(v, list) else v)) for k, v in sorted(fields.items()))


def _matches(state: engine.GameState, command: Command, logged: Sequence[ev.Event], *, loose: bool) -> int:
    """How many of ``logged`` ``command`` accounts for (0: it does not)."""
    try:
        made = engine.decide(state, command)
    except engine.IllegalCommand:
        return 0
    if not made or len(made) > len(logged):
        return 0
    head = logged[:len(made)]
    same = [_loose(a) for a in made] == [_loose(b) for b in head] if loose else list(head) == made
    return len(made) if same else 0


def _direct(state: engine.GameState, seat: int, logged: Sequence[ev.Event]) -> tuple[Command, int] | None:
    """The command read straight from a ``CardsPlayed`` (a play's cards
    and sides are exact there, RULES §4.2), checked by ``decide``."""
    first = logged[0]
    if isinstance(first, ev.CardsPlayed) and first.seat == seat and first.mode != "crane":
        command = Play(seat, first.cards, tuple(s for s in first.sides if s))
        n = _matches(state, command, logged, loose=False)
        if n:
            return command, n
    return None


def _outcome(state: engine.GameState, seat: int) -> tuple[object, ...]:
    """What a move left, up to which copy of a card of one kind moved: rows,
    hands (with what every seat knows of them, RULES §8), acorns, display,
    discard pile, deck, objectives and the turn's progress."""
    def kinds(cards: Sequence[int]) -> tuple[int, ...]:
        return tuple(CARD_KIND_ID[c] for c in cards)

    seats = tuple((tuple((p.leaf_type, p.closed, kinds(p.cards)) for p in s.row), tuple(sorted(kinds(s.hand))),
                   tuple(sorted(kinds(s.known))), s.acorns, tuple(s.used), s.turns) for s in state.seats)
    t = state.turn
    return (seats, kinds(state.display), tuple(sorted(kinds(state.discard))), state.deck_pos,
            tuple(sorted(state.owners.items())), state.torii_left, state.current, state.phase,
            t.main_done, t.revealed, t.boost, seat)


def _after(state: engine.GameState, events: Sequence[ev.Event]) -> engine.GameState:
    after = state.clone()
    for e in events:
        engine.apply_in_place(after, e)
    return after


def _listed(state: engine.GameState, seat: int, command: Command, n: int, logged: Sequence[ev.Event],
            legal: Sequence[Command]) -> Command:
    """The listed legal command with the same outcome as ``command`` (which
    made ``logged[:n]``): ``legal_commands`` lists one card of each kind and
    one order of a mixed play's new piles, and the search only knows those."""
    if command in legal:
        return command
    want = _outcome(_after(state, logged[:n]), seat)
    for other in legal:
        if type(other) is not type(command):
            continue
        try:
            made = engine.decide(state, other)
        except engine.IllegalCommand:
            continue
        if _outcome(_after(state, made), seat) == want:
            return other
    return command


def find_command(state: engine.GameState, seat: int, logged: Sequence[ev.Event],
                 legal: Sequence[Command]) -> tuple[Command, int] | None:
    """The command of ``seat`` whose events begin ``logged`` in ``state``, and
    how many events it made; None when no command explains them (they are
    not a move of ``seat``). The command is the one ``legal`` lists for it
    when the seat's own differs only by which copy of a card it used, or by
    the order of a mixed play's new piles (same outcome)."""
    found = _direct(state, seat, logged)
    if found is None:
        for command in legal:
            n = _matches(state, command, logged, loose=False)
            if n:
                found = command, n
                break
    if found is not None:
        command, n = found
        return _listed(state, seat, command, n, logged, legal), n
    for command in legal:
        n = _matches(state, command, logged, loose=True)
        if n:
            return command, n
    return None


def _undone(points: list[DecisionPoint], undo_at: int, count: int) -> list[DecisionPoint]:
    """``points`` without the decisions an ``ActionsUndone`` at ``undo_at``
    took back (their events are the ``count`` before it)."""
    return [p for p in points if p.position < undo_at - count]


def decision_points(events: Sequence[ev.Event], seat: int) -> Iterator[DecisionPoint]:
    """Every decision ``seat`` took in the play phase with more than one
    legal command, in order, each with the seat's view at that moment
    (RULES §8). Moves later undone are left out. The draft (RULES §2.1) and
    forced moves are not decisions to review.

    Raises ``ValueError`` if ``events`` do not begin with ``GameCreated``.
    """
    if not events or not isinstance(events[0], ev.GameCreated):
        raise ValueError("a review needs a game log beginning with GameCreated")
    state = engine.fold(events[:1])
    points: list[DecisionPoint] = []
    i = 1
    while i < len(events):
        event = events[i]
        if isinstance(event, ev.ActionsUndone) and event.seat == seat:
            points = _undone(points, i, event.count)
        elif state.phase == PLAY and state.current == seat and not isinstance(event, ev.SeatControlChanged):
            legal = [c for c in engine.legal_commands(state, seat) if not isinstance(c, Undo)]
            found = find_command(state, seat, events[i:], legal) if len(legal) > 1 else None
            if found is not None:
                command, n = found
                turn = state.seats[seat].turns + 1
                points.append(DecisionPoint(i, turn, engine.view(state, seat), command, len(legal)))
                for e in events[i:i + n]:
                    engine.apply_in_place(state, e)
                i += n
                continue
        engine.apply_in_place(state, event)
        i += 1
    yield from points
