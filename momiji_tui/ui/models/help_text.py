"""The help text (markdown): the rules in brief with RULES section numbers,
every landscape power, every objective, and the table's keys. Pure text."""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import Protocol

from ...engine.rules_data import (
    ACORN_PAIR_GAIN, CURRENT_RULES, EXCHANGE_DISCARD, EXCHANGE_GAIN, HAND_LIMIT, LANDSCAPES, LEAF_NAMES,
    OBJECTIVE_COST, OBJECTIVE_NAMES, OBJECTIVE_OTHER_POINTS, OBJECTIVE_OWNER_POINTS, OBJECTIVE_TEXT, PARTS,
    REVEAL_COST, REVEAL_COUNT, STARTER_PANORAMA, HouseRules, landscape_cost_text,
)
from .keymap import keymap_path

CARDS = """\
## Reading the table
- A card is a chip `•M2•`: the **type letter** (M Maple, G Ginkgo, C Cherry,
  O Oak, Z Zelkova, K Katsura), the **value**, and a `•` in each bottom corner
  that shows an **acorn** (§1.2). The colour only repeats the letter.
- A pile, on every seat's row: `•C2•×4=8 (0,0,1)` is its top card, `×4` its
  number of cards, `=8` what it scores now (top value × cards, §7), and in
  brackets the values of the cards beneath the top, bottom first (all of the
  pile's type; played cards are public, §8; not shown in memory mode). `Π`
  marks a pile closed by a torii. On a narrow screen the longest piles drop
  their brackets first.
- Each seat's line: acorns `●`, cards in hand, **score** = what the seat would
  score if the game ended now (piles + acorns + objectives, §7); `★` marks the
  leader(s). `=` shows the score's breakdown.
- Landscapes: a used one is struck through and ticked `✓`.
- `seen •M2• +2`: cards every seat saw enter that hand (collected from the
  display, §8), and how many more than fit.
- The display shows one column per leaf type, every card with its value.
- Objectives show their cost (3●, 2● with Pagoda), their owner `[name]`, then
  `▲5 Kaede`: the best count now and who has it (`▲none`: nobody has 1 yet),
  and `✓` when you meet it now (§1.4). Long names are shortened in the middle.
- `i` explains the hand card or display column under the cursor; pressed
  again, each objective, then each of your landscapes (in the message line).
- `●` counts acorns. The preview line shows what ⏎ would do: where each card
  lands, new piles and their end, acorn pairs that pay, what each pile will
  be worth, and a torii if one closes.
"""


def home_short(path: Path) -> str:
    """``path`` with the home folder written ``~`` (a shorter line to read)."""
    try:
        return "~/" + path.relative_to(Path.home()).as_posix()
    except ValueError:
        return str(path)


class KeyNamer(Protocol):
    """Says which key a player presses for a binding id now (the app)."""

    def key_for(self, binding_id: str) -> str: ...


def keys_md(app: KeyNamer | None = None, known: Collection[str] = (), rules: HouseRules = CURRENT_RULES) -> str:
    """The table's keys, with the user's key map applied when ``app`` is given
    (binding ids in the last column, for ``keymap.toml``, when in ``known``:
    the table screen's binding ids); landscape costs under ``rules`` (§4.5)."""

    def key(binding_id: str, default: str) -> str:
        return app.key_for(binding_id) if app is not None else default

    rows = [
        ("table.card1", "1", "1–0, then b f n v w: select a hand card, the key drawn before it "
                              "(click works too)"),
        ("table.type_M", "M", "M G C O Z K (shift+letter): select that display column to collect; "
                              "while building a play, add the card that fits that pile"),
        ("table.confirm", "⏎", "do what the preview shows (play, collect, landscape, discard)"),
        ("table.play", "p", "play the selected cards (§4.2)"),
        ("table.collect", "c", "collect the selected column, or choose one (§4.1)"),
        ("table.reveal", "r", "pay 1 acorn to reveal 4 cards, then collect (§4.1)"),
        ("table.ends", "s", "other ends of the row for the new piles (§4.2)"),
        ("table.objective", "o", "activate an objective (§4.3)"),
        ("table.exchange", "x", "exchange the 2 selected cards for 1 acorn (§4.4)"),
        ("table.landscape", "a", f"use a landscape power, {landscape_cost_text(rules, LANDSCAPES)} (§4.5)"),
        ("table.discard", "d", "discard the selected cards down to 8 (§5.1)"),
        ("table.end_turn", "e", "end your turn (passes if no main action is possible)"),
        ("table.undo", "u", "take back this turn's actions (not past a reveal or a draw)"),
        ("table.hint", "t", "hint: Hard's suggestion from your view; ⏎ plays it, Esc cancels"),
        ("table.back", "Esc", "step back: cancel, clear the selection"),
        ("table.left", "←", "← → (h l) move the cursor; ↑ ↓ (k j) display / hand; space selects"),
        ("table.memory", "m", "memory mode: piles show only their top card (§8)"),
        ("table.info", "i", "explain the card or column under the cursor; again: each objective, landscape"),
        ("table.score", "=", "the live score's breakdown: piles, acorns, objectives if the game ended now (§7)"),
        ("table.menu", "q", "back to the menu (the game is saved after every move)"),
        ("table.skip_step", "N", "Learn to play: do it for me (plays the step shown, ending the turn if it does)"),
        ("app.help", "?", "this help (F1 too); ctrl+p command palette; ctrl+q quit"),
        ("app.rules", "F2", "the rules in full (docs/RULES.md), at the section the message line cites"),
    ]
    lines = ["## Keys at the table", "", "| key | does | id |", "|---|---|---|"]
    for binding_id, default, text in rows:
        shown = key(binding_id, default)
        if binding_id == "table.card1":
            shown = f"{shown}…"
        ident = binding_id if binding_id in known or binding_id.startswith("app.") else ""
        lines.append(f"| `{shown}` | {text} | `{ident}` |")
    lines += [
        "",
        "Keys that do not apply now are left out of the footer; pressing one says why.",
        "",
        "**Mouse**: click a hand card to select it; a display column to select it, and again "
        "to collect it; one of your piles to add the card that fits it; the ⏎ button of the "
        "preview line to confirm.",
        "",
        f"**Your own keys**: put `binding id = \"keys\"` lines in `{home_short(keymap_path())}` "
        "(TOML; or JSON in a `.json` file named by `$MOMIJI_KEYMAP`), e.g. "
        "`\"table.collect\" = \"g\"`. Restart to apply.",
        "",
    ]
    return "\n".join(lines)


