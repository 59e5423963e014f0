"""The move log: one readable line per event, from one seat's point of view.

Nothing hidden leaks (RULES §8): another seat's deal or draw is told as a
count ("Bot 1 drew 2 cards"); the viewer's own is told card by card.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import events as ev
from .cards import CARD_NAME, CARD_TYPE, Card
from .rules_data import LANDSCAPES, LEAF_NAMES, OBJECTIVE_NAMES


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(CARD_NAME[c][:2] for c in cards)


def narrate(event: ev.Event, viewer: int | None, names: Sequence[str]) -> str | None:
    """One line describing ``event`` for ``viewer`` (a seat, or None for a
    spectator); None for events not worth a line. ``names[i]`` is seat i's
    name; the viewer is called "You"."""

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
                return f"You were dealt {_cards(event.cards)}."
            return f"{who(event.seat)} was dealt {len(event.cards)} cards."
        case ev.PlayStarted():
            return f"{who(event.first_seat)} {'play' if event.first_seat == viewer else 'plays'} first."
        case ev.DisplayRevealed():
            label = {"setup": "", "collect": " (paid reveal)", "top-up": " (top-up)"}.get(event.reason, "")
            return f"Revealed {_cards(event.cards)} to the display{label}."
        case ev.AcornsGained():
            return f"{who(event.seat)} gained {event.amount} acorn{'s' * (event.amount != 1)} ({event.reason})."
        case ev.AcornsPaid():
            return f"{who(event.seat)} paid {event.amount} acorn{'s' * (event.amount != 1)} ({event.reason})."
        case ev.ColumnCollected():
            return f"{who(event.seat)} collected the {LEAF_NAMES[event.leaf_type]} column: {_cards(event.cards)}."
        case ev.CardsPlayed():
            parts = []
            for card, side in zip(event.cards, event.sides, strict=True):
                name = CARD_NAME[card][:2]
                parts.append(f"{name} (new pile, {side} end)" if side else f"{name} on {LEAF_NAMES[CARD_TYPE[card]]}")
            how = {"same": "played", "mixed": "played (mixed)", "crane": "placed (Crane Island)"}[event.mode]
            return f"{who(event.seat)} {how} {', '.join(parts)}."
        case ev.PileClosed():
            torii = "with a torii" if event.torii else "(no torii left in the supply)"
            return f"{who(event.seat)} closed the {LEAF_NAMES[event.leaf_type]} pile {torii}."
        case ev.ObjectiveActivated():
            return f"{who(event.seat)} activated {OBJECTIVE_NAMES[event.objective]}."
        case ev.CardsDiscarded():
            return f"{who(event.seat)} discarded {_cards(event.cards)} ({event.reason})."
        case ev.CardsDrawn():
            if event.seat == viewer:
                return f"You drew {_cards(event.cards)}."
            n = len(event.cards)
            return f"{who(event.seat)} drew {n} card{'s' * (n != 1)}."
        case ev.CardTaken():
            return f"{who(event.seat)} took {_cards((event.card,))} from the {event.source}."
        case ev.CardsSwapped():
            return (f"{who(event.seat)} swapped {_cards((event.hand_card,))} from hand "
                    f"for {_cards((event.display_card,))} in the display.")
        case ev.LandscapeUsed():
            return f"{who(event.seat)} used {LANDSCAPES[event.landscape][1]}."
        case ev.MainActionPassed():
            return f"{who(event.seat)} could take no main action and passed."
        case ev.EndTriggered():
            why = "the deck is empty" if event.reason == "deck" else "the torii supply is used up"
            return f"The end is triggered: {why}. The round will be finished."
        case ev.TurnEnded():
            return f"{who(event.seat)} ended {'your' if event.seat == viewer else 'the'} turn."
        case ev.ActionsUndone():
            return f"{who(event.seat)} took back {'your' if event.seat == viewer else 'their'} last actions (undo)."
        case ev.GameEnded():
            return "The game is over."
        case ev.SeatControlChanged():  # a shared table's seats (issue 13)
            return {"left": f"{who(event.seat)} left the table.",
                    "bot after a wait": f"A bot plays for {who(event.seat)} until they are back.",
                    "back": f"{who(event.seat)} {'are' if event.seat == viewer else 'is'} back."}.get(event.reason)
        case ev.HintShown():  # issue 17
            return f"{who(event.seat)} asked for a hint (Hard's estimate: {event.win_percent}%)."
        case _:
            return None
