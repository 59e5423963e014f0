"""What the landscape draft shows of a round's offer (RULES §2.1): each
landscape still offered with its number, name and power, each one taken with
who took it, and the note on that part's powers. Wrapped lines stay under
their entry (``Hanging``). Pure: no Textual.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.console import RenderableType
from rich.text import Text

from ...engine import PlayerView
from ...engine.rules_data import LANDSCAPES
from .hanging import Hanging
from .render import click

#: When each part's powers may be used (RULES §1.5).
PART_WHEN = {"sunrise": "any time in your turn", "midday": "before your main action, boosts it",
             "dusk": "any time in your turn"}

#: Where a landscape's name starts (after `` 1 `` and two spaces) and where its power does.
NAME_AT, POWER_AT = 5, 6


def offer_entries(offer: Sequence[str], takers: Mapping[str, str], *, mine: bool) -> list[Hanging]:
    """The offer's lines: a landscape still offered as its number (``1``…,
    reversed when it is the player's pick, ``mine``), name and power, all of it
    clickable to pick it; one taken (in ``takers``: landscape id → the seat's
    name) struck through, with who took it. Raises ``KeyError`` for an id not
    in ``LANDSCAPES``."""
    entries: list[Hanging] = []
    number = 0
    for lid in offer:
        _, name, power = LANDSCAPES[lid]
        if lid in takers:
            body = Text.assemble((name, "dim strike"), (f"  taken by {takers[lid]}", "italic dim"))
            entries.append(Hanging(Text(" " * NAME_AT), body))
            continue
        number += 1
        pick = click(f"pick({number})")
        head = Text.assemble((f" {number} ", "bold reverse" if mine else "bold"), ("  ", "bold"))
        head.stylize(pick)
        body = Text(name, style="bold")
        body.stylize(pick)
        entries.append(Hanging(head, body, pad_style=pick))
        entries.append(Hanging(Text(" " * POWER_AT, style=pick), Text(power, style=pick), pad_style=pick))
    return entries


def powers_note(part: str, cost: str) -> Text:
    """The note under the offer: when ``part``'s powers are used and what
    each costs (``cost``, the game's rules version: RULES §1.5, §4.5)."""
    return Text(f"{part.capitalize()} powers: {PART_WHEN[part]}; each once per game, {cost} (RULES §1.5).",
                style="dim")


def panorama_entries(view: PlayerView, viewer: int | None) -> list[RenderableType]:
    """"Panoramas so far" (bold): a line per seat (``You`` for ``viewer``, an arrow
    at the seat choosing now) with the landscapes it drafted, in the order
    drafted (RULES §2.1); a long line wraps under the landscapes."""
    out: list[RenderableType] = [Text("Panoramas so far", style="bold")]
    for i, seat in enumerate(view.seats):
        head = Text("  → " if i == view.current else "    ", style="bold")
        head.append(("You" if i == viewer else seat.name) + ": ")
        out.append(Hanging(head, Text(" · ".join(LANDSCAPES[x][1] for x in seat.panorama) or "—", style="bold")))
    return out
