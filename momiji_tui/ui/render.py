"""How the table's things look: Rich ``Text`` for cards, piles, columns, seats.

Leaf types are always letter + colour (RULES §1.1: never colour alone); an
acorn corner is a ``•`` on that side of the card. Colours come from the
Okabe–Ito colour-blind-safe palette.
"""

from __future__ import annotations

from rich.text import Text

from ..engine.cards import CARD_LEFT_ACORN, CARD_RIGHT_ACORN, CARD_TYPE, CARD_VALUE, Card
from ..engine.rules_data import LANDSCAPES, LEAF_NAMES, OBJECTIVE_NAMES, OBJECTIVE_TEXT
from ..engine.view import PileView, PlayerView, SeatView

TYPE_STYLE: dict[str, str] = {
    "M": "bold #E8602C",  # maple: vermillion
    "G": "bold #F0E442",  # ginkgo: yellow
    "C": "bold #CC79A7",  # cherry: reddish purple
    "O": "bold #B08050",  # oak: brown
    "Z": "bold #E69F00",  # zelkova: orange
    "K": "bold #009E73",  # katsura: bluish green
}
ACORN = "•"
TORII = "⛩"


def card_text(card: Card, *, corners: bool = True) -> Text:
    """A card as ``•M2 `` (acorn corners on the sides when ``corners``)."""
    t = CARD_TYPE[card]
    out = Text()
    if corners:
        out.append(ACORN if CARD_LEFT_ACORN[card] else " ", style="#D4A373")
    out.append(f"{t}{CARD_VALUE[card]}", style=TYPE_STYLE[t])
    if corners:
        out.append(ACORN if CARD_RIGHT_ACORN[card] else " ", style="#D4A373")
    return out


def pile_text(pile: PileView, *, memory: bool = False) -> Text:
    """A pile: its top card, card count and torii, e.g. ``[•M2 ×3]`` or
    ``[ M3•×4⛩]``; without ``memory`` the values below the top follow."""
    out = Text("[")
    out.append_text(card_text(pile.cards[-1]))
    out.append(f"×{len(pile.cards)}")
    if pile.closed:
        out.append(TORII, style="bold red")
    if not memory and len(pile.cards) > 1:
        below = "".join(str(CARD_VALUE[c]) for c in pile.cards[:-1])
        out.append(f" {below}", style="dim")
    out.append("]")
    return out


def row_text(seat: SeatView, *, memory: bool = False) -> Text:
    """A seat's row, left to right (RULES §4.2), or ``(no piles)``."""
    if not seat.row:
        return Text("(no piles)", style="dim")
    return Text(" ").join(pile_text(p, memory=memory) for p in seat.row)


def display_text(v: PlayerView) -> Text:
    """The display by columns (RULES §2.2): ``M: 0 1•  G: 2``; empty says so."""
    out = Text()
    cols: dict[str, list[Card]] = {}
    for c in v.display:
        cols.setdefault(CARD_TYPE[c], []).append(c)
    if not cols:
        return Text("(empty)", style="dim")
    for t in v.types:
        if t in cols:
            out.append(f"{t}", style=TYPE_STYLE[t] + " underline")
            out.append(":")
            for c in sorted(cols[t], key=lambda c: CARD_VALUE[c]):
                out.append_text(card_text(c))
            out.append("  ")
    return out


def panorama_text(seat: SeatView, *, numbered: bool = False, short: bool = False) -> Text:
    """The seat's landscapes; used ones are struck through and marked ✓.
    ``short`` names each by its last word (``Spring``)."""
    out = Text()
    for i, lid in enumerate(seat.panorama):
        if i:
            out.append(" · " if short else "  ")
        name = LANDSCAPES[lid][1].split()[-1] if short else LANDSCAPES[lid][1]
        label = f"{i + 1} {name}" if numbered else name
        if lid in seat.used:
            out.append(label + " ✓", style="dim strike")
        else:
            out.append(label)
    return out


def objective_label(objective: str) -> str:
    """Name and condition, e.g. ``Fallen Seeds (most 0s in your piles)``."""
    return f"{OBJECTIVE_NAMES[objective]} ({OBJECTIVE_TEXT[objective]})"


def leaf_name(t: str) -> str:
    """``Maple`` for ``M``."""
    return LEAF_NAMES[t]
