"""The hint at the table, with no Textual in it: whether a hint
may be asked, what Hard's advice says in words, and loading its suggestion
into the move being built (``MoveDraft``) so the preview is the one a player
builds and ⏎ plays it.

The advice itself is ``bots.advice.advise`` (Hard's search from the seat's
own view, RULES §8); this module only words it.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text

from ...bots.advice import HINT_ITERATIONS, Advice, Choice
from ...bots.calibration import about
from ...engine import (
    ActivateObjective, Collect, Command, DiscardToLimit, EndTurn, Exchange, Pass, Play, PlayerView, Reveal,
    UseLandscape,
)
from ...engine.narrate import cards_text
from ...engine.rules_data import LANDSCAPES, OBJECTIVE_NAMES
from .move_draft import MoveDraft
from .render import leaf_name

HINT_SEED = 17
"""The seed of every hint's search: with the view, it fixes the advice."""

HINTS_OFF = ("Hints are off at this table: not every player agreed to them when it was created.")
THINKING = "Hard is thinking about your move… (Esc cancels)"
CANCELLED = "Hint cancelled."
MOVED_ON = "The game moved on while Hard was thinking: ask again."


def hint_not_saved_text(reason: str) -> str:
    """What the player reads when the hint could not be recorded (``reason``:
    the store's words, e.g. ``disk full``): nothing changed, no hint shown."""
    return (f"Not saved: {reason}. The hint was not shown (a hint is recorded in the game "
            "before it is shown). Try again, or quit.")


def hint_refusal(view: PlayerView | None, seat: int, *, allowed: bool) -> str | None:
    """Why a hint cannot be asked now (None when it can): hints are off at
    this table (``allowed`` False), or it is not the seat's turn to play
    (RULES §3: advice is about your own turn)."""
    if not allowed:
        return HINTS_OFF
    if view is None or view.phase != "play":
        return "Hints are for the play phase." if view is not None else "There is no game on the table."
    if view.current != seat:
        return f"It is {view.seats[view.current].name}'s turn: ask for a hint on yours."
    return None


def percent(choice: Choice) -> int:
    """The choice's estimated win chance in whole percent (0–100)."""
    return max(0, min(100, round(choice.win_chance * 100)))


def about_text(choice: Choice) -> str:
    """The choice's win chance as a player should read it: ``about 60%``,
    rounded to what a hint's search can tell (``calibration.about`` at
    ``HINT_ITERATIONS``)."""
    return f"about {about(choice.win_chance, HINT_ITERATIONS)}%"


def describe(command: Command) -> str:
    """A command in a few words ("play M2 M3", "collect the Maple column")."""
    match command:
        case Play():
            return f"play {cards_text(command.cards)}"
        case Collect():
            names = " and ".join(leaf_name(t) for t in command.types)
            return f"collect the {names} column{'s' * (len(command.types) > 1)}"
        case Reveal():
            return "reveal from the deck"
        case ActivateObjective():
            return f"activate {OBJECTIVE_NAMES.get(command.objective, command.objective)}"
        case Pass():
            return "pass"
        case Exchange():
            return f"exchange {cards_text(command.cards)}"
        case UseLandscape():
            name = LANDSCAPES[command.landscape][1] if command.landscape in LANDSCAPES else command.landscape
            args = _landscape_args(command)
            return f"use {name}" + (f" ({args})" if args else "")
        case DiscardToLimit():
            return f"discard {cards_text(command.cards)}"
        case EndTurn():
            return "end the turn"
        case _:
            return type(command).__name__


def _landscape_args(command: UseLandscape) -> str:
    """What a landscape power takes, in words (RULES §1.5): ``K1 for
    M2`` (Temple Bell), ``take M2``, ``discard K1 M2``, ``play K1``,
    ``activate …``; empty for a power with no choice."""
    hand, card = cards_text(command.hand_cards), cards_text((command.card,)) if command.card is not None else ""
    if command.objective is not None:
        return f"activate {OBJECTIVE_NAMES.get(command.objective, command.objective)}"
    if hand and card:
        return f"{hand} for {card}"
    if card:
        return f"take {card}"
    if hand:
        return f"{'play' if command.landscape == 'crane' else 'discard'} {hand}"
    return ""


def hint_message(advice: Advice, confirm_key: str) -> Text:
    """The message line of a hint: the suggestion with its estimated win
    chance (``about_text``), then the next two alternatives
    (``bots.advice.Choice``) that read differently from it and from each
    other (choices that differ only in what the words leave out, e.g. the
    ends of new piles, are told once, at their best chance)."""
    best = advice.best
    t = Text()
    t.append("Hint: ", style="bold")
    t.append(describe(best.command), style="bold")
    t.append(f" ({about_text(best)} to win) — {confirm_key} does it", style="bold")
    told = {describe(best.command)}
    others: list[str] = []
    for choice in advice.choices[1:]:
        words = describe(choice.command)
        if words not in told and len(others) < 2:
            told.add(words)
            others.append(f"{words} ({about_text(choice)})")
    if others:
        t.append(" · or " + ", ".join(others), style="dim")
    return t


def load_suggestion(draft: MoveDraft, command: Command) -> None:
    """Put ``command`` into the move being built, as a player would select
    it: a play's cards and new-pile ends (RULES §4.2), a collect's columns
    (§4.1), an exchange's or discard's cards (§4.4, §5.1). Other commands
    (reveal, objective, landscape, pass, end of turn) select nothing."""
    draft.done()
    match command:
        case Play():
            draft.selected = list(command.cards)
            options = draft.arrangements()
            if command.new_pile_sides in options:
                draft.ends = options.index(command.new_pile_sides)
        case Collect():
            draft.columns = list(command.types)
        case Exchange():
            draft.selected = list(command.cards)
        case DiscardToLimit():
            draft.start_discard(then_end=False)
            draft.selected = list(command.cards)
        case _:
            pass


def suggestion_ready(draft: MoveDraft, command: Command | None) -> bool:
    """True while the move being built is still the suggestion as loaded, so
    ⏎ sends ``command`` itself (a play, a collect: what the preview shows)."""
    if command is None or not draft.my_turn or command not in draft.legal:
        return False
    match command:
        case Play():
            return draft.flow is None and not draft.columns and draft.play_command() == command
        case Collect():
            return draft.flow is None and not draft.selected and draft.collect_command() == command
        case Exchange():
            return draft.flow is None and not draft.columns and tuple(draft.selected) == command.cards
        case DiscardToLimit():
            return draft.flow is not None and draft.discard_command() == command
        case _:
            return draft.flow is None and not draft.selected and not draft.columns


Advise = Callable[..., Advice]
"""``bots.advice.advise`` or a stand-in with its signature (the bot pool's)."""


def suggestion_preview(draft: MoveDraft, command: Command | None, confirm_key: str) -> Text | None:
    """The preview line while the hint's suggestion is loaded and is not a
    play or a collect (whose own previews already say what ⏎ does): e.g.
    ``⏎ exchange C2 C3 (Hard's hint)``, instead of judging the selected
    cards as a play (a new player saw "✗ Not a play" under the hint). None
    when the usual preview applies."""
    if command is None or isinstance(command, (Play, Collect)) or not suggestion_ready(draft, command):
        return None
    t = Text(f"{confirm_key} ", style="bold")
    t.append(describe(command))
    t.append(" (Hard's hint)", style="dim")
    return t
