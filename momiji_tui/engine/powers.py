"""Landscape powers (RULES §4.5, §1.5): the checks of ``UseLandscape`` and
what each power does, one handler per power in ``POWERS``.

Every check comes before the first event, so a refused use changes nothing.
"""

from __future__ import annotations

from . import commands as cmd
from . import events as ev
from .decision import Decision, emit_play
from .errors import IllegalCommand
from .placement import plan_placement
from .rules_data import (
    LANDSCAPES,
    MIDDAY, acorns_text,
)
from .state import GameState, SeatState
from .turn_checks import check_hand_cards, check_objective, check_turn_open, objective_cost


def use_landscape(d: Decision, c: cmd.UseLandscape) -> None:
    """Pay the landscape's cost (1 acorn unless the game's rules version says
    otherwise: ``GameState.rules``) and use a landscape of the seat's panorama
    (RULES §4.5, §1.5).

    Raises ``IllegalCommand`` (before any event) when the landscape is not
    the seat's, is used already, a landscape was used this turn, a midday
    power comes after the main action, the seat has no acorn, or the
    power's arguments do not fit it (``check_power_args``), or the seat has
    fewer acorns than the landscape costs.
    """
    s = d.state
    check_turn_open(s, c)
    seat = s.seats[c.seat]
    lid = c.landscape
    if lid not in seat.panorama:
        raise IllegalCommand(f"{LANDSCAPES.get(lid, (None, lid))[1]} is not in your panorama (RULES §4.5).")
    name = LANDSCAPES[lid][1]
    if lid in seat.used:
        raise IllegalCommand(f"{name} has been used already: each power works once per game (RULES §1.5).")
    if s.turn.landscape is not None:
        raise IllegalCommand("You may use only one landscape per turn (RULES §3, §4.5).")
    if LANDSCAPES[lid][0] == MIDDAY and s.turn.main_done:
        raise IllegalCommand(f"{name} is a midday power: use it before your main action (RULES §4.5).")
    cost = s.rules.landscape_cost(lid)
    if seat.acorns < cost:
        have = seat.acorns or "none"
        raise IllegalCommand(f"Using {name} costs {acorns_text(cost)}; you have {have} (RULES §4.5).")
    check_power_args(s, seat, c, name)
    if cost:  # a free landscape pays nothing (RULES §4.5)
        d.emit(ev.AcornsPaid(c.seat, cost, "landscape"))
    d.emit(ev.LandscapeUsed(c.seat, lid))
    POWERS.get(lid, _no_effect)(d, c)


def check_power_args(s: GameState, seat: SeatState, c: cmd.UseLandscape, name: str) -> None:
    """The arguments of ``c`` fit its power (RULES §1.5): hand cards for koi,
    bell, crane and fox; a display card for lantern and bell; a discard-pile
    card for terrace; an objective for moongate; nothing else. Raises
    ``IllegalCommand`` naming the power (``name``) otherwise."""
    lid = c.landscape
    needs_hand = {"koi": (1, s.rules.koi_max), "bell": (1, 1), "crane": (1, 1), "fox": (1, len(seat.hand))}
    if lid in needs_hand:
        lo, hi = needs_hand[lid]
        if not seat.hand:
            raise IllegalCommand(f"{name}: your hand is empty (RULES §1.5).")
        if not lo <= len(c.hand_cards) <= max(hi, lo):
            many = f"{lo}" if lo == hi else f"{lo} to {hi}"
            raise IllegalCommand(f"{name}: choose {many} card(s) from your hand (RULES §1.5).")
        check_hand_cards(seat, c.hand_cards, "use")
    elif c.hand_cards:
        raise IllegalCommand(f"{name} takes no cards from your hand.")
    if lid in ("lantern", "bell"):
        if c.card not in s.display:
            raise IllegalCommand(f"{name}: choose a card in the display (RULES §1.5).")
    elif lid == "terrace":
        if c.card not in s.discard:
            raise IllegalCommand(f"{name}: choose a card in the discard pile (RULES §1.5).")
    elif c.card is not None:
        raise IllegalCommand(f"{name} takes no card from the table.")
    if lid in ("bamboo", "koi") and s.deck_size == 0:
        raise IllegalCommand(f"{name}: the deck is empty (RULES §1.5).")
    if lid == "moongate":
        if c.objective is None:
            raise IllegalCommand(f"{name}: choose an objective to activate (RULES §1.5).")
        cost = objective_cost(s)
        check_objective(s, c.seat, c.objective, s.rules.landscape_cost(lid) + cost)
    elif c.objective is not None:
        raise IllegalCommand(f"{name} takes no objective.")
    if lid == "crane":
        plan_placement(seat, c.hand_cards, (), jump_step=0, new_piles_allowed=False)


