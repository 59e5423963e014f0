"""Events: facts that happened, past tense (ARCHITECTURE "The engine").

Every change of a game is one of these frozen dataclasses; the state is their
fold (``fold.py``). Chance is recorded in the events themselves (the shuffled
deck, the types in play, the objectives, the draft offers, the first seat), so
a replay never runs a random generator.

``to_dict``/``from_dict`` give each event a stable JSON form: a dict with a
``"type"`` key; cards are written by name (``"M0a"``).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from collections.abc import Callable
from types import NoneType, UnionType
from typing import Any, Union, cast, get_args, get_origin, get_type_hints

from ..safe_text import safe_text
from .cards import CARD_BY_NAME, CARD_NAME, Card


@dataclass(frozen=True, slots=True)
class GameCreated:
    """A new game: seats, and every random choice of setup (RULES §2).

    ``deck`` is the full shuffled deck, top card first. ``draft_offers`` holds
    the three draft rounds' offers (empty for the starter panorama).
    """

    game_id: str
    rules_version: str
    seed: int | None
    seat_names: tuple[str, ...]
    types: tuple[str, ...]
    objectives: tuple[str, ...]
    first_seat: int
    deck: tuple[Card, ...]
    landscape_mode: str  # "starter" | "draft"
    draft_offers: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class LandscapeDrafted:
    """A seat picked a landscape in the draft (RULES §2.1)."""

    seat: int
    landscape: str


@dataclass(frozen=True, slots=True)
class CardsDealt:
    """Setup deal into a hand; private to that seat (RULES §2.5, §8)."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class PlayStarted:
    """Setup is over; the first seat's turn begins (RULES §2.7)."""

    first_seat: int


