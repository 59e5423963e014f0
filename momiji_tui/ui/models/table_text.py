"""What each region of the table shows, as Rich ``Text`` from a small slice.

Each region's widget (``ui/widgets/table_regions.py``) holds one of these
frozen slices; equal slices draw the same text, so a widget whose slice did
not change is not redrawn. ``slices(...)`` cuts every slice from one view.
Pure: no Textual.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field

from rich.text import Text

from ...engine import PlayerView
from ...engine.cards import Card
from ...engine.rules_data import HAND_LIMIT, LANDSCAPES
from ...engine.view import SeatView
from .move_draft import HAND_KEYS, MoveDraft, Zone
from .render import (
    big_card_lines, big_pile_block, card_text, click, display_columns, display_text, join_columns, leaf_name,
    row_text, short_label,
)
from .standings import standings
from .table_fit import pack_tokens
from .table_heads import objectives_line, opponent_head, you_head

BIG_CARDS_HEIGHT = 34  # rows from which the display, your row and hand are drawn as big cards
BIG_OPPONENTS_HEIGHT = 50  # rows from which the other rows too, and objectives one per line


@dataclass(frozen=True)
class Layout:
    """The window's size as the renderers need it (columns, rows, table width)."""

    width: int
    height: int
    table_width: int

    @property
    def big(self) -> bool:
        """Your hand, row and the display as big cards (a tall window)."""
        return self.height >= BIG_CARDS_HEIGHT and self.width >= 70

    @property
    def tall(self) -> bool:
        """Room for the other rows as big cards and one objective per line."""
        return self.height >= BIG_OPPONENTS_HEIGHT


@dataclass(frozen=True)
class StatusSlice:
    """The status line: round, deck, torii, discard, whose turn. Compared by
    what it draws (``drawn``), not by the whole view: a play that leaves them
    as they were hands the line an equal slice, which is not drawn again."""

    view: PlayerView = field(compare=False)
    seat: int | None  # None: a spectator (no seat's turn is "yours")
    memory: bool
    thinking: str | None  # the name of the bot thinking, if any
    drawn: tuple[object, ...] = ()  # what ``status_text`` reads from the view (``status_slice``)


def status_slice(view: PlayerView, seat: int | None, memory: bool, thinking: str | None) -> StatusSlice:
    """The status line's slice of ``view`` for ``seat``."""
    drawn = (view.round, view.deck_size, view.torii_left, len(view.discard), view.discard[-1:], view.phase,
             view.end_trigger, view.current,
             view.seats[view.current].name if 0 <= view.current < len(view.seats) else None)
    return StatusSlice(view, seat, memory, thinking, drawn)


def status_text(s: StatusSlice) -> Text:
    """`` Round 2  Deck 30 · Torii 3 · Discard 4 •M1•  ▶ Your turn``."""
    v = s.view
    t = Text()
    t.append(f" Round {v.round} ", style="bold reverse")
    t.append(f" Deck {v.deck_size} · Torii {v.torii_left} · Discard {len(v.discard)}")
    if v.discard:
        t.append(" ")
        t.append_text(card_text(v.discard[-1]))
    if s.memory:
        t.append(" · memory", style="italic")
    t.append("  ")
    if v.end_trigger and v.phase == "play":
        t.append(" LAST ROUND ", style="bold reverse")
        t.append(" ")
    if v.phase == "ended":
        t.append("The game is over.", style="bold")
    elif v.current == s.seat:
        t.append(" ▶ Your turn ", style="bold reverse")
    elif s.thinking is not None:
        t.append(f"{short_label(s.thinking, 16)} is thinking…", style="italic")
    elif s.seat is None:  # a spectator: whose turn, in as few cells as the name allows
        t.append(f"▶ {short_label(v.seats[v.current].name, 16)}", style="italic")
    else:
        t.append(f"{short_label(v.seats[v.current].name, 16)}'s turn", style="italic")
    return t


@dataclass(frozen=True)
class DisplaySlice:
    """The display: its columns, those chosen, the cursor's column. Compared
    by what it draws (``drawn``), not by the whole view (see ``StatusSlice``)."""

    view: PlayerView = field(compare=False)
    chosen: tuple[str, ...]
    cursor: str | None
    big: bool
    drawn: tuple[object, ...] = ()  # what the display's text reads from the view (``display_slice``)