def _no_effect(d: Decision, c: cmd.UseLandscape) -> None:
    """Midday powers change only this turn's main action (see ``TurnState.boost``)."""


def _draw_n(d: Decision, seat: int, n: int) -> None:
    s = d.state
    cards = s.deck[s.deck_pos:s.deck_pos + n]
    if cards:
        d.emit(ev.CardsDrawn(seat, cards))


def _power_spring(d: Decision, c: cmd.UseLandscape) -> None:
    d.emit(ev.AcornsGained(c.seat, d.state.rules.spring_gain, "Mountain Spring"))


def _power_bamboo(d: Decision, c: cmd.UseLandscape) -> None:
    _draw_n(d, c.seat, d.state.rules.bamboo_draw)


def _power_lantern(d: Decision, c: cmd.UseLandscape) -> None:
    assert c.card is not None  # check_power_args refused it otherwise
    d.emit(ev.CardTaken(c.seat, c.card, "display"))


def _power_koi(d: Decision, c: cmd.UseLandscape) -> None:
    d.emit(ev.CardsDiscarded(c.seat, tuple(c.hand_cards), "Koi Pond"))
    _draw_n(d, c.seat, len(c.hand_cards))


def _power_terrace(d: Decision, c: cmd.UseLandscape) -> None:
    assert c.card is not None  # check_power_args refused it otherwise
    d.emit(ev.CardTaken(c.seat, c.card, "discard"))


def _power_bell(d: Decision, c: cmd.UseLandscape) -> None:
    assert c.card is not None  # check_power_args refused it otherwise
    d.emit(ev.CardsSwapped(c.seat, c.hand_cards[0], c.card))


def _power_pier(d: Decision, c: cmd.UseLandscape) -> None:
    n = sum(1 for p in d.state.seats[c.seat].row if p.closed)
    if n:
        d.emit(ev.AcornsGained(c.seat, n, "Sunset Pier"))


def _power_crane(d: Decision, c: cmd.UseLandscape) -> None:
    emit_play(d, c.seat, tuple(c.hand_cards), ("",), "crane")


def _power_pine(d: Decision, c: cmd.UseLandscape) -> None:
    n = sum(1 for p in d.state.seats[c.seat].row if p.top_value == 0)
    if n:
        d.emit(ev.AcornsGained(c.seat, n, "Pine Ridge"))


def _power_fox(d: Decision, c: cmd.UseLandscape) -> None:
    d.emit(ev.CardsDiscarded(c.seat, tuple(c.hand_cards), "Fox Shrine"))
    gain = len(c.hand_cards) // d.state.rules.fox_discards_per_acorn
    if gain:
        d.emit(ev.AcornsGained(c.seat, gain, "Fox Shrine"))


def _power_moongate(d: Decision, c: cmd.UseLandscape) -> None:
    assert c.objective is not None  # check_power_args refused it otherwise
    d.emit(ev.AcornsPaid(c.seat, objective_cost(d.state), "objective"))
    d.emit(ev.ObjectiveActivated(c.seat, c.objective, main_action=False))


def _power_festival(d: Decision, c: cmd.UseLandscape) -> None:
    gained = 0
    gift = d.state.rules.festival_gift
    for other in range(d.state.n_seats):
        if other != c.seat and d.state.seats[other].acorns >= gift:
            d.emit(ev.AcornsPaid(other, gift, "Autumn Festival"))
            gained += gift
    if gained:
        d.emit(ev.AcornsGained(c.seat, gained, "Autumn Festival"))


POWERS = {
    "spring": _power_spring, "bamboo": _power_bamboo, "lantern": _power_lantern,
    "koi": _power_koi, "terrace": _power_terrace, "bell": _power_bell,
    "pier": _power_pier, "crane": _power_crane, "pine": _power_pine,
    "fox": _power_fox, "moongate": _power_moongate, "festival": _power_festival,
}
