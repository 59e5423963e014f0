"""The move log: one readable line per event, from one seat's point of view.

Nothing hidden leaks (RULES §8): another seat's deal or draw is told as a
count ("Bot 1 drew 2 cards"); the viewer's own is told card by card.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import events as ev
from .cards import CARD_NAME, CARD_TYPE, Card
from .rules_data import LANDSCAPES, LEAF_NAMES, OBJECTIVE_NAMES


#: Why the end was triggered (RULES §6), by ``EndTriggered.reason``: the one
#: wording of the log, the table's last-round banner and its news.
END_TRIGGERS = {"deck": "the deck is empty", "torii": "the torii supply is used up"}


def cards_text(cards: Sequence[Card]) -> str:
    """Cards by their short names, as every line about a move tells them:
    ``M1 G3`` (RULES §1.1: leaf letter and value). Raises nothing."""
    return " ".join(CARD_NAME[c][:2] for c in cards)


def reveal_label(event: ev.DisplayRevealed, previous: ev.Event | None) -> str:
    """How a reveal is told: a setup reveal plainly; a top-up (RULES §5.2);
    a reveal before a collect (RULES §4.1) as paid when the event before it
    paid its acorn, else free (Waterfall, RULES §1.5); without the event
    before it, only as a reveal."""
    if event.reason == "setup":
        return ""
    if event.reason == "top-up":
        return " (top-up)"
    if previous is None:
        return " (reveal)"
    paid = isinstance(previous, ev.AcornsPaid) and previous.reason == "reveal"
    return " (paid reveal)" if paid else " (free reveal, Waterfall)"


def narrate(event: ev.Event, viewer: int | None, names: Sequence[str], *,
            previous: ev.Event | None = None) -> str | None:
    """One line describing ``event`` for ``viewer`` (a seat, or None for a
    spectator); None for events not worth a line. ``names[i]`` is seat i's
    name; the viewer is called "You". ``previous``: the event just before
    (it tells whether a reveal was paid). Raises nothing."""

    def who(seat: int) -> str:
        return "You" if seat == viewer else names[seat]

    match event:
        case ev.GameCreated():
            types = ", ".join(LEAF_NAMES[x] for x in event.types)
            return f"New game for {', '.join(event.seat_names)}. Leaf types: {types}."
        case ev.LandscapeDrafted():
            return f"{who(event.seat)} drafted {LANDSCAPES[event.landscape][1]}."
        case ev.CardsDealt():
            if event.seat == viewer:
                return f"You were dealt {cards_text(event.cards)}."
            return f"{who(event.seat)} was dealt {len(event.cards)} cards."
        case ev.PlayStarted():
            return f"{who(event.first_seat)} {'play' if event.first_seat == viewer else 'plays'} first."
        case ev.DisplayRevealed():
            return f"Revealed {cards_text(event.cards)} to the display{reveal_label(event, previous)}."
        case ev.AcornsGained():
            return f"{who(event.seat)} gained {event.amount} acorn{'s' * (event.amount != 1)} ({event.reason})."
        case ev.AcornsPaid():
            return f"{who(event.seat)} paid {event.amount} acorn{'s' * (event.amount != 1)} ({event.reason})."
        case ev.ColumnCollected():
            return f"{who(event.seat)} collected the {LEAF_NAMES[event.leaf_type]} column: {cards_text(event.cards)}."
        case ev.CardsPlayed():
            parts = []
            for card, side in zip(event.cards, event.sides, strict=True):
                name = cards_text((card,))
                parts.append(f"{name} (new pile, {side} end)" if side else f"{name} on {LEAF_NAMES[CARD_TYPE[card]]}")
            how = {"same": "played", "mixed": "played (mixed)", "crane": "placed (Crane Island)"}[event.mode]
            return f"{who(event.seat)} {how} {', '.join(parts)}."
        case ev.PileClosed():
            torii = "with a torii" if event.torii else "(no torii left in the supply)"
            return f"{who(event.seat)} closed the {LEAF_NAMES[event.leaf_type]} pile {torii}."
        case ev.ObjectiveActivated():
            return f"{who(event.seat)} activated {OBJECTIVE_NAMES[event.objective]}."
        case ev.CardsDiscarded():
            return f"{who(event.seat)} discarded {cards_text(event.cards)} ({event.reason})."
        case ev.CardsDrawn():
            if event.seat == viewer:
                return f"You drew {cards_text(event.cards)}."
            n = len(event.cards)
            return f"{who(event.seat)} drew {n} card{'s' * (n != 1)}."
        case ev.CardTaken():
            return f"{who(event.seat)} took {cards_text((event.card,))} from the {event.source}."
        case ev.CardsSwapped():
            return (f"{who(event.seat)} swapped {cards_text((event.hand_card,))} from hand "
                    f"for {cards_text((event.display_card,))} in the display.")
        case ev.LandscapeUsed():
            return f"{who(event.seat)} used {LANDSCAPES[event.landscape][1]}."
        case ev.MainActionPassed():
            return f"{who(event.seat)} could take no main action and passed."
        case ev.EndTriggered():
            why = END_TRIGGERS.get(event.reason, event.reason)
            return f"The end is triggered: {why}. The round will be finished."
        case ev.TurnEnded():
            return f"{who(event.seat)} ended {'your' if event.seat == viewer else 'the'} turn."
        case ev.ActionsUndone():
            return f"{who(event.seat)} took back {'your' if event.seat == viewer else 'their'} last actions (undo)."
        case ev.GameEnded():
            return "The game is over."
        case ev.SeatControlChanged():  # a shared table's seats
            return {"left": f"{who(event.seat)} left the table.",
                    "bot after a wait": f"A bot plays for {who(event.seat)} until they are back.",
                    "back": f"{who(event.seat)} {'are' if event.seat == viewer else 'is'} back."}.get(event.reason)
        case ev.HintShown():
            return f"{who(event.seat)} asked for a hint (Hard's estimate: {event.win_percent}%)."
        case _:
            return None
