"""The table's head lines: each seat's name, acorns, cards, live
score (the leader starred) and panorama, and the objectives line with the
race for each objective, all packed to the line's width so that nothing is
ever wrapped mid-word. Pure: no Textual."""

from __future__ import annotations

from functools import lru_cache

from rich.text import Text

from ...engine import PlayerView
from ...engine.rules_data import OBJECTIVE_TEXT
from ...engine.view import SeatView
from .live_score import LEADER
from .render import ACORN_SIGN, SHORT_NAMES, cards_text, panorama_text, short_label
from .standings import Standing
from .table_fit import fit_tokens, pack_tokens

BEST = "▲"  # before who measures best for an objective now (RULES §1.4)
MEETS = "✓"  # you meet that objective now
WIDE = 100  # from this table width, names are shown whole
OBJECTIVE_LINES = 3  # the objectives line never takes more (narrow windows)
TOKENS_KEPT = 256  # objective tokens kept (a few per table: every session of a server shares them)


def name_cells(width: int) -> int:
    """How many cells a seat's name may take on a head line ``width`` wide."""
    return 40 if width >= WIDE else 12


def score_token(score: int, leads: bool) -> Text:
    """``score 31 ★``: what the seat would score if the game ended now
    (RULES §7), starred when it leads."""
    t = Text(f"score {score}", style="bold")
    if leads:
        t.append(f" {LEADER}", style="bold")
    return t


def panorama_tokens(seat: SeatView, *, numbered: bool = False) -> list[Text]:
    """One token per landscape of the seat's panorama, short names; a used
    one struck through and ticked (``2 Waterfall ✓``)."""
    out = []
    for i, lid in enumerate(seat.panorama, 1):
        label = f"{i} {SHORT_NAMES[lid]}" if numbered else SHORT_NAMES[lid]
        used = lid in seat.used
        out.append(Text(label + (" ✓" if used else ""), style="dim strike" if used else ""))
    return out


