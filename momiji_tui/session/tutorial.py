"""The guided first game ("Learn to play"): a fixed deal and its script.

Pure data and logic, no Textual, no files. The deal is an ordinary
``GameCreated`` whose ``deck`` is :data:`DECK` (a permutation of the 56
cards of the four types in play, RULES §2.2), so the game is played, saved,
resumed and scored by the ordinary engine; the tutorial only chooses which
of the legal commands it lets through. Every move of the game is fixed:

* the player's moves are the :class:`Step` s of :data:`STEPS`, each a
  short list of :class:`Beat` s (one command each, with alternatives that
  have the same meaning, e.g. the first pile at either end);
* Easy's moves (seat 1) are :data:`BOT_MOVES`, one list per turn.

Where the game stands in the script is read from its events alone
(:func:`progress`): a resumed tutorial returns to the step it was left at,
with nothing saved beside the game.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .. import engine
from ..engine import events as ev
from ..engine.cards import card_by_name, cards_of_types
from ..engine.commands import (
    LEFT, RIGHT, ActivateObjective, Collect, Command, DiscardToLimit, EndTurn, Exchange, Play, Reveal,
    UseLandscape,
)
from ..engine.fold import new_state
from ..engine.rules_data import LEAF_NAMES, OBJECTIVE_NAMES, RULES_VERSION
from ..engine.setup import setup_events

YOU, EASY = 0, 1
SEAT_NAMES = ("You", "Easy")
TYPES = ("M", "G", "C", "K")  # Maple, Ginkgo, Cherry, Katsura (canonical order, RULES §2.1)
OBJECTIVES = ("torii", "zeros", "top-sum", "acorns")  # players + 2 revealed (RULES §1.4)
OBJECTIVE = "torii"  # Shrine Path: the one the player activates (RULES §4.3)

_HEAD = (
    # your hand (RULES §2.5)
    "M0e", "M1c", "G0b", "G3b", "C1c", "K2c",
    # Easy's hand
    "C0a", "C1a", "C2a", "C3a", "K0a", "K1a",
    # the display: no Ginkgo, so the first collect needs the paid reveal
    "K2a", "K3a", "C0b", "M0a",
    # your paid reveal (turn 1): the Ginkgo column
    "G1c", "G2a", "C1b", "C2b",
    # your Waterfall reveal (turn 3): Maple 2 and 3
    "M2b", "M3b", "K0b", "C0c",
    # the display's top-up after Easy's 6th turn
    "G0a", "G1a", "M0b", "K1b",
)
DECK: tuple[int, ...] = tuple(
    [card_by_name(n) for n in _HEAD]
    + [c for c in cards_of_types(TYPES) if c not in {card_by_name(n) for n in _HEAD}]
)
"""The whole deck, top card first: the head above, then the rest in card order."""


def _c(*names: str) -> tuple[int, ...]:
    return tuple(card_by_name(n) for n in names)


@dataclass(frozen=True, slots=True)
class Beat:
    """One command the player must give: ``accepts`` (alternatives with the
    same meaning, the first one is what a skip plays) and ``hint``, the
    short "try …" said when another legal move is tried."""

    accepts: tuple[Command, ...]
    hint: str
    text: str = ""  # what this beat adds to the step's text (shown while it is due)


@dataclass(frozen=True, slots=True)
class Step:
    """One lesson: what to do and why (``text``, citing RULES), the table
    regions it talks about (``highlight``: ``display``, ``hand``, ``you``,
    ``objectives``, ``opponents``), its beats in order, and ``reading``:
    how to read the marks on the table the step first shows (may be empty)."""

    key: str
    title: str
    text: str
    highlight: tuple[str, ...]
    beats: tuple[Beat, ...]
    reading: str = ""


def _end(text: str = "Press e to end your turn (RULES §5).") -> Beat:
    return Beat((EndTurn(YOU),), "try e: end your turn", text)


STEPS: tuple[Step, ...] = (
    Step(
        "collect", "Collect a column, with the paid reveal",
        "One main action per turn: collect, play or activate an objective (RULES §3). Collecting "
        "takes every card of one display column into your hand; first you may pay 1 acorn to "
        "reveal 4 more cards (RULES §4.1).",
        ("display",),
        (
            Beat((Reveal(YOU),), "try r: reveal 4 cards for 1 acorn",
                 "You want Ginkgo (G) and the display has none: press r to reveal."),
            Beat((Collect(YOU, ("G",)),), "try G, then ⏎: collect the Ginkgo column",
                 "Press G (shift+g) for the Ginkgo column, then ⏎: you take all its cards."),
            _end(),
        ),
        "Table: • a card's acorn corner (RULES §1.2) · objective ✓ you would meet it if it were "
        "activated, ▲ who leads it · ★ the score's leader.",
    ),
    Step(
        "pile", "Start a pile",
        "Playing puts hand cards into your row (RULES §4.2). A pile begins with a 0; each card on "
        "it equals the top card or is 1 higher. A new pile goes at the left or right end of your "
        "row (s switches).",
        ("hand", "you"),
        (
            Beat((Play(YOU, _c("M0e", "M1c"), (LEFT,)), Play(YOU, _c("M0e", "M1c"), (RIGHT,))),
                 "try Maple 0 and Maple 1, then p",
                 "Select Maple 0 and Maple 1 (their digits), then press p."),
            _end(),
        ),
        "Table: a pile •M1 ×2=2 (0) is its top card, ×cards, =points now, (the values beneath); "
        "Π closed; seen: cards seen entering a hand (RULES §8).",
    ),
    Step(
        "waterfall", "A midday landscape; the hand limit",
        "Each landscape works once per game, for 1 acorn, as a free action; a midday one before "
        "your main action (RULES §4.5). Waterfall makes this turn's reveal free (RULES §1.5).",
        ("you", "display"),
        (
            Beat((UseLandscape(YOU, "waterfall"),), "try a, then Waterfall",
                 "Press a and choose Waterfall (2)."),
            Beat((Reveal(YOU),), "try r: this reveal is free", "Press r: the reveal costs nothing now."),
            Beat((Collect(YOU, ("M",)),), "try M, then ⏎: collect the Maple column",
                 "Press M (shift+m) for the Maple column (3 cards), then ⏎."),
            Beat((DiscardToLimit(YOU, _c("K2c")),), "try e, then select the Katsura 2 and ⏎",
                 "You hold 9; a turn ends with at most 8 (RULES §5.1): press e, select the "
                 "Katsura 2 (you have no Katsura pile), then ⏎."),
            _end(),
        ),
    ),
    Step(
        "mixed", "A mixed play and an acorn pair; the exchange",
        "A mixed play: 2 or more cards of different types, one per pile (RULES §4.2). Then two "
        "neighbouring piles whose top cards show touching acorns (left pile's right corner, right "
        "pile's left corner) give 2 acorns.",
        ("hand", "you"),
        (
            Beat((Play(YOU, _c("M2b", "G0b"), (RIGHT,)),),
                 "try Maple 2 and Ginkgo 0, the new pile at the right end (s), then p",
                 "Select Maple 2 and Ginkgo 0 (a new pile at the right end: press s if the preview "
                 "says left), then p."),
            Beat((Exchange(YOU, (card_by_name("C1c"), card_by_name("M0a"))),),
                 "try Cherry 1 and Maple 0, then x",
                 "Exchange, a free action once a turn: 2 cards for 1 acorn (RULES §4.4). Select "
                 "Cherry 1 and Maple 0, press x."),
            _end(),
        ),
    ),
    Step(
        "close", "A sunrise landscape; close a pile with a 3",
        "A 3 closes its pile and takes a torii from the supply (players + 2: here 4); a closed "
        "pile takes no more cards (RULES §4.2, §1.3). Sunrise landscapes give you something, any "
        "time in your turn (RULES §1.5).",
        ("you", "hand"),
        (
            Beat((UseLandscape(YOU, "spring"),), "try a, then Mountain Spring",
                 "Press a, choose Mountain Spring (1): pay 1 acorn, gain 2."),
            Beat((Play(YOU, _c("M3b", "G1c")),), "try Maple 3 and Ginkgo 1 together, then p",
                 "Select Maple 3 and Ginkgo 1 (a mixed play), then p: Maple closes."),
            _end(),
        ),
    ),
    Step(
        "objective", "Activate an objective",
        "Only activated objectives score: pay 3 acorns to own one (RULES §4.3). At the end each "
        "seat that meets it scores, the owner 10 and the others 3 (RULES §7). Shrine Path counts "
        "closed piles: you and Easy will tie at 2 (RULES §1.4).",
        ("objectives",),
        (
            Beat((ActivateObjective(YOU, OBJECTIVE),), "try o, then Shrine Path",
                 "Press o and choose Shrine Path (1)."),
            _end(),
        ),
    ),
    Step(
        "end", "The end trigger; a dusk landscape",
        "The game ends when the deck runs out or the torii are used up; the round is then "
        "finished, so every seat has had as many turns (RULES §6). Dusk landscapes work any time "
        "in your turn (RULES §1.5).",
        ("you", "hand"),
        (
            Beat((Play(YOU, _c("G2a", "G3b")),), "try Ginkgo 2 and Ginkgo 3, then p",
                 "Select Ginkgo 2 and Ginkgo 3, then p: the last torii, so the end is triggered."),
            Beat((UseLandscape(YOU, "pier"),), "try a, then Sunset Pier",
                 "Press a, choose Sunset Pier (3): 1 acorn per closed pile you have."),
            _end("Press e: Easy plays its last turn, then comes the score sheet."),
        ),
    ),
)

BOT_MOVES: tuple[tuple[Command, ...], ...] = (
    (Play(EASY, _c("C0a", "C1a"), (LEFT,)), EndTurn(EASY)),
    (Play(EASY, _c("C2a", "C3a")), EndTurn(EASY)),
    (Collect(EASY, ("K",)), EndTurn(EASY)),
    (Play(EASY, _c("K0a", "K1a"), (RIGHT,)), EndTurn(EASY)),
    (Play(EASY, _c("K2a", "K3a")), EndTurn(EASY)),
    (Collect(EASY, ("C",)), EndTurn(EASY)),
    (Collect(EASY, ("G",)), EndTurn(EASY)),
)
"""Easy's scripted turns (it plays after each of yours: 7 turns each)."""


