"""What each region of the table shows, as Rich ``Text`` from a small slice.

Each region's widget (``ui/widgets/table_regions.py``) holds one of these
frozen slices; equal slices draw the same text, so a widget whose slice did
not change is not redrawn. ``slices(...)`` cuts every slice from one view.
Pure: no Textual.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rich.text import Text

from ...engine import PlayerView
from ...engine.cards import CARD_VALUE, Card
from ...engine.rules_data import HAND_LIMIT, LANDSCAPES
from ...engine.view import SeatView
from .move_draft import HAND_KEYS, MoveDraft, Zone
from .render import (
    ACORN_SIGN, big_card_lines, big_pile_block, card_text, cards_text, click, display_columns, display_text,
    join_columns, leaf_name, objectives_text, panorama_text, row_points, row_text,
)

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
    """The status line: round, deck, torii, discard, whose turn."""

    view: PlayerView
    seat: int
    memory: bool
    thinking: str | None  # the name of the bot thinking, if any


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
        t.append(f"{s.thinking} is thinking…", style="italic")
    else:
        t.append(f"{v.seats[v.current].name}'s turn", style="italic")
    return t


@dataclass(frozen=True)
class DisplaySlice:
    """The display: its columns, those chosen, the cursor's column."""

    view: PlayerView
    chosen: tuple[str, ...]
    cursor: str | None
    big: bool


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
    """The objectives line: the view's objectives and owners, the cost now."""

    view: PlayerView
    cost: int
    pagoda: bool
    short: bool
    listed: bool


def objectives_region_text(s: ObjectivesSlice) -> Text:
    """``Objectives 3●: 1 Fallen Seeds  2 …`` (``render.objectives_text``)."""
    return objectives_text(s.view, s.cost, pagoda=s.pagoda, short=s.short, listed=s.listed)


@dataclass(frozen=True)
class SeatSlice:
    """Another seat's row: its public seat view and how to draw it."""

    seat: SeatView
    current: bool
    level: str | None
    memory: bool
    big: bool
    width: int


def opponent_text(s: SeatSlice) -> Text:
    """Head line (name, acorns, cards, points, panorama, cards seen) and row."""
    seat = s.seat
    t = Text()
    t.append("▶ " if s.current else "  ", style="bold")
    t.append(seat.name, style="bold")
    if s.level:
        t.append(f" ({s.level})", style="dim")
    cards = "card" if seat.hand_size == 1 else "cards"
    t.append(f"  {seat.acorns}{ACORN_SIGN} {seat.hand_size} {cards} · {row_points(seat)} pile pts")
    t.append("  ")
    t.append_text(panorama_text(seat, short=True))
    if seat.known:
        # Cards seen entering that hand (RULES §8): as many as fit the line.
        room = max(s.width, 40) - t.cell_len - 8
        fit = max(room // 5, 1)
        t.append("  seen ", style="dim")
        t.append_text(cards_text(seat.known[:fit]))
        if len(seat.known) > fit:
            t.append(f" +{len(seat.known) - fit}", style="dim")
    if s.big and seat.row:
        t.append("\n")
        marker = any(p.closed for p in seat.row)
        blocks = [big_pile_block(p, memory=s.memory, marker=marker) for p in seat.row]
        t.append_text(join_columns([[Text("  ")], *blocks], gap=2))
    else:
        t.append("\n    ")
        t.append_text(row_text(seat, memory=s.memory))
    return t


@dataclass(frozen=True)
class YouSlice:
    """Your own row: seat view, whose turn, how to draw it."""

    seat: SeatView
    current: bool
    memory: bool
    layout: Layout


def you_text(s: YouSlice) -> Text:
    """Your name, acorns, points, panorama (powers when tall) and row."""
    me, layout = s.seat, s.layout
    t = Text()
    t.append("▶ " if s.current else "  ", style="bold")
    t.append(me.name if me.name.lower() == "you" else f"{me.name} (you)", style="bold underline")
    t.append(f"  {me.acorns}{ACORN_SIGN} · {row_points(me)} pts  ")
    t.append_text(panorama_text(me, numbered=True, short=layout.width < 100))
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
            score = Text(f"={CARD_VALUE[p.cards[-1]] * len(p.cards)}", style="bold")
            block[-1] = score + block[-1]
            for line in block:
                line.stylize(click(f"pile('{p.leaf_type}')"))
            blocks.append(block)
        t.append("\n")
        t.append_text(join_columns(blocks, gap=2))
    else:
        t.append("\n    ")
        t.append_text(row_text(me, memory=s.memory, clickable=True, points=True))
    return t


@dataclass(frozen=True)
class HandSlice:
    """Your hand as shown, what is selected, the cursor, the keys."""

    hand: tuple[Card, ...]
    selected: tuple[Card, ...]
    cursor: int | None
    keys: tuple[str, ...]
    big: bool


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
        blocks = []
        for i, c in enumerate(hand):
            chosen = c in s.selected
            label_style = "bold reverse" if chosen else "bold"
            if i == s.cursor:
                label_style += " underline"
            label = Text("  ") + Text(s.keys[i] if i < len(s.keys) else "·", style=label_style)
            card = big_card_lines(c)
            block = [label, *card, Text("")] if chosen else [label, Text(""), *card]
            for line in block:
                line.stylize(click(f"card({i})"))
            blocks.append(block)
        if s.selected:
            t.append(f"  {len(s.selected)} selected", style="italic")
        t.append("\n")
        t.append_text(join_columns(blocks, gap=1))
        return t
    for i, c in enumerate(hand):
        chosen = c in s.selected
        cell = Text()
        cell.append(" [" if chosen else "  ", style="bold")
        badge_style = "bold reverse" if chosen else "bold"
        if i == s.cursor:
            badge_style += " underline"
        cell.append(s.keys[i] if i < len(s.keys) else "·", style=badge_style)
        cell.append_text(card_text(c))
        cell.append("]" if chosen else " ", style="bold")
        cell.stylize(click(f"card({i})"))
        t.append_text(cell)
    return t


def hand_slice(draft: MoveDraft, key: Callable[[str], str], big: bool) -> HandSlice:
    """The hand's slice from the move being built."""
    hand = tuple(draft.hand)
    cursor = draft.cursor[Zone.HAND] if draft.zone is Zone.HAND and draft.my_turn else None
    keys = tuple(key(f"table.card{k}") for k in HAND_KEYS[:len(hand)])
    return HandSlice(hand, tuple(draft.selected), cursor, keys, big)


def display_slice(draft: MoveDraft, view: PlayerView, big: bool) -> DisplaySlice:
    """The display's slice from the view and the move being built."""
    present = draft.present
    cursor = None
    if draft.zone is Zone.DISPLAY and present and draft.my_turn:
        cursor = present[draft.cursor[Zone.DISPLAY] % len(present)]
    return DisplaySlice(view, tuple(draft.columns), cursor, big)
