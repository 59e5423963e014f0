"""Pruning for the searching bots (Normal, Hard): a list of legal commands
with its large families of free actions cut down to their most sensible
members.
"""

from __future__ import annotations

from ..engine import commands as cmd
from ..engine.cards import Card
from ..engine.commands import Command
from ..engine.placement import row_tops
from ..engine.state import GameState
from .playout_moves import keep_value


def prefilter(state: GameState, legal: list[Command], seat: int, keep: int = 3) -> list[Command]:
    """``legal`` with its large families of free actions cut down to their
    ``keep`` most sensible members (by ``keep_value``): exchanges, Fox Shrine
    and Koi Pond discards, hand-limit discards, Temple Bell swaps, Stone
    Lantern and Rice Terrace picks. Plays, collects, objectives and the other
    commands all stay. Only reads the seat's own hand and public cards."""
    s = state.seats[seat]
    tops, closed = row_tops(s)

    def kv(c: Card) -> float:
        return keep_value(tops, closed, c)

    families: dict[str, list[tuple[float, int, Command]]] = {}
    out: list[tuple[int, Command]] = []
    for i, c in enumerate(legal):
        match c:
            case cmd.Exchange(cards=cards):
                families.setdefault("exchange", []).append((sum(kv(x) for x in cards), i, c))
            case cmd.DiscardToLimit(cards=cards):
                families.setdefault("discard", []).append((sum(kv(x) for x in cards), i, c))
            case cmd.UseLandscape(landscape="fox", hand_cards=hand):
                score = sum(kv(x) for x in hand) - 1.2 * (len(hand) // 2)
                families.setdefault("fox", []).append((score, i, c))
            case cmd.UseLandscape(landscape="koi", hand_cards=hand):
                score = sum(kv(x) - 1.0 for x in hand)
                families.setdefault("koi", []).append((score, i, c))
            case cmd.UseLandscape(landscape="bell", hand_cards=hand, card=int() as card):
                families.setdefault("bell", []).append((kv(hand[0]) - kv(card), i, c))
            case cmd.UseLandscape(landscape="lantern" | "terrace" as lid, card=int() as card):
                families.setdefault(lid, []).append((-kv(card), i, c))
            case _:
                out.append((i, c))
    for members in families.values():
        members.sort(key=lambda x: (x[0], x[1]))
        out.extend((i, c) for _, i, c in members[:keep])
    out.sort(key=lambda x: x[0])
    return [c for _, c in out]