def display_region_text(s: DisplaySlice) -> Text:
    """The display by columns (big cards when ``big``); a chosen column is
    lifted or bracketed, the cursor underlines its letter."""
    columns = display_columns(s.view)
    if s.big and columns:
        blocks = [[Text("Display", style="bold"), Text(""), Text(""), Text("")]]
        for leaf, cards in columns:
            chosen = leaf in s.chosen
            label = Text(" ")
            label.append(leaf, style=("bold reverse" if chosen else "bold")
                         + (" underline" if leaf == s.cursor else ""))
            label.append(f" {leaf_name(leaf)}", style="dim")
            card_lines = join_columns([big_card_lines(c) for c in cards], gap=1).split("\n")
            block = [label, *card_lines, Text("")] if chosen else [label, Text(""), *card_lines]
            for line in block:
                line.stylize(click(f"column_click('{leaf}')"))
            blocks.append(block)
        return join_columns(blocks, gap=3)
    t = Text("Display ", style="bold")
    t.append_text(display_text(s.view, selected=s.chosen, cursor=s.cursor))
    return t


@dataclass(frozen=True)
class ObjectivesSlice:
    """The objectives line: the view's objectives, owners and race, the cost
    now, the line's width."""

    view: PlayerView
    cost: int
    pagoda: bool
    short: bool
    listed: bool
    width: int = 0


def objectives_region_text(s: ObjectivesSlice) -> Text:
    """``Objectives 3●: 1 Fallen Seeds [you] ▲3 you ✓  2 …`` with the race
    for each objective (``standings``; ``table_heads.objectives_line``)."""
    return objectives_line(s.view, standings(s.view), s.cost, pagoda=s.pagoda, short=s.short,
                           listed=s.listed, width=s.width)


@dataclass(frozen=True)
class SeatSlice:
    """Another seat's row: its public seat view and how to draw it."""

    seat: SeatView
    current: bool
    level: str | None
    memory: bool
    big: bool
    width: int
    score: int = 0  # the live score (RULES §7)
    leads: bool = False


def opponent_text(s: SeatSlice) -> Text:
    """Head line (name, acorns, cards, live score, panorama, cards seen) and
    row, each line fitted to ``width``."""
    seat = s.seat
    t = opponent_head(seat, current=s.current, level=s.level, score=s.score, leads=s.leads, width=s.width)
    if s.big and seat.row:
        t.append("\n")
        marker = any(p.closed for p in seat.row)
        blocks = [big_pile_block(p, memory=s.memory, marker=marker) for p in seat.row]
        t.append_text(join_columns([[Text("  ")], *blocks], gap=2))
    else:
        t.append("\n  ")
        t.append_text(row_text(seat, memory=s.memory, width=s.width - 2, indent="  "))
    return t


@dataclass(frozen=True)
class YouSlice:
    """Your own row: seat view, whose turn, how to draw it."""

    seat: SeatView
    current: bool
    memory: bool
    layout: Layout
    score: int = 0  # the live score (RULES §7)
    leads: bool = False


def you_text(s: YouSlice) -> Text:
    """Your name, acorns, live score, panorama (powers when tall) and row."""
    me, layout = s.seat, s.layout
    width = layout.table_width - 2
    t = you_head(me, current=s.current, score=s.score, leads=s.leads, width=width)
    if layout.tall:
        for i, lid in enumerate(me.panorama, 1):
            part, name, power = LANDSCAPES[lid]
            used = lid in me.used
            t.append("\n    ")
            t.append(f"{i} {name} ({part}): {power}" + (" — used" if used else ""),
                     style="dim strike" if used else "dim")
    if layout.big and me.row:
        blocks = []
        marker = any(p.closed for p in me.row)
        for p in me.row:
            block = big_pile_block(p, memory=s.memory, marker=marker)
            for line in block:
                line.stylize(click(f"pile('{p.leaf_type}')"))
            blocks.append(block)
        t.append("\n")
        t.append_text(join_columns(blocks, gap=2))
    else:
        t.append("\n  ")
        t.append_text(row_text(me, memory=s.memory, clickable=True, width=width - 2, indent="  "))
    return t