def opponent_head(seat: SeatView, *, current: bool, level: str | None, score: int, leads: bool,
                  width: int) -> Text:
    """Another seat's head line, one line of ``width`` cells: ``▶ Kaede
    (easy)  2● 5 cards  score 31 ★  Spring  Waterfall ✓  Pier  seen •M2•``
    (what does not fit is left out, ``…`` says so; RULES §8: the cards seen
    entering that hand)."""
    cards = "card" if seat.hand_size == 1 else "cards"
    rest = [Text(f"{seat.acorns}{ACORN_SIGN} {seat.hand_size} {cards}"), score_token(score, leads),
            *panorama_tokens(seat)]

    def name_token(cells: int) -> Text:
        name = Text("▶ " if current else "  ", style="bold")
        name.append(short_label(seat.name, cells), style="bold")
        if level:
            name.append(f" ({level})", style="dim")
        return name

    # The whole name when the whole line fits; else cut to the cells a narrow table allows.
    whole = name_token(len(seat.name))
    if sum(t.cell_len for t in [whole, *rest]) + 2 * len(rest) > width:
        whole = name_token(name_cells(width))
    tokens = [whole, *rest]
    line = fit_tokens(tokens, width)
    if seat.known and not line.plain.endswith("…"):
        room = width - line.cell_len - len("  seen ")
        fit = min(len(seat.known), max(room - 3, 0) // 5)
        seen = Text("  seen ", style="dim")
        if fit:
            seen.append_text(cards_text(seat.known[:fit]))
            if fit < len(seat.known):
                seen.append(f" +{len(seat.known) - fit}", style="dim")
        else:
            seen.append(str(len(seat.known)), style="dim")
        if line.cell_len + seen.cell_len <= width:
            line.append_text(seen)
    return line


def you_head(seat: SeatView, *, current: bool, score: int, leads: bool, width: int) -> Text:
    """Your head line: ``▶ Ayu (you)  3●  score 31 ★  1 Spring ✓  2 …``
    (landscapes numbered as ``a`` offers them)."""
    name = Text("▶ " if current else "  ", style="bold")
    label = short_label(seat.name, name_cells(width))
    name.append(label if label.lower() == "you" else f"{label} (you)", style="bold underline")
    tokens = [name, Text(f"{seat.acorns}{ACORN_SIGN}"), score_token(score, leads)]
    if width >= WIDE:
        tokens.append(panorama_text(seat, numbered=True))
    else:
        tokens += panorama_tokens(seat, numbered=True)
    return fit_tokens(tokens, width)


def who_best(view: PlayerView, standing: Standing, cells: int) -> str:
    """``▲5 Kaede``, ``▲3 you,Kaede``: the best count now and who has it;
    ``▲none`` while nobody has 1."""
    return _who_best(view.seat, tuple(s.name for s in view.seats), standing, cells)


def _who_best(seat: int | None, names: tuple[str, ...], standing: Standing, cells: int) -> str:
    if not standing.leaders:
        return f"{BEST}none"
    best = ",".join("you" if i == seat else short_label(names[i], cells) for i in standing.leaders)
    return f"{BEST}{standing.best} {best}"


def objective_token(view: PlayerView, number: int, standing: Standing, cells: int, *, text: bool) -> Text:
    """One objective: number, name, ``[owner]``, who measures best now and
    ``✓`` when you meet it (RULES §1.4, §4.3); ``text`` adds what it counts."""
    return _objective_token(number, standing, cells, text, view.seat, tuple(s.name for s in view.seats)).copy()


@lru_cache(maxsize=TOKENS_KEPT)
def _objective_token(number: int, standing: Standing, cells: int, text: bool, seat: int | None,
                     names: tuple[str, ...]) -> Text:
    """``objective_token`` for the viewer ``seat`` among seats ``names``,
    kept: an objective whose race did not change is not written again. Shared:
    never change what it returns."""
    t = Text()
    t.append(f"{number}", style="bold")
    t.append(f" {standing.name}", style="dim" if standing.owner is not None else "")
    if standing.owner is not None:
        owner = "you" if standing.owner == seat else short_label(names[standing.owner], cells)
        t.append(f" [{owner}]", style="bold")
    t.append(f" {_who_best(seat, names, standing, cells)}", style="italic")
    if standing.you_meet:
        t.append(f" {MEETS}", style="bold")
    if text:
        t.append(f" ({OBJECTIVE_TEXT[standing.objective]})", style="dim")
    return t


def objectives_line(view: PlayerView, race: tuple[Standing, ...], cost: int, *, pagoda: bool, short: bool,
                    listed: bool, width: int) -> Text:
    """``Objectives 3●: 1 Fallen Seeds [you] ▲3 you ✓  2 …``: the revealed
    objectives, their owners and the race for each (RULES §1.4, §4.3, §7);
    packed in lines of ``width`` (names shortened until three lines do),
    or one per line with what each counts when ``listed``."""
    head = Text("Objectives", style="bold")
    head.append(f" {cost}{ACORN_SIGN}" + (" (Pagoda)" if pagoda else ""), style="bold" if pagoda else "")
    head.append(":")
    names = tuple(s.name for s in view.seats)
    if listed:
        out = head.copy()
        for i, standing in enumerate(race, 1):
            out.append("\n  ")
            out.append_text(_objective_token(i, standing, 40, False, view.seat, names))  # read, not changed
            out.append(f" — {OBJECTIVE_TEXT[standing.objective]}", style="dim")
        return out
    text = Text()
    for cells in (40 if width >= WIDE else 12, 8, 6):
        # The tokens kept are only read here (``pack_tokens`` copies them into its text).
        tokens = [head, *(_objective_token(i, s, cells, not short, view.seat, names) for i, s in enumerate(race, 1))]
        text = pack_tokens(tokens, width)
        if len(text.plain.split("\n")) <= OBJECTIVE_LINES:
            break
    return text
