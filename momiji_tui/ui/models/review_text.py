"""The post-game review in words: a sparkline of the seat's
estimated win chance, the three costliest turns, then every turn. Pure (rich
only, no Textual): the review screen shows it, ``momiji replay ID --review``
prints its plain text.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from ...engine import commands as cmd
from ...engine import events as ev
from ...engine.cards import CARD_KIND_ID, CARD_NAME
from ...engine.commands import Command
from ...engine.rules_data import LANDSCAPES, LEAF_NAMES, OBJECTIVE_NAMES
from ...session.review import Review, ReviewedDecision, ReviewedTurn

SPARKS = "▁▂▃▄▅▆▇█"


def sparkline(values: Sequence[float]) -> str:
    """One block per value, ``▁`` for a chance near 0 up to ``█`` near 1
    (the scale is absolute: 50% is always ``▄``/``▅``)."""
    return "".join(SPARKS[min(len(SPARKS) - 1, max(0, int(v * len(SPARKS))))] for v in values)


def percent(chance: float) -> str:
    """``0.4567`` → ``46%``."""
    return f"{round(chance * 100)}%"


def points(change: float) -> str:
    """A change of win chance in percentage points: ``−18``, ``+3``, ``±0``."""
    n = round(change * 100)
    return "±0" if n == 0 else (f"+{n}" if n > 0 else f"−{-n}")


def _card(card: int) -> str:
    """A card as the table writes it (``K1``: leaf type and value, no copy letter)."""
    return CARD_NAME[card][:2]


def _cards(cards: Sequence[int]) -> str:
    return " ".join(_card(c) for c in cards)


def command_text(command: Command) -> str:
    """A command in the game's words, e.g. ``play M2a C1b (new piles right)``."""
    match command:
        case cmd.Play(cards=cards, new_pile_sides=sides):
            where = f" (new pile{'s' if len(sides) > 1 else ''} {', '.join(sides)})" if sides else ""
            return f"play {_cards(cards)}{where}"
        case cmd.Collect(types=types):
            return "collect " + " + ".join(LEAF_NAMES.get(t, t) for t in types)
        case cmd.Reveal():
            return "reveal from the deck"
        case cmd.ActivateObjective(objective=objective):
            return f"objective {OBJECTIVE_NAMES.get(objective, objective)}"
        case cmd.Exchange(cards=cards):
            return f"exchange {_cards(cards)} for an acorn"
        case cmd.UseLandscape(landscape=landscape, hand_cards=hand, card=card, objective=objective):
            args = [_cards(hand)] if hand else []
            if card is not None:
                args.append(_card(card))
            if objective is not None:
                args.append(OBJECTIVE_NAMES.get(objective, objective))
            name = LANDSCAPES[landscape][1] if landscape in LANDSCAPES else landscape
            return f"use {name}" + (f" ({', '.join(args)})" if args else "")
        case cmd.DiscardToLimit(cards=cards):
            return f"discard {_cards(cards)}"
        case cmd.EndTurn():
            return "end the turn"
        case cmd.Pass():
            return "pass"
        case cmd.DraftPick(landscape=landscape):
            return f"draft {LANDSCAPES[landscape][1] if landscape in LANDSCAPES else landscape}"
        case _:
            return "undo"


def played_text(d: ReviewedDecision, seat: int, events: Sequence[ev.Event] = ()) -> str:
    """The seat's move of ``d`` in words. A play is told as the log tells it,
    each new pile with its end (``play M0 (new pile, right end), K0 (new
    pile, left end)``), from the ``CardsPlayed`` at ``events[d.position]``:
    the review searched the listed play with the same outcome (RULES §4.2),
    whose ends may read otherwise. Anything else, or no such event:
    :func:`command_text`."""
    command = d.command
    if isinstance(command, cmd.Play) and 0 <= d.position < len(events):
        logged = events[d.position]
        if (isinstance(logged, ev.CardsPlayed) and logged.seat == seat and logged.mode != "crane"
                and sorted(CARD_KIND_ID[c] for c in logged.cards) == sorted(CARD_KIND_ID[c] for c in command.cards)):
            parts = [_card(c) + (f" (new pile, {side} end)" if side else "")
                     for c, side in zip(logged.cards, logged.sides, strict=True)]
            return "play " + ", ".join(parts)
    return command_text(command)


