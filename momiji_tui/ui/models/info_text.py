"""What the info key says: a short explanation of one thing on
the table, shown in the message line without leaving the table. ``info_items``
lists the things in the order the key steps through them: the hand card or
display column under the cursor, each revealed objective (its race), each of
your landscapes. Pure: no Textual."""

from __future__ import annotations

from rich.text import Text

from ...engine import PlayerView
from ...engine.cards import CARD_LEFT_ACORN, CARD_RIGHT_ACORN, CARD_TYPE, CARD_VALUE, Card
from ...engine.rules_data import LANDSCAPES, OBJECTIVE_OTHER_POINTS, OBJECTIVE_OWNER_POINTS, OBJECTIVE_TEXT
from .render import ACORN_SIGN, TORII, card_text, cards_text, display_columns, leaf_name
from .standings import Standing, leader_text, seat_label, standings

NAME_CELLS = 12  # a seat's name in an explanation (two lines at 80 columns)


def card_info(card: Card) -> Text:
    """``•M2 Maple 2, an acorn in its left corner: goes on your Maple pile
    topped by 1 or 2; a 3 closes it with a torii Π (RULES §1.2, §4.2).``"""
    t, value = CARD_TYPE[card], CARD_VALUE[card]
    corners = [side for side, has in (("left", CARD_LEFT_ACORN[card]), ("right", CARD_RIGHT_ACORN[card])) if has]
    out = card_text(card)
    out.append(f" {leaf_name(t)} {value}, ")
    out.append(f"an acorn in its {' and '.join(corners)} corner{'s' if len(corners) > 1 else ''}"
               if corners else "no acorn")
    if value == 0:
        article = "an" if leaf_name(t)[:1] in "AEIOU" else "a"  # an Oak
        out.append(f": starts {article} {leaf_name(t)} pile at either end of your row")
    else:
        out.append(f": goes on your {leaf_name(t)} pile topped by {value - 1} or {value}")
    if value == 3:
        out.append(f", closing it with a torii {TORII}")
    out.append(" (RULES §1.2, §4.2).")
    return out


def column_info(view: PlayerView, leaf_type: str) -> Text:
    """``Display column G (Ginkgo): •G2 •G3 — c collects them all (RULES §4.1).``"""
    cards = dict(display_columns(view)).get(leaf_type, [])
    out = Text(f"Display column {leaf_type} ({leaf_name(leaf_type)}): ")
    out.append_text(cards_text(cards))
    out.append(" — collecting takes every card of the column (RULES §4.1).")
    return out


def objective_info(view: PlayerView, number: int, standing: Standing) -> Text:
    """``Objective 2 Squirrel's Store: most acorns. Owner Kaede. Leads: you
    (5), you meet it. Met: owner 10, others 3 (§7).`` (two lines at 80
    columns: "Leads" is the ▲ of the objectives' line)."""
    out = Text()
    out.append(f"Objective {number} {standing.name}", style="bold")
    out.append(f": {OBJECTIVE_TEXT[standing.objective]}. ")
    if standing.owner is None:
        out.append(f"Unowned (3{ACORN_SIGN} to activate, §4.3). ")
    else:
        out.append(f"Owner {seat_label(view, standing.owner, NAME_CELLS)}. ")
    out.append(f"Leads: {leader_text(view, standing, NAME_CELLS)}")
    out.append(", you meet it. " if standing.you_meet else ". ")
    out.append(f"Met: owner {OBJECTIVE_OWNER_POINTS}, others {OBJECTIVE_OTHER_POINTS} (§7).")
    return out


def landscape_info(number: int, landscape: str, used: bool) -> Text:
    """``Landscape 2 Waterfall (midday, used): reveal … — once per game, 1● (RULES §4.5).``"""
    part, name, power = LANDSCAPES[landscape]
    out = Text()
    out.append(f"Landscape {number} {name}", style="bold")
    out.append(f" ({part}{', used' if used else ''}): {power} — once per game, 1{ACORN_SIGN}, "
               "a free action (RULES §4.5).")
    return out


def info_items(view: PlayerView, card: Card | None = None, column: str | None = None) -> list[Text]:
    """Every explanation the info key steps through, in order: ``card`` (the
    hand card under the cursor) or ``column`` (the display column under it),
    then each revealed objective, then each of the viewer's landscapes.
    Raises nothing."""
    items = []
    if card is not None:
        items.append(card_info(card))
    elif column is not None:
        items.append(column_info(view, column))
    items += [objective_info(view, i, s) for i, s in enumerate(standings(view), 1)]
    me = view.me
    if me is not None:
        items += [landscape_info(i, lid, lid in me.used) for i, lid in enumerate(me.panorama, 1)]
    return items