@dataclass(frozen=True, slots=True)
class DisplayRevealed:
    """Deck cards revealed into the display (RULES §2.5, §4.1, §5.2).

    ``reason``: ``"setup"``, ``"collect"`` (a paid or free reveal) or
    ``"top-up"``.
    """

    cards: tuple[Card, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class AcornsGained:
    """A seat took acorns from the reserve (RULES §1.3)."""

    seat: int
    amount: int
    reason: str


@dataclass(frozen=True, slots=True)
class AcornsPaid:
    """A seat paid acorns to the reserve (RULES §1.3)."""

    seat: int
    amount: int
    reason: str


@dataclass(frozen=True, slots=True)
class ColumnCollected:
    """A seat took one column of the display into hand (RULES §4.1)."""

    seat: int
    leaf_type: str
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class CardsPlayed:
    """Cards placed from hand into the row, in order (RULES §4.2).

    ``sides[i]`` is ``"left"``/``"right"`` when ``cards[i]`` starts a new
    pile, ``""`` when it goes onto an existing pile. ``mode`` is ``"same"``,
    ``"mixed"`` or ``"crane"`` (Crane Island, RULES §1.5).
    """

    seat: int
    cards: tuple[Card, ...]
    sides: tuple[str, ...]
    mode: str


@dataclass(frozen=True, slots=True)
class PileClosed:
    """A 3 closed a pile; ``torii`` is False when the supply was empty (RULES §4.2)."""

    seat: int
    leaf_type: str
    torii: bool


@dataclass(frozen=True, slots=True)
class ObjectiveActivated:
    """A seat became the owner of an objective (RULES §4.3).

    ``main_action`` is False when Moon Gate activated it (RULES §1.5).
    """

    seat: int
    objective: str
    main_action: bool = True


@dataclass(frozen=True, slots=True)
class CardsDiscarded:
    """Cards went from a hand to the discard pile, face up (RULES §4.4, §5.1, §1.5)."""

    seat: int
    cards: tuple[Card, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class CardsDrawn:
    """Cards drawn from the deck into a hand; private to that seat (RULES §8)."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class CardTaken:
    """One public card taken into a hand from ``"display"`` or ``"discard"`` (RULES §1.5)."""

    seat: int
    card: Card
    source: str


@dataclass(frozen=True, slots=True)
class CardsSwapped:
    """Temple Bell: a hand card and a display card changed places (RULES §1.5)."""

    seat: int
    hand_card: Card
    display_card: Card


@dataclass(frozen=True, slots=True)
class LandscapeUsed:
    """A seat used a landscape power (once per game) (RULES §4.5)."""

    seat: int
    landscape: str


@dataclass(frozen=True, slots=True)
class MainActionPassed:
    """A seat could take no main action (RULES §3)."""

    seat: int


@dataclass(frozen=True, slots=True)
class EndTriggered:
    """The end of the game was triggered: ``reason`` is ``"deck"`` or ``"torii"`` (RULES §6)."""

    seat: int
    reason: str


@dataclass(frozen=True, slots=True)
class TurnEnded:
    """A seat's turn is over; the next seat in order is to play (RULES §5)."""

    seat: int


@dataclass(frozen=True, slots=True)
class ActionsUndone:
    """The seat took back its last ``count`` events of this turn; the state
    returns to the turn's undo checkpoint. The log keeps the undone events
    (it is never rewritten); the fold leaves them out."""

    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class GameEnded:
    """The round was finished after the trigger; scoring applies (RULES §6, §7)."""


@dataclass(frozen=True, slots=True)
class SeatControlChanged:
    """Who controls ``seat`` changed (a shared table): never the
    result of a command (``decide`` never makes it), recorded by the session
    layer; no rule and no bot looks at it (RULES §8: it hides nothing).

    ``control``: ``"player"`` (the seat's owner plays it) or ``"bot"`` (a bot
    plays for the owner). ``player``: the owner's opaque account id (None for
    a seat without an owner). ``reason``: ``"seated"``, ``"left"`` (the owner
    went away; nobody plays the seat until the wait is over), ``"bot after a
    wait"`` or ``"back"``.
    """

    seat: int
    control: str
    player: str | None = None
    reason: str = "seated"


@dataclass(frozen=True, slots=True)
class HintShown:
    """``seat`` was shown a hint: Hard's suggestion from the seat's
    own view, recorded by the session layer so a game with hints says so.
    Never the result of a command; no rule and no bot looks at it (RULES §8).

    ``win_percent``: Hard's estimated win chance of the suggestion (0–100).
    """

    seat: int
    win_percent: int


Event = (
    GameCreated | LandscapeDrafted | CardsDealt | PlayStarted | DisplayRevealed
    | AcornsGained | AcornsPaid | ColumnCollected | CardsPlayed | PileClosed
    | ObjectiveActivated | CardsDiscarded | CardsDrawn | CardTaken | CardsSwapped
    | LandscapeUsed | MainActionPassed | EndTriggered | TurnEnded | ActionsUndone | GameEnded
    | SeatControlChanged | HintShown
)
EVENT_TYPES: dict[str, type] = {
    cls.__name__: cls
    for cls in (
        GameCreated, LandscapeDrafted, CardsDealt, PlayStarted, DisplayRevealed,
        AcornsGained, AcornsPaid, ColumnCollected, CardsPlayed, PileClosed,
        ObjectiveActivated, CardsDiscarded, CardsDrawn, CardTaken, CardsSwapped,
        LandscapeUsed, MainActionPassed, EndTriggered, TurnEnded, ActionsUndone, GameEnded,
        SeatControlChanged, HintShown,
    )
}
# Fields that hold cards (written by name in JSON).
_CARD_FIELDS = {"deck", "cards", "card", "hand_card", "display_card"}
# Each event type's field names (computed once: ``fields`` is slow).
_FIELD_NAMES: dict[type, tuple[str, ...]] = {
    cls: tuple(f.name for f in fields(cls)) for cls in EVENT_TYPES.values()
}


def _encode(name: str, value: Any) -> Any:
    if name in _CARD_FIELDS:
        if isinstance(value, tuple):
            return [CARD_NAME[c] for c in value]
        return CARD_NAME[value]
    if isinstance(value, tuple):
        return [list(v) if isinstance(v, tuple) else v for v in value]
    return value


def to_dict(event: Event) -> dict[str, Any]:
    """The stable JSON-able form of ``event``: ``{"type": name, **fields}``."""
    out: dict[str, Any] = {"type": type(event).__name__}
    for name in _FIELD_NAMES[type(event)]:
        out[name] = _encode(name, getattr(event, name))
    return out


def event_seat(event: Event) -> int | None:
    """The seat ``event`` is about (its ``seat`` field), or None for an event
    of the whole table (a deal, a draw pile refill, the end)."""
    seat = getattr(event, "seat", None)
    return seat if isinstance(seat, int) else None


#: A field's reader: the value as JSON holds it in, the field's value out.
#: Raises ``TypeError`` when the value is not of the field's annotated type,
#: ``KeyError`` for an unknown card name.
Reader = Callable[[Any], Any]


def _int(value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool):  # JSON's true is no number
        return value
    raise TypeError("not an int")


def _str(value: Any) -> str:
    if isinstance(value, str):
        return value
    raise TypeError("not a str")


def _bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    raise TypeError("not a bool")


_PLAIN_READERS: dict[Any, Reader] = {int: _int, str: _str, bool: _bool}


def _tuple_of(item: Reader) -> Reader:
    """Reads a JSON list as a tuple, each element by ``item``."""
    def read(value: Any) -> Any:
        if not isinstance(value, list):
            raise TypeError("not a list")
        return tuple(map(item, value))
    return read


def _or_none(item: Reader) -> Reader:
    return lambda value: None if value is None else item(value)  # None as itself, else by ``item``


def _reader_for(hint: Any) -> Reader:
    """The reader of a field annotated ``hint`` (``int``, ``str``, ``bool``,
    ``X | None``, ``tuple[X, ...]``). Raises ``TypeError`` for any other."""
    origin, args = get_origin(hint), get_args(hint)
    if origin in (Union, UnionType) and len(args) == 2 and NoneType in args:
        return _or_none(_reader_for(args[0] if args[1] is NoneType else args[1]))
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return _tuple_of(_reader_for(args[0]))
    if hint in _PLAIN_READERS:
        return _PLAIN_READERS[hint]
    raise TypeError(f"no reader for a field of type {hint!r}")


_card: Reader = CARD_BY_NAME.__getitem__
#: Fields read by their name, not their type: cards are written by name;
#: seat names come from outside and are shown escaped, never raw (safe_text).
_NAMED_READERS: dict[str, Reader] = {
    "deck": _tuple_of(_card), "cards": _tuple_of(_card), "card": _card, "hand_card": _card, "display_card": _card,
    "seat_names": _tuple_of(safe_text),
}

#: Each event type's fields and their readers, made once from the
#: annotations: the schema a saved event is held to (``from_dict``).
_READERS: dict[type, dict[str, Reader]] = {
    cls: {name: _NAMED_READERS.get(name) or _reader_for(hint)
          for name, hint in get_type_hints(cls).items() if name in _FIELD_NAMES[cls]}
    for cls in EVENT_TYPES.values()
}


def from_dict(data: dict[str, Any]) -> Event:
    """Rebuild an event from ``to_dict`` output.

    Raises ``ValueError`` for an unknown type, missing or unknown fields, a
    field whose value is not of its annotated type, or an unknown card name.
    """
    try:
        cls = EVENT_TYPES[data["type"]]
    except (KeyError, TypeError):
        raise ValueError(f"unknown event type: {data.get('type')!r}") from None
    readers = _READERS[cls]
    values: dict[str, Any] = {}
    for key, value in data.items():
        read = readers.get(key)
        if read is None:
            if key == "type":
                continue
            raise ValueError(f"{cls.__name__} has unknown fields {sorted(set(data) - set(readers) - {'type'})}")
        try:
            values[key] = read(value)
        except KeyError:
            raise ValueError(f"bad {cls.__name__} event: {key} holds an unknown card name") from None
        except TypeError:
            raise ValueError(f"bad {cls.__name__} event: {key} is not of the right type") from None
    try:
        return cast(Event, cls(**values))  # cls is an Event class
    except TypeError as exc:
        raise ValueError(f"bad {cls.__name__} event: {exc}") from None