OBJECTIVE_COST_TEXT = (f"To **activate** a revealed objective, pay {OBJECTIVE_COST} acorns (a main action, `o`): "
                       "you own it.")
STARTER_POWERS = "\n".join(f"- **{LANDSCAPES[x][1]}** ({LANDSCAPES[x][0]}): {LANDSCAPES[x][2]}"
                            for x in STARTER_PANORAMA)

RULES = f"""\
# Momiji — how to play

Collect autumn leaves, build piles, close them with torii, spend acorns.
Highest score wins (§7). This is the rules in brief; `F2` opens the rules of
record in full (at the section a message cites). New to Momiji? *Learn to
play* in the menu (or `momiji learn`) is a guided first game.

## Your turn (§3)
Take exactly **one main action** — collect (§4.1), play (§4.2) or activate an
objective (§4.3) — and, before or after it, each **free action** at most once:
an exchange (§4.4) and one landscape (§4.5). If no main action is possible you
pass. At the end: keep at most {HAND_LIMIT} cards (§5.1), the display is
refilled to 4 (§5.2).

## Collect (§4.1)
Take every card of one column (leaf type) of the display. Before choosing you may
pay {REVEAL_COST} acorn to reveal the next {REVEAL_COUNT} deck cards into the display.

## Play (§4.2)
1 or 2 cards of **one type** onto that type's pile, or 2+ cards of **different
types**, one per pile. A pile begins with a 0; a card must equal the top card or
be exactly 1 higher. A 3 closes the pile with a torii: no more cards, and no new
pile of that type. New piles go at the left or right end of your row.
After a mixed play, each neighbouring pair of piles whose tops show acorns on
the touching corners (`•` right of the left card, left of the right card) pays
{ACORN_PAIR_GAIN} acorns.

## Exchange (§4.4)
A free action, once per turn: discard {EXCHANGE_DISCARD} cards from your hand
(face up, to the discard pile) and gain {EXCHANGE_GAIN} acorn. Select the two
cards, then `x`. It turns cards you cannot use into an acorn for a reveal, a
landscape or an objective.

## Objectives (§1.4, §4.3, §7)
{OBJECTIVE_COST_TEXT}
**Only activated objectives score**: one nobody activated scores nothing for
anybody. At the end, the best seat(s) with at least 1 meet an activated
objective: its owner scores {OBJECTIVE_OWNER_POINTS}, every other seat meeting
it scores {OBJECTIVE_OTHER_POINTS}; an owner who misses scores 0.

## Landscapes (§1.5, §4.5)
Your panorama has three landscapes, one of each part: sunrise, midday, dusk.
Each power is a free action, used once per game, for its cost in acorns; a
midday power only before your main action. The starter panorama:

{STARTER_POWERS}

Every landscape and its power is listed under *Landscapes* below.

## End and scoring (§6, §7)
The end is triggered when the deck is empty or the torii supply is used up; the
round is finished so everyone has the same number of turns. Each pile scores
top card × cards; each acorn 1; activated objectives as above; hand cards
nothing. Ties: more acorns wins; still tied, the victory is shared.
"""


def landscapes_md(rules: HouseRules = CURRENT_RULES) -> str:
    """Every landscape power, by part of the panorama (§1.5), and what one
    costs under ``rules`` (§4.5: the game's rules version, else the current)."""
    cost = landscape_cost_text(rules, LANDSCAPES)
    out = ["## Landscapes (§1.5)\n", f"Each power: once per game, {cost}, a free action (§4.5).\n"]
    when = {"sunrise": "any time in your turn", "midday": "before your main action",
            "dusk": "any time in your turn"}
    for part in PARTS:
        out.append(f"\n**{part.capitalize()}** ({when[part]})\n")
        for _lid, (p, name, power) in LANDSCAPES.items():
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


MEMORY = """\
## Memory mode (§8) and pace
Off by default. With it on, piles show only their top cards and the move log
tells plays without their cards, as in the physical game. Toggle it with `m`,
on the new-game form or in the command palette (ctrl+p), where *Bot speed*
sets how long each bot move stays on screen.
"""


def help_text(app: KeyNamer | None = None, known: Collection[str] = (), rules: HouseRules = CURRENT_RULES) -> str:
    """The whole help text (keys as remapped in ``app``, if given; ``known``
    as for :func:`keys_md`; landscape costs under ``rules``, RULES §4.5)."""
    return "\n".join([RULES, CARDS, keys_md(app, known, rules), MEMORY, landscapes_md(rules), objectives_md()])
