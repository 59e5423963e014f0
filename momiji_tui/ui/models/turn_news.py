"""What the table tells between your turns: a one-line summary
of each other seat's turn, the last-round banner once the end is triggered,
and why the game ended (for the score sheet). Pure: no Textual.

Everything is told from events the viewer may see (``engine.narrate``'s
rules, RULES §8): another seat's draws are counts, never cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.cells import cell_len, set_cell_size
from rich.text import Text

from ...engine import PlayerView
from ...engine import events as ev
from ...engine.cards import CARD_TYPE
from ...engine.narrate import END_TRIGGERS, cards_text
from ...engine.rules_data import LANDSCAPES, LEAF_NAMES, OBJECTIVE_NAMES
from .render import ACORN_SIGN

def _play(event: ev.CardsPlayed) -> str:
    parts = []
    for card, side in zip(event.cards, event.sides, strict=True):
        leaf = LEAF_NAMES[CARD_TYPE[card]]
        parts.append(f"{cards_text((card,))} (new pile)" if side else f"{cards_text((card,))} on {leaf}")
    verb = "placed" if event.mode == "crane" else "played"
    return f"{verb} {', '.join(parts)}"


def action_words(event: ev.Event, *, memory: bool = False) -> str | None:
    """A few words for one action of a turn (None: not worth telling in a
    summary: setup, payments, the end trigger, seat changes); ``memory``:
    plays without their cards (RULES §8 memory mode)."""
    match event:
        case ev.CardsPlayed() if memory:
            n = len(event.cards)
            return f"played {n} card{'s' * (n != 1)}"
        case ev.ColumnCollected():
            return f"collected {len(event.cards)} {LEAF_NAMES[event.leaf_type]} ({cards_text(event.cards)})"
        case ev.DisplayRevealed() if event.reason == "collect":
            return f"revealed {len(event.cards)}"
        case ev.CardsPlayed():
            return _play(event)
        case ev.PileClosed():
            return f"closed {LEAF_NAMES[event.leaf_type]}{' with a torii' if event.torii else ''}"
        case ev.AcornsGained():
            return f"+{event.amount}{ACORN_SIGN}"
        case ev.ObjectiveActivated():
            return f"took {OBJECTIVE_NAMES[event.objective]}"
        case ev.CardsDiscarded():
            n = len(event.cards)
            what = "exchanged" if event.reason == "exchange" else "discarded"
            return f"{what} {n} card{'s' * (n != 1)}"
        case ev.CardsDrawn():
            return f"drew {len(event.cards)}"
        case ev.CardTaken():
            return f"took {cards_text((event.card,))} from the {event.source}"
        case ev.CardsSwapped():
            return f"swapped {cards_text((event.hand_card,))} for {cards_text((event.display_card,))}"
        case ev.LandscapeUsed():
            return f"used {LANDSCAPES[event.landscape][1]}"
        case ev.MainActionPassed():
            return "passed"
        case ev.TurnEnded():
            return "ended"
        case _:
            return None


def turn_summary(seat: int, events: Sequence[ev.Event], names: Sequence[str], *, memory: bool = False) -> str:
    """One line for ``seat``'s whole turn: ``Kaede: collected 2 Maple (M1 M2),
    played G3 on Ginkgo +1●, ended`` (acorns gained follow their action). ``events``: the turn's events in order (an
    undo's taken-back actions already removed). Raises nothing."""
    words: list[str] = []
    for word in (action_words(e, memory=memory) for e in events):
        if word and word.startswith("+") and words:
            words[-1] += " " + word  # acorns gained go with the action that gained them
        elif word:
            words.append(word)
    return f"{names[seat]}: {', '.join(words) or 'nothing yet'}"


class TurnNews:
    """Follows the game's events and keeps the summary of each finished turn
    of a seat other than ``viewer`` (the latest last), the turns since the
    viewer's own turn first to go. ``ActionsUndone`` removes what it took
    back. Pure."""

    def __init__(self, viewer: int | None, names: Sequence[str], *, memory: bool = False) -> None:
        self.viewer = viewer
        self.memory = memory
        self.names = list(names)
        self.summaries: list[str] = []  # since the viewer's last turn, oldest first
        self._turn: list[ev.Event] = []
        self._playing = False

    def feed(self, events: Sequence[ev.Event]) -> None:
        """Take in ``events`` (which follow those fed before)."""
        for event in events:
            if isinstance(event, ev.PlayStarted):
                self._playing, self._turn = True, []
            elif not self._playing:
                continue
            elif isinstance(event, ev.ActionsUndone):
                self._turn = self._turn[:max(len(self._turn) - event.count, 0)]
            elif isinstance(event, ev.TurnEnded):
                self._turn.append(event)
                if event.seat == self.viewer:
                    self.summaries = []
                else:
                    self.summaries.append(turn_summary(event.seat, self._turn, self.names, memory=self.memory))
                self._turn = []
            else:
                self._turn.append(event)


#: The banner's shorter words for a trigger (one line at 80 columns).
BANNER_TRIGGERS = {"torii": "no torii left"}


