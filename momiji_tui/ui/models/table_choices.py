"""The choosers the table opens: which column, objective, landscape or
table card (``ChoiceScreen`` options). An option the rules refuse now is
shown dimmed with the engine's reason (``MoveDraft``)."""

from __future__ import annotations

from typing import Literal

from rich.text import Text

from ...engine import PlayerView
from ...engine.cards import CARD_TYPE, CARD_VALUE
from ...engine.rules_data import LANDSCAPES, LEAF_TYPES
from .choice import Choice
from .move_draft import HAND_KEYS, MoveDraft
from .render import card_text, cards_text, display_columns, leaf_name, objective_label
from .standings import Standing, leader_text, seat_label, standings


def column_choices(view: PlayerView, chosen: list[str]) -> list[Choice]:
    """The display's columns not chosen yet (RULES §4.1)."""
    return [Choice(t, Text(f"{leaf_name(t)}: ") + cards_text(cards), t)
            for t, cards in display_columns(view) if t not in chosen]


def objective_choices(draft: MoveDraft, *, moongate: bool = False) -> list[Choice]:
    """Every revealed objective with its standing (owner, who leads, your
    count: RULES §1.4, §7); those refused now carry the reason (RULES §4.3)."""
    view = draft.view
    assert view is not None
    return [Choice(str(i), Text(objective_label(o)) + standing_text(view, s), o,
                   draft.objective_reason(o, moongate=moongate))
            for i, (o, s) in enumerate(zip(view.objectives, standings(view), strict=True), 1)]


def standing_text(view: PlayerView, standing: Standing) -> Text:
    """`` · owner Kaede · best: you (3) ✓`` (dim): who owns the objective,
    who leads, and whether you meet it (else your count), for its choice."""
    owner = "no owner" if standing.owner is None else f"owner {seat_label(view, standing.owner)}"
    t = Text(f" · {owner} · best: {leader_text(view, standing)}", style="dim")
    if view.seat is not None:
        t.append(" ✓" if standing.you_meet else f" · you {standing.measures[view.seat]} ✗")
    return t


def landscape_choices(draft: MoveDraft) -> list[Choice]:
    """Your landscapes; those refused now carry the reason (RULES §1.5, §4.5)."""
    me = draft.view.me if draft.view is not None else None
    assert me is not None
    out = []
    for i, lid in enumerate(me.panorama, 1):
        part, name, power = LANDSCAPES[lid]
        out.append(Choice(str(i), f"{name} ({part}): {power}", lid, draft.landscape_reason(lid)))
    return out


def table_card_choices(view: PlayerView, source: Literal["display", "discard"]) -> list[Choice]:
    """The distinct cards of the display or the discard pile, in type and value order."""
    cards = view.discard if source == "discard" else view.display
    unique = sorted(set(cards), key=lambda c: (LEAF_TYPES.index(CARD_TYPE[c]), CARD_VALUE[c], c))
    return [Choice(HAND_KEYS[i] if i < 10 else "·", card_text(c), c) for i, c in enumerate(unique)]
