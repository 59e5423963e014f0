"""Help: the rules in brief with RULES section numbers, every landscape
power, every objective, and the keys."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import Footer, MarkdownViewer

from ..engine.rules_data import (
    LANDSCAPES, LEAF_NAMES, OBJECTIVE_NAMES, OBJECTIVE_TEXT, PARTS, STARTER_PANORAMA,
)

KEYS = """\
## Keys
| key | does |
|---|---|
| `1`–`0`, `←` `→` `space` | select hand cards |
| `c` | collect a column of the display (§4.1) |
| `r` | pay 1 acorn to reveal 4 cards, then collect (§4.1) |
| `p` | play the selected cards (§4.2) |
| `s` | new piles go to the left / right end of your row (§4.2) |
| `o` | activate an objective, 3 acorns (§4.3) |
| `x` | exchange: discard the 2 selected cards for 1 acorn (§4.4) |
| `l` | use a landscape power, 1 acorn (§4.5) |
| `d` | discard the selected cards down to 8 (§5.1) |
| `e` | end your turn (passes if no main action is possible) |
| `Esc` | clear the selection / close a dialog |
| `m` | memory mode: piles show only their top card (§8) |
| `q` | back to the menu (the game is saved after every move) |
| `F1` / `?` | this help · `ctrl+p` command palette · `ctrl+q` quit |
"""

RULES = """\
# Momiji — how to play

Collect autumn leaves, build piles, close them with torii, spend acorns.
Highest score wins (§7).

## Your turn (§3)
Take exactly **one main action** — collect (§4.1), play (§4.2) or activate an
objective (§4.3) — and, before or after it, each **free action** at most once:
exchange (§4.4) and one landscape (§4.5). If no main action is possible you pass.
At the end: keep at most 8 cards (§5.1), the display is refilled to 4 (§5.2).

## Collect (§4.1)
Take every card of one column (leaf type) of the display. Before choosing you may
pay 1 acorn to reveal the next 4 deck cards into the display.

## Play (§4.2)
1 or 2 cards of **one type** onto that type's pile, or 2+ cards of **different
types**, one per pile. A pile begins with a 0; a card must equal the top card or
be exactly 1 higher. A 3 closes the pile with a torii: no more cards, and no new
pile of that type. New piles go at the left or right end of your row.
After a mixed play, each neighbouring pair of piles whose tops show acorns on
the touching corners (`•` right of the left card, left of the right card) pays
2 acorns.

## Objectives (§1.4, §4.3, §7)
Pay 3 acorns to own a revealed objective. At the end, the best seat(s) with at
least 1 meet it: the owner scores 10, every other seat meeting it scores 3; an
owner who misses scores 0.

## End and scoring (§6, §7)
The end is triggered when the deck is empty or the torii supply is used up; the
round is finished so everyone has the same number of turns. Each pile scores
top card × cards; each acorn 1; objectives as above; hand cards nothing.
Ties: more acorns wins; still tied, the victory is shared.
"""


def landscapes_md() -> str:
    """Every landscape power, by part of the panorama (§1.5)."""
    out = ["## Landscapes (§1.5) — once per game, 1 acorn, a free action\n"]
    when = {"sunrise": "any time in your turn", "midday": "before your main action",
            "dusk": "any time in your turn"}
    for part in PARTS:
        out.append(f"\n**{part.capitalize()}** ({when[part]})\n")
        for lid, (p, name, power) in LANDSCAPES.items():
            if p == part:
                out.append(f"- **{name}** — {power}")
    starter = ", ".join(LANDSCAPES[x][1] for x in STARTER_PANORAMA)
    out.append(f"\nStarter panorama: {starter}.")
    return "\n".join(out) + "\n"


def objectives_md() -> str:
    """Every objective token (§1.4)."""
    rows = ["## Objective tokens (§1.4)\n", "| token | best = |", "|---|---|"]
    for oid, name in OBJECTIVE_NAMES.items():
        rows.append(f"| {name} | {OBJECTIVE_TEXT[oid]} |")
    leaves = ", ".join(f"{k} = {v}" for k, v in LEAF_NAMES.items())
    return "\n".join(rows) + f"\n\nLeaf types: {leaves}.\n"


def help_markdown() -> str:
    """The whole help text."""
    return "\n".join([RULES, KEYS, landscapes_md(), objectives_md()])


class HelpScreen(ModalScreen[None]):
    """The rules summary, powers, objectives and keys; Esc closes."""

    BINDINGS = [
        Binding("escape,q,f1,question_mark", "close", "Close", id="help.close"),
    ]

    def compose(self) -> ComposeResult:
        yield MarkdownViewer(help_markdown(), show_table_of_contents=False, id="help")
        yield Footer()

    def action_close(self) -> None:
        """Close the help."""
        self.dismiss(None)
