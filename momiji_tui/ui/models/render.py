"""How the table's things look: Rich ``Text`` for cards, piles, columns, seats.

A card is a small chip ``•M2•``: the type letter and the value on the type's
colour, an acorn corner as a ``•`` on that side (RULES §1.2). The letter is
always there, so nothing depends on colour alone (RULES §1.1); the colours
come from the Okabe–Ito colour-blind-safe palette (oak, which it lacks, is a
dark brown told apart by its lightness) with text in black or white for
contrast on any theme. ``NO_COLOR`` turns the chips into shades of grey and
the letters still read.

Anything clickable carries an action in its style's meta (key ``"momiji"``;
not Textual's ``@click``, whose link styling would repaint the chips): the
screen's click handler runs it like a key.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from rich.style import Style
from rich.text import Span, Text

from ...engine.cards import CARD_LEFT_ACORN, CARD_RIGHT_ACORN, CARD_TYPE, CARD_VALUE, Card
from ...engine.rules_data import (
    LANDSCAPES, LEAF_NAMES, OBJECTIVE_NAMES, OBJECTIVE_OWNER_POINTS, OBJECTIVE_TEXT,
)
from ...engine.view import PileView, PlayerView, SeatView
from ...session.names import GUEST_MARK
from .table_fit import pack_tokens

# Okabe–Ito: vermillion, yellow, reddish purple, (dark brown), orange, bluish green.
TYPE_COLOUR: dict[str, tuple[str, str]] = {  # background, text
    "M": ("#D55E00", "#000000"),
    "G": ("#F0E442", "#000000"),
    "C": ("#CC79A7", "#000000"),
    "O": ("#7B4A26", "#FFFFFF"),
    "Z": ("#E69F00", "#000000"),
    "K": ("#009E73", "#000000"),
}
TYPE_STYLE: dict[str, str] = {t: f"bold {fg} on {bg}" for t, (bg, fg) in TYPE_COLOUR.items()}
# The type's colour as text on the theme's background (headers, score sheet).
TYPE_INK: dict[str, str] = {"M": "bold #E8602C", "G": "bold #E0D030", "C": "bold #D98CB8",
                            "O": "bold #B08050", "Z": "bold #E69F00", "K": "bold #10B080"}
ACORN = "•"
TORII = "Π"  # a torii gate; one cell wide everywhere (⛩ is not)
ACORN_SIGN = "●"  # acorns held, in counts


CLICK_META = "momiji"


@functools.lru_cache(maxsize=1024)
def click(action: str) -> Style:
    """A style that runs the screen's ``action`` when clicked (made once per
    action: a ``Style`` never changes, and one with meta is slow to make)."""
    return Style(meta={CLICK_META: action})


def card_text(card: Card, *, corners: bool = True) -> Text:
    """A card chip: ``•M2•`` (acorn corners drawn when ``corners``)."""
    t = CARD_TYPE[card]
    style = TYPE_STYLE[t]
    out = Text()
    if corners:
        out.append(ACORN if CARD_LEFT_ACORN[card] else " ", style=style)
    out.append(f"{t}{CARD_VALUE[card]}", style=style)
    if corners:
        out.append(ACORN if CARD_RIGHT_ACORN[card] else " ", style=style)
    return out


def cards_text(cards: Sequence[Card]) -> Text:
    """Chips separated by spaces."""
    return Text(" ").join(card_text(c) for c in cards)


def pile_text(pile: PileView, *, memory: bool = False, beneath: bool = True) -> Text:
    """A pile: its top card, its card count, ``Π`` when closed by a torii, and
    what it scores now (RULES §7: top value × cards), e.g. ``•M2•×3=6 (0,1)``
    or ``•M3 ×4Π=12``. Without ``memory`` (and with ``beneath``) the values of
    the cards beneath the top follow in brackets, bottom first, dimmed (RULES
    §8: played cards are public; all of the pile's type)."""
    out = card_text(pile.cards[-1])
    out.append(f"×{len(pile.cards)}")
    if pile.closed:
        out.append(TORII, style="bold")
    out.append(f"={pile_points(pile)}", style="bold")
    if beneath and not memory and len(pile.cards) > 1:
        below = ",".join(str(CARD_VALUE[c]) for c in pile.cards[:-1])
        out.append(f" ({below})", style="dim")
    return out


def pile_points(pile: PileView) -> int:
    """What a pile scores now (RULES §7): its top card's value × its cards."""
    return CARD_VALUE[pile.cards[-1]] * len(pile.cards)


def row_text(seat: SeatView, *, memory: bool = False, clickable: bool = False, width: int = 0,
             indent: str = "") -> Text:
    """A seat's row, left to right (RULES §4.2), or ``(no piles)``. Given a
    ``width`` (> 0), the longest lists of cards beneath are left out (the
    count stays) until the row fits one line; if it still does not, piles go
    on to the next line (after ``indent``), never split."""
    if not seat.row:
        return Text("(no piles)", style="dim")
    beneath = [not memory and len(p.cards) > 1 for p in seat.row]

    def cells() -> list[Text]:
        out = []
        for p, below in zip(seat.row, beneath, strict=True):
            cell = pile_text(p, memory=memory, beneath=below)
            if clickable:
                cell.stylize(click(f"pile('{p.leaf_type}')"))
            out.append(cell)
        return out

    row = cells()
    while width > 0 and sum(c.cell_len for c in row) + 2 * (len(row) - 1) > width and any(beneath):
        longest = max((i for i, b in enumerate(beneath) if b), key=lambda i: len(seat.row[i].cards))
        beneath[longest] = False
        row = cells()
    return pack_tokens(row, width, indent=indent)


def short_label(name: str, cells: int) -> str:
    """A seat's name in at most ``cells`` cells (>= 5): the whole name when
    it fits (a guest's mark included, as the lobby and the move log name
    them: ``zed-2 (guest)``); else the guest mark left out and a long name
    cut in its middle so that its start and its distinguishing end stay
    (``WWWW…W-2``). Raises nothing."""
    if len(name) <= cells:
        return name
    name = name.removesuffix(GUEST_MARK)
    if len(name) <= cells:
        return name
    tail = min(3, cells - 3)
    return name[:cells - 1 - tail] + "…" + name[-tail:]


def display_columns(v: PlayerView) -> list[tuple[str, list[Card]]]:
    """The display's columns in type order, each sorted by value (RULES §2.2)."""
    cols: dict[str, list[Card]] = {}
    for c in v.display:
        cols.setdefault(CARD_TYPE[c], []).append(c)
    return [(t, sorted(cols[t], key=lambda c: (CARD_VALUE[c], c))) for t in v.types if t in cols]


def display_text(v: PlayerView, *, selected: Sequence[str] = (), cursor: str | None = None) -> Text:
    """The display by columns: ``M •M0 M1•   C •C0•``; a column's key is its
    type letter (shown first, bold); selected columns are bracketed, the
    keyboard cursor underlines its column's letter."""
    columns = display_columns(v)
    if not columns:
        return Text("(empty — r reveals 4 cards)" if v.deck_size else "(empty)", style="dim")
    out = Text()
    for i, (t, cards) in enumerate(columns):
        chosen = t in selected
        cell = Text()
        cell.append("[" if chosen else " ", style="bold")
        cell.append(t, style=("bold reverse" if chosen else "bold") + (" underline" if t == cursor else ""))
        cell.append(" ")
        cell.append_text(cards_text(cards))
        cell.append("]" if chosen else " ", style="bold")
        cell.stylize(click(f"column_click('{t}')"))
        if i:
            out.append(" ")
        out.append_text(cell)
    return out


# Short landscape names for narrow lines (distinct, and none reads like an objective).
SHORT_NAMES: dict[str, str] = {
    "spring": "Spring", "bamboo": "Bamboo", "lantern": "Lantern", "koi": "Koi", "terrace": "Terrace",
    "bell": "Bell", "bridge": "Bridge", "stones": "Stones", "pagoda": "Pagoda", "teahouse": "Tea House",
    "waterfall": "Waterfall", "moss": "Moss", "pier": "Pier", "crane": "Crane", "pine": "Pine",
    "fox": "Fox", "moongate": "Moon Gate", "festival": "Festival",
}


def panorama_text(seat: SeatView, *, numbered: bool = False, short: bool = False) -> Text:
    """The seat's landscapes; used ones are struck through and marked ✓.
    ``short`` uses the short names (``Spring``)."""
    out = Text()
    for i, lid in enumerate(seat.panorama):
        if i:
            out.append(" · " if short else "  ")
        name = SHORT_NAMES.get(lid, LANDSCAPES[lid][1]) if short else LANDSCAPES[lid][1]
        label = f"{i + 1} {name}" if numbered else name
        if lid in seat.used:
            out.append(label + " ✓", style="dim strike")
        else:
            out.append(label)
    return out


def objectives_text(v: PlayerView, cost: int, *, pagoda: bool = False, short: bool = False,
                    listed: bool = False) -> Text:
    """The revealed objectives with their cost and owners (RULES §1.4, §4.3);
    ``short`` leaves out what each measures, ``listed`` puts one per line."""
    t = Text()
    t.append("Objectives", style="bold")
    t.append(f" {cost}{ACORN_SIGN}" + (" (Pagoda)" if pagoda else ""), style="bold" if pagoda else "")
    t.append(":")
    for i, o in enumerate(v.objectives, 1):
        owner = v.owner_of(o)
        t.append("\n  " if listed else ("  " if i > 1 else " "))
        t.append(f"{i}", style="bold")
        t.append(" ")
        if owner is None:
            t.append(OBJECTIVE_NAMES[o])
        else:
            t.append(OBJECTIVE_NAMES[o], style="dim")
            name = "you" if owner == v.seat else v.seats[owner].name.split(" (")[0]
            t.append(f" [{name}]", style="bold")
        if listed or not short:
            t.append(f" — {OBJECTIVE_TEXT[o]}" if listed else f" ({OBJECTIVE_TEXT[o]})", style="dim")
    return t


def objective_label(objective: str) -> str:
    """Name and condition, e.g. ``Fallen Seeds (most 0s in your piles)``."""
    return f"{OBJECTIVE_NAMES[objective]} ({OBJECTIVE_TEXT[objective]})"


def objective_owner_points() -> int:
    """What an owner who meets its objective scores (RULES §7)."""
    return OBJECTIVE_OWNER_POINTS


def leaf_name(t: str) -> str:
    """``Maple`` for ``M``."""
    return LEAF_NAMES[t]


def row_points(seat: SeatView) -> int:
    """What a seat's piles score now (RULES §7): top value × cards, summed."""
    return sum(pile_points(p) for p in seat.row)


# ------------------------------------------------------------ big cards
# When the terminal is tall enough, hand cards and your piles are drawn as
# small cards, acorns in their bottom corners:   ┌────┐
#                                                │ M2 │
#                                                └•──•┘

BIG_WIDTH = 6


def big_card_lines(card: Card, *, footer: str = "") -> list[Text]:
    """Three lines of one big card; ``footer`` (e.g. ``×3``) sits on its
    bottom edge, between the acorn corners."""
    t = CARD_TYPE[card]
    style = TYPE_STYLE[t]
    left = ACORN if CARD_LEFT_ACORN[card] else "─"
    right = ACORN if CARD_RIGHT_ACORN[card] else "─"
    bottom = footer[:2].center(2, "─") if footer else "──"
    return [Text.assemble((line, style)) for line in
            ("┌────┐", f"│ {t}{CARD_VALUE[card]} │", f"└{left}{bottom}{right}┘")]


def join_columns(blocks: Sequence[Sequence[Text]], gap: int = 1) -> Text:
    """Lay blocks of lines side by side (all blocks as tall as the tallest),
    ``gap`` spaces between them, each padded to its widest line: one
    ``Text``, its lines joined by newlines. Built straight from the cells'
    characters and spans (the same text as appending each cell, faster)."""
    if not blocks:
        return Text()
    height = max(len(b) for b in blocks)
    cells = [[line.cell_len for line in b] for b in blocks]  # each line's cells, measured once
    widths = [max(lengths, default=0) for lengths in cells]
    plain: list[str] = []
    spans: list[Span] = []
    offset = 0
    space = " " * gap
    for row in range(height):
        if row:
            plain.append("\n")
            offset += 1
        for k, block in enumerate(blocks):
            if k:
                plain.append(space)
                offset += gap
            if row < len(block):
                cell = block[row]
                chars, used = cell.plain, cells[k][row]
                if cell.style:
                    spans.append(Span(offset, offset + len(chars), cell.style))
                if cell.spans:
                    spans.extend([Span(offset + start, offset + end, style) for start, end, style in cell.spans])
            else:
                chars, used = "", 0
            pad = widths[k] - used
            plain.append(chars + " " * pad if pad else chars)
            offset += len(chars) + pad
    return Text("".join(plain), spans=spans)


def big_pile_block(pile: PileView, *, memory: bool = False, marker: bool = True) -> list[Text]:
    """A pile as a big card: ``Π`` above it when closed (a blank line when
    ``marker`` and open), the top card with ``×n`` on its bottom edge, then
    what it scores (RULES §7) and the values of the cards beneath the top in
    brackets, bottom first (not in memory mode, RULES §8)."""
    lines = []
    if marker or pile.closed:
        lines.append(Text(f"  {TORII}   " if pile.closed else "", style="bold"))
    count = f"×{len(pile.cards)}" if len(pile.cards) < 10 else "×+"
    lines.extend(big_card_lines(pile.cards[-1], footer=count))
    below = "" if memory else ",".join(str(CARD_VALUE[c]) for c in pile.cards[:-1])
    lines.append(Text(f"={pile_points(pile)}", style="bold") + Text(f" ({below})" if below else "", style="dim"))
    return lines
