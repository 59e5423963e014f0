"""Leaf cards as small integers with precomputed fact tables (RULES §1.1, §1.2).

A card is an ``int`` from 0 to 83: ``LEAF_TYPES.index(type) * 14 + i`` where
``i`` indexes ``rules_data.CARD_PATTERN``. Its stable name, used in saves and
on screen, is type letter + value + card letter, e.g. ``"M0a"``.
"""

from __future__ import annotations

from .rules_data import CARD_PATTERN, LEAF_NAMES, LEAF_TYPES

Card = int

CARDS_PER_TYPE = len(CARD_PATTERN)
ALL_CARDS: tuple[Card, ...] = tuple(range(len(LEAF_TYPES) * CARDS_PER_TYPE))

CARD_TYPE: tuple[str, ...] = tuple(LEAF_TYPES[c // CARDS_PER_TYPE] for c in ALL_CARDS)
CARD_VALUE: tuple[int, ...] = tuple(CARD_PATTERN[c % CARDS_PER_TYPE][0] for c in ALL_CARDS)
CARD_LEFT_ACORN: tuple[bool, ...] = tuple(CARD_PATTERN[c % CARDS_PER_TYPE][2] for c in ALL_CARDS)
CARD_RIGHT_ACORN: tuple[bool, ...] = tuple(CARD_PATTERN[c % CARDS_PER_TYPE][3] for c in ALL_CARDS)
CARD_NAME: tuple[str, ...] = tuple(
    f"{CARD_TYPE[c]}{CARD_VALUE[c]}{CARD_PATTERN[c % CARDS_PER_TYPE][1]}" for c in ALL_CARDS
)
# Cards that differ only by their letter behave identically in every rule.
CARD_KIND: tuple[tuple[str, int, bool, bool], ...] = tuple(
    (CARD_TYPE[c], CARD_VALUE[c], CARD_LEFT_ACORN[c], CARD_RIGHT_ACORN[c]) for c in ALL_CARDS
)
# The same as a small int per kind (cheap to hash), numbered in card order.
_KIND_IDS: dict[tuple[str, int, bool, bool], int] = {}
CARD_KIND_ID: tuple[int, ...] = tuple(_KIND_IDS.setdefault(k, len(_KIND_IDS)) for k in CARD_KIND)
#: Each card by its name (``CARD_NAME`` the other way).
CARD_BY_NAME: dict[str, Card] = {name: c for c, name in enumerate(CARD_NAME)}


def card_by_name(name: str) -> Card:
    """Return the card whose name is ``name`` (e.g. ``"M0a"``).

    Raises ``KeyError`` when no such card exists.
    """
    return CARD_BY_NAME[name]


def cards_of_types(types: tuple[str, ...] | list[str]) -> list[Card]:
    """Every card of the given leaf types, in card order (RULES §2.2 deck)."""
    wanted = set(types)
    return [c for c in ALL_CARDS if CARD_TYPE[c] in wanted]


def describe_card(card: Card) -> str:
    """A player-readable label, e.g. ``"Maple 2"``."""
    return f"{LEAF_NAMES[CARD_TYPE[card]]} {CARD_VALUE[card]}"