# ------------------------------------------------------------------ the script


@dataclass(frozen=True, slots=True)
class Move:
    """One command of the script: whose, its alternatives, and where it is:
    ``step`` index and ``beat`` index for the player's; Easy's moves belong
    to the step they lead into (``beat`` -1; ``len(STEPS)`` after the last)."""

    seat: int
    accepts: tuple[Command, ...]
    step: int
    beat: int


def _moves() -> tuple[Move, ...]:
    out: list[Move] = []
    for i, step in enumerate(STEPS):
        out += [Move(YOU, b.accepts, i, j) for j, b in enumerate(step.beats)]
        out += [Move(EASY, (c,), i + 1, -1) for c in BOT_MOVES[i]]  # the lead-in of the next step
    return tuple(out)


MOVES = _moves()
"""The whole game, in order: every command the tutorial lets through."""


def opening_events(game_id: str = "tutorial", rules_version: str = RULES_VERSION) -> list[ev.Event]:
    """The tutorial's ``GameCreated`` and its setup events (RULES §2): the
    fixed deal, the starter panorama, you first. No seed: the deck is given.
    ``rules_version``: the rules it is played under (a saved tutorial keeps its own)."""
    created = ev.GameCreated(
        game_id=game_id, rules_version=rules_version, seed=None, seat_names=SEAT_NAMES, types=TYPES,
        objectives=OBJECTIVES, first_seat=YOU, deck=DECK, landscape_mode="starter",
    )
    return [created, *setup_events(new_state(created))]