def decision_line(d: ReviewedDecision, width: int = 80, noise: float = 0.0, played: str | None = None) -> Text:
    """``  −18  play M2a C1b 36% · Hard: collect Maple 54%``: the change first
    (so a cut line keeps it; red when it exceeds ``noise``, the review's
    ``Review.noise``), or ``  ✓  reveal from the deck 48%`` when Hard chose
    the same. ``played``: the seat's move in words (default:
    :func:`command_text` of ``d.command``)."""
    line = Text("  ")
    if d.best == d.command:
        line.append(f"{'✓':>3}  ", style="green")
    else:
        line.append(f"{points(d.change):>3}  ", style="bold red" if d.cost >= 0.005 and d.cost > noise else "dim")
    line.append(played or command_text(d.command), style="bold")
    line.append(f" {percent(d.chance)}")
    if d.best != d.command:
        line.append(f" · Hard: {command_text(d.best)} {percent(d.best_chance)}", style="cyan")
    line.truncate(max(10, width), overflow="ellipsis")
    return line


def turn_heading(t: ReviewedTurn, noise: float = 0.0) -> Text:
    """``Turn 7: −18 points of win chance`` (or ``nothing lost``; a loss
    no decision of which exceeds ``noise``, the review's ``Review.noise``:
    ``−2 points of win chance, within the search's noise``)."""
    head = Text(f"Turn {t.turn}", style="bold")
    cost = round(t.cost * 100)
    blamed = round(t.blame(noise) * 100) > 0
    lost = f": −{cost} point{'s' if cost != 1 else ''} of win chance" if cost else ": nothing lost"
    if cost and not blamed:
        lost += ", within the search's noise"
    head.append(lost, style="red" if blamed else "dim")
    return head


def review_text(review: Review, width: int = 80, events: Sequence[ev.Event] = ()) -> Text:
    """The whole review: what it is, the chart, the costliest turns, every
    turn. ``events``: the game's log, to tell the seat's plays as the log
    did (:func:`played_text`); without it, plays are told as searched."""
    out = Text()
    who = "" if review.seat_name == "You" else f" as {review.seat_name}"
    out.append(f"Your decisions{who}, reviewed by Hard", style="bold")
    out.append(f" — from your own view at each moment only (RULES §8); {review.iterations} iterations a "
               "decision; a chance is Hard's estimate, not a certainty; a loss under "
               f"{round(review.noise * 100)} points may be the search's own noise and is not "
               "blamed.\n", style="dim")
    if not review.turns:
        out.append("There were no decisions to review (every move was forced).\n")
        return out
    series = review.series
    out.append("Win chance by turn: ")
    out.append(sparkline(series), style="bold yellow")
    out.append(f"  first {percent(series[0])}, last {percent(series[-1])}\n")
    worst = review.worst
    noise = review.noise
    out.append("\nCostliest turns\n", style="bold underline")
    if not worst:
        out.append("  None: every decision was as good as Hard's, within the search's noise.\n")
    for t in worst:
        out.append_text(turn_heading(t, noise))
        out.append("\n")
        for d in t.decisions:
            if d.cost > noise:
                out.append_text(decision_line(d, width, noise, played_text(d, review.seat, events)))
                out.append("\n")
    out.append("\nEvery turn\n", style="bold underline")
    for t in review.turns:
        out.append_text(turn_heading(t, noise))
        out.append("\n")
        for d in t.decisions:
            out.append_text(decision_line(d, width, noise, played_text(d, review.seat, events)))
            out.append("\n")
    out.rstrip()
    return out