@dataclass(frozen=True)
class HandSlice:
    """Your hand as shown, what is selected, the cursor, the keys."""

    hand: tuple[Card, ...]
    selected: tuple[Card, ...]
    cursor: int | None
    keys: tuple[str, ...]
    big: bool
    width: int = 0  # the region's width: a card never wraps away from its key


def hand_text(s: HandSlice) -> Text:
    """``Hand 4/10  1•M0 2 C1•…``; selected cards bracketed (or lifted when big)."""
    hand = s.hand
    t = Text(f"Hand {len(hand)}/{HAND_LIMIT}", style="bold")
    if len(hand) > HAND_LIMIT:
        t.stylize("reverse")
    if not hand:
        t.append("  (empty)", style="dim")
        return t
    if s.big:
        blocks = [_big_hand_card(c, i, c in s.selected, i == s.cursor, s.keys[i] if i < len(s.keys) else "·")
                  for i, c in enumerate(hand)]
        if s.selected:
            t.append(f"  {len(s.selected)} selected", style="italic")
        t.append("\n")
        t.append_text(join_columns(blocks, gap=1))
        return t
    cells = [_hand_chip(c, i, c in s.selected, i == s.cursor, s.keys[i] if i < len(s.keys) else "·")
             for i, c in enumerate(hand)]
    return pack_tokens([t, *cells], s.width, sep=" ")


def _key_style(chosen: bool, under_cursor: bool) -> str:
    """The style of a hand card's key: reversed when chosen, underlined under the cursor."""
    return ("bold reverse" if chosen else "bold") + (" underline" if under_cursor else "")


@functools.lru_cache(maxsize=1024)
def _hand_chip(card: Card, index: int, chosen: bool, under_cursor: bool, key: str) -> Text:
    """Hand card ``index`` as a chip after its key (``1•M0``), bracketed when
    ``chosen``; a click selects it. Made once for each way it looks (only
    read: ``pack_tokens`` copies it)."""
    cell = Text()
    cell.append("[" if chosen else " ", style="bold")
    cell.append(key, style=_key_style(chosen, under_cursor))
    cell.append_text(card_text(card))
    cell.append("]" if chosen else " ", style="bold")
    cell.stylize(click(f"card({index})"))
    return cell


@functools.lru_cache(maxsize=1024)
def _big_hand_card(card: Card, index: int, chosen: bool, under_cursor: bool, key: str) -> tuple[Text, ...]:
    """The lines of hand card ``index`` drawn big, its key above it, lifted a
    line when ``chosen``; a click selects it. Made once for each way it
    looks (the lines are only read: ``join_columns`` copies them)."""
    label = Text("  ") + Text(key, style=_key_style(chosen, under_cursor))
    lines = big_card_lines(card)
    block = [label, *lines, Text("")] if chosen else [label, Text(""), *lines]
    for line in block:
        line.stylize(click(f"card({index})"))
    return tuple(block)


def hand_slice(draft: MoveDraft, key: Callable[[str], str], big: bool, width: int = 0) -> HandSlice:
    """The hand's slice from the move being built (``width``: the region's)."""
    hand = tuple(draft.hand)
    cursor = draft.cursor[Zone.HAND] if draft.zone is Zone.HAND and draft.my_turn else None
    keys = tuple(key(f"table.card{k}") for k in HAND_KEYS[:len(hand)])
    return HandSlice(hand, tuple(draft.selected), cursor, keys, big, width)


def display_slice(draft: MoveDraft, view: PlayerView, big: bool) -> DisplaySlice:
    """The display's slice from the view and the move being built."""
    present = draft.present
    cursor = None
    if draft.zone is Zone.DISPLAY and present and draft.my_turn:
        cursor = present[draft.cursor[Zone.DISPLAY] % len(present)]
    drawn = (tuple(view.display), tuple(view.types), view.deck_size > 0)
    return DisplaySlice(view, tuple(draft.columns), cursor, big, drawn)