def is_tutorial(events: Sequence[ev.Event]) -> bool:
    """Whether a game's events are the tutorial's deal (its deck and seats)."""
    first = events[0] if events else None
    return isinstance(first, ev.GameCreated) and first.deck == DECK and first.seat_names == SEAT_NAMES


LESSON_TITLE = "Learn to play"
"""The name a tutorial game goes by (``lesson_label``)."""


def lesson_label(events: Sequence[ev.Event]) -> str:
    """How a saved game is named when it is the tutorial's: ``"Learn to
    play, lesson 3/7"`` (the step its next move belongs to; ``"Learn to
    play, done"`` once every move is made), else ""."""
    if not is_tutorial(events):
        return ""
    done = progress(events)
    if done >= len(MOVES):
        return f"{LESSON_TITLE}, done"
    return f"{LESSON_TITLE}, lesson {min(MOVES[done].step + 1, len(STEPS))}/{len(STEPS)}"


_RECORDS = (ev.SeatControlChanged, ev.HintShown)  # the session's records: no command made them


def _after(state: engine.GameState, events: Iterable[ev.Event]) -> engine.GameState:
    for e in events:
        state = engine.apply(state, e)
    return state


def progress(events: Iterable[ev.Event]) -> int:
    """How many of :data:`MOVES` the game's ``events`` have made. Each
    move's alternatives are decided by the engine from the game so far; the
    move was made when as many of the log's next events lead to the same
    state as one of them (cards of a play may come in another order).
    Hints and seat changes are skipped. Stops at the first mismatch."""
    return _follow(events)[0]