def last_round_banner(v: PlayerView) -> str | None:
    """The banner once the end is triggered and play goes on (RULES §6):
    ``Last round: the deck is empty. The game ends after Ginnan's turn.``;
    None before (or once the game is over)."""
    if v.end_trigger is None or v.phase != "play":
        return None
    why = BANNER_TRIGGERS.get(v.end_trigger) or END_TRIGGERS.get(v.end_trigger, v.end_trigger)
    last = (v.first_seat - 1) % len(v.seats)
    whose = "your" if last == v.seat else f"{v.seats[last].name}'s"
    return f"Last round: {why}. The game ends after {whose} turn (RULES §6)."


@dataclass(frozen=True)
class NewsSlice:
    """What the news line shows: the last-round banner (if any) and the
    latest summaries of other seats' turns (at most ``lines`` lines in all),
    the last turn of each of the ``others`` other seats (0: every summary)."""

    banner: str | None
    summaries: tuple[str, ...]
    lines: int = 1
    others: int = 0


NEWS_SEPARATOR = " · "


def news_text(data: NewsSlice, width: int = 0) -> Text:
    """The news lines: the banner (bold, reversed) first, then the last turn
    of each other seat: one line each when ``data.lines`` has room, else
    side by side on the lines left (joined by :data:`NEWS_SEPARATOR`), each
    cut to its share of ``width`` cells so that every seat is told (a short
    summary leaves its room to the longer ones). ``width`` <= 0: nothing is
    cut. Raises nothing."""
    rows: list[Text] = []
    if data.banner:
        rows.append(Text(data.banner, style="bold reverse"))
    room = max(data.lines - len(rows), 1 if not rows else 0)
    summaries = list(data.summaries[-data.others:] if data.others else data.summaries)
    if room and summaries:
        if len(summaries) > room:  # several seats a line, the latest on the last line
            per_line = -(-len(summaries) // room)
            groups = [summaries[i:i + per_line] for i in range(0, len(summaries), per_line)]
        else:
            groups = [[s] for s in summaries]
        rows += [Text(NEWS_SEPARATOR.join(_shares(group, width)), style="italic") for group in groups]
    return Text("\n").join(rows) if rows else Text("")


def _shares(parts: list[str], width: int) -> list[str]:
    """``parts`` cut (with ``…``) so that, joined by the separator, they fit
    ``width`` cells: equal shares, a part shorter than its share giving the
    rest to the others. As they are when ``width`` <= 0 or they fit."""
    if width <= 0 or len(parts) < 2:
        return parts
    room = width - len(NEWS_SEPARATOR) * (len(parts) - 1)
    budget = dict.fromkeys(range(len(parts)), 0)
    open_parts = sorted(range(len(parts)), key=lambda i: cell_len(parts[i]))
    while open_parts:
        share = max(room // len(open_parts), 1)
        i = open_parts.pop(0)
        budget[i] = min(cell_len(parts[i]), share)
        room -= budget[i]
    return [p if cell_len(p) <= budget[i] else set_cell_size(p, max(budget[i] - 1, 0)) + "…"
            for i, p in enumerate(parts)]


def cut_lines(text: Text, width: int) -> Text:
    """Each line of ``text`` cut to ``width`` cells with an ellipsis (never
    wrapped); ``text`` as it is when ``width`` <= 0."""
    if width <= 0:
        return text
    rows = text.split("\n", allow_blank=True)
    for row in rows:
        if row.cell_len > width:
            row.truncate(width - 1)
            row.append("…", style=row.style)
    return Text("\n").join(rows)


def end_reason(events: Sequence[ev.Event], names: Sequence[str], viewer: int | None = None) -> str | None:
    """Why the game ended, one line for the score sheet (RULES §6): ``Game
    over after round 14: the deck ran out in Kaede's turn (RULES §6).`` (the
    round is then played out; ``your turn`` when ``viewer``, the seat the
    sheet is shown to, triggered it); None when the events hold no trigger."""
    trigger = next((e for e in events if isinstance(e, ev.EndTriggered)), None)
    if trigger is None:
        return None
    rounds, first, n, played = 0, 0, len(names), 0
    for event in events:
        if isinstance(event, ev.PlayStarted):
            rounds, first = 1, event.first_seat
        elif isinstance(event, ev.TurnEnded):
            played = rounds  # the round this turn was part of
            rounds += (event.seat + 1) % n == first
    why = {"deck": "the deck ran out", "torii": "the torii ran out"}.get(trigger.reason, trigger.reason)
    whose = "your" if trigger.seat == viewer else f"{names[trigger.seat]}'s"
    return f"Game over after round {played}: {why} in {whose} turn (RULES §6)."


def end_reason_title(title: Text, events: Sequence[ev.Event], names: Sequence[str],
                     viewer: int | None = None) -> Text:
    """The score sheet's title with why the game ended on the line under it
    (``end_reason``, told to ``viewer``; the title alone when the events hold
    no trigger)."""
    reason = end_reason(events, names, viewer)
    if reason is None:
        return title
    return Text.assemble(title, "\n", (reason, "italic"))


def seat_note(name: str, level: str | None, control: ev.SeatControlChanged | None) -> str | None:
    """What follows another seat's name in brackets: who plays it at a
    shared table (``control``, the view's ``seat_control``: ``away: a bot
    plays for them``, ``away``), else the bot's level, unless the name
    already ends with it (``Kaede (normal)``); None for nothing."""
    if control is not None and control.player is not None:
        if control.control == "bot":
            return "away: a bot plays for them"
        if control.reason == "left":
            return "away"
    if level and not name.endswith(f"({level})"):
        return level
    return None