def on_script(events: Sequence[ev.Event]) -> bool:
    """Whether every move of a game's ``events`` is the script's (hints and
    seat changes aside): False for a save whose log goes off the lesson (a
    move edited in by hand), which the lesson's gate could never follow."""
    _, at, played = _follow(events)
    return at > 0 and at == played


def _follow(events: Iterable[ev.Event]) -> tuple[int, int, int]:
    """(script moves made, events they and the opening account for, events
    played): :func:`progress`'s walk; (0, 0, n) when the opening differs."""
    played = [e for e in events if not isinstance(e, _RECORDS)]
    first = played[0] if played else None
    opening = opening_events(first.game_id, first.rules_version) if isinstance(first, ev.GameCreated) else []
    if not opening or played[:len(opening)] != opening:
        return 0, 0, len(played)
    state = engine.fold(opening)
    at, done = len(opening), 0
    for move in MOVES:
        for command in move.accepts:
            try:
                state_after, new = engine.run(state, command)
            except engine.IllegalCommand:
                continue
            chunk = played[at:at + len(new)]
            if len(chunk) == len(new) and _same(_after(state, chunk), state_after):
                state, at, done = state_after, at + len(new), done + 1
                break
        else:
            break
    return done, at, len(played)


def _same(a: engine.GameState, b: engine.GameState) -> bool:
    """Two states alike in everything the rules look at (the undo snapshot aside)."""
    return engine.view(a, None) == engine.view(b, None) and \
        [s.hand for s in a.seats] == [s.hand for s in b.seats]


def accepts(state: engine.GameState, done: int, command: Command) -> bool:
    """Whether ``command`` is the script's next move (``done`` moves made):
    it must lead to the same state as one of the move's alternatives."""
    if done >= len(MOVES) or command.seat != MOVES[done].seat:
        return False
    try:
        after = engine.run(state, command)[0]
    except engine.IllegalCommand:
        return False
    return any(_same(after, engine.run(state, c)[0]) for c in MOVES[done].accepts)


def score_explained(sheet: engine.ScoreSheet, names: Sequence[str], revealed: Sequence[str]) -> list[str]:
    """The score sheet read line by line, as the tutorial's last step
    (RULES §7): each pile, the acorns, each activated objective, what does
    not score (objectives nobody activated, cards in hand), the totals and
    the winner. ``names``: one per seat; ``revealed``: the game's objectives."""
    lines = ["The score sheet, line by line (RULES §7):"]
    for seat in sheet.seats:
        name = names[seat.seat]
        for pile in seat.piles:
            lines.append(f"{name}, {LEAF_NAMES[pile.leaf_type]} pile: top card {pile.top_value} × "
                         f"{pile.cards} cards = {pile.points}.")
        lines.append(f"{name}, acorns: {seat.acorns}, 1 point each.")
    activated: set[str] = set()
    for seat in sheet.seats:
        for obj in seat.objectives:
            activated.add(obj.objective)
            role = "its owner" if obj.owner == seat.seat else f"not its owner ({names[obj.owner]} is)"
            meets = f"meets it ({obj.measure})" if obj.met else f"does not meet it ({obj.measure})"
            lines.append(f"{OBJECTIVE_NAMES[obj.objective]}: {names[seat.seat]} {meets}, {role}: "
                         f"{obj.points}.")
    idle = [OBJECTIVE_NAMES[o] for o in revealed if o not in activated]
    if idle:
        lines.append(f"Nobody activated {', '.join(idle)}: they score nothing. Cards in hand score nothing.")
    totals = ", ".join(f"{names[s.seat]} {s.total}" for s in sheet.seats)
    winners = " and ".join(names[w] for w in sheet.winners)
    lines.append(f"Totals: {totals}. Highest wins: {winners} (a tie goes to more acorns).")
    return lines
