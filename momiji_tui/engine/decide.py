"""``decide``: validate a command against a state and say what happens.

``decide(state, command) -> list[Event]`` never changes ``state``. An illegal
command raises ``IllegalCommand`` with a sentence a player can read, citing
the RULES section it breaks.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import commands as cmd
from . import events as ev
from .cards import (
    CARD_KIND_ID, CARD_LEFT_ACORN, CARD_RIGHT_ACORN, CARD_TYPE, CARD_VALUE, Card, describe_card,
)
from .errors import IllegalCommand
from .fold import apply_in_place, working_copy
from .rules_data import (
    ACORN_PAIR_GAIN, BAMBOO_DRAW, BRIDGE_SAME_TYPE_MAX, DISPLAY_SIZE, EXCHANGE_DISCARD,
    EXCHANGE_GAIN, FESTIVAL_GIFT, FOX_DISCARDS_PER_ACORN, HAND_LIMIT, KOI_MAX, LANDSCAPE_COST,
    LANDSCAPES, LEAF_NAMES, MAX_VALUE, MIDDAY, MIXED_MIN, MOSS_PAIR_GAIN, OBJECTIVE_COST,
    OBJECTIVE_NAMES, PAGODA_OBJECTIVE_COST, REVEAL_COST, REVEAL_COUNT, SAME_TYPE_MAX,
    SPRING_GAIN, STONES_STEP, TEAHOUSE_COLUMNS,
)
from .setup import setup_events
from .state import DRAFT, PLAY, GameState, SeatState
from .turn_checks import check_hand_cards as _hand_cards
from .turn_checks import check_main_open, check_seat as _check_seat
from .turn_checks import check_turn_open as _require_play


class _Draft:
    """The state the events are applied to as they are decided (a scratch
    copy, or the caller's own state for ``run_in_place``), and the events.

    Every handler checks every rule before its first event, so an illegal
    command never leaves a half-changed state.
    """

    __slots__ = ("state", "events")

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.events: list[ev.Event] = []

    def emit(self, event: ev.Event) -> None:
        apply_in_place(self.state, event)
        self.events.append(event)


def decide(state: GameState, command: cmd.Command) -> list[ev.Event]:
    """The events that follow from ``command`` in ``state``.

    Raises ``IllegalCommand`` (and changes nothing) when the command breaks a
    rule, is not this seat's to give, or comes at the wrong time.
    """
    return _decided(state, command, in_place=False).events


def run(state: GameState, command: cmd.Command) -> tuple[GameState, list[ev.Event]]:
    """Decide and apply ``command``: the new state and the events.

    The scratch copy ``decide`` applied the events to is the new state, so
    the state is copied once. Raises ``IllegalCommand`` (state unchanged)
    when the command is illegal.
    """
    draft = _decided(state, command, in_place=False)
    return draft.state, draft.events


def run_in_place(state: GameState, command: cmd.Command) -> list[ev.Event]:
    """Decide ``command`` and apply its events to ``state`` itself, a state
    the caller owns (as with ``apply_in_place``; for simulations): no copy.

    Raises ``IllegalCommand`` and leaves ``state`` unchanged when the command
    is illegal: every rule is checked before the first event is applied.
    """
    return _decided(state, command, in_place=True).events


def _decided(state: GameState, command: cmd.Command, *, in_place: bool) -> _Draft:
    handler = _HANDLERS.get(type(command))
    if handler is None:
        raise IllegalCommand(f"Unknown command {command!r}.")
    _check_seat(state, command.seat)
    draft = _Draft(state if in_place else working_copy(state))
    try:
        handler(draft, command)
    except IllegalCommand:
        if draft.events:  # pragma: no cover - a handler must check everything first
            raise AssertionError(f"{command!r} was refused after it changed the state") from None
        raise
    return draft


# --------------------------------------------------------------------- checks


def _leaf(t: str) -> str:
    return LEAF_NAMES.get(t, t)


# ---------------------------------------------------------------- placement


def row_tops(seat: SeatState) -> tuple[dict[str, int], set[str]]:
    """``seat``'s row as placement sees it: each pile's top value by leaf
    type, and the leaf types of its closed piles."""
    tops: dict[str, int] = {}
    closed: set[str] = set()
    for pile in seat.row:
        tops[pile.leaf_type] = CARD_VALUE[pile.cards[-1]]
        if pile.closed:
            closed.add(pile.leaf_type)
    return tops, closed


class Misplaced:
    """Why cards cannot be placed (RULES §4.2): the rule broken (``why``),
    the card and the top it met; ``message()`` is the sentence for a player.
    A plain value, so that ``legal`` can test placements without exceptions."""

    __slots__ = ("why", "card", "top")

    def __init__(self, why: str, card: Card | None = None, top: int | None = None) -> None:
        self.why, self.card, self.top = why, card, top

    def message(self) -> str:
        """The sentence a player reads."""
        if self.card is None:  # "extra sides"
            return "More new-pile sides were given than the play starts piles."
        t = _leaf(CARD_TYPE[self.card])
        if self.why == "closed":
            return (f"Your {t} pile is closed by a torii: it takes no more cards, "
                    f"and you cannot start another (RULES §4.2).")
        if self.why == "no pile":
            return f"You have no {t} pile: this power plays onto an existing pile (RULES §1.5)."
        if self.why == "not zero":
            return f"A pile begins with a 0: {describe_card(self.card)} cannot start one (RULES §4.2)."
        if self.why == "no side":
            return f"Say which end of your row the new {t} pile goes to: left or right (RULES §4.2)."
        return (f"{describe_card(self.card)} cannot go on a {t} {self.top}: a card must equal "
                f"the top card or be exactly 1 higher (RULES §4.2).")


def placement(
    tops: dict[str, int], closed: set[str], cards: Sequence[Card], sides: Sequence[str], *,
    jump_allowed: bool, new_piles_allowed: bool = True,
) -> tuple[str, ...] | Misplaced:
    """Place ``cards`` one after the other into a row given by ``row_tops``
    (RULES §4.2); ``tops`` and ``closed`` are not changed.

    ``sides`` are consumed in order by the cards that start a new pile.
    ``jump_allowed``: one card may be up to 2 higher than the card it covers
    (Stepping Stones, RULES §1.5). Returns one side per card (``""`` for a
    card placed on an existing pile), or ``Misplaced``.
    """
    tops = dict(tops)
    closed = set(closed)
    out: list[str] = []
    side_iter = iter(sides)
    jumped = False
    for card in cards:
        t, v = CARD_TYPE[card], CARD_VALUE[card]
        if t in closed:
            return Misplaced("closed", card)
        top = tops.get(t)
        if top is None:
            if not new_piles_allowed:
                return Misplaced("no pile", card)
            if v != 0:
                return Misplaced("not zero", card)
            side = next(side_iter, None)
            if side not in (cmd.LEFT, cmd.RIGHT):
                return Misplaced("no side", card)
            out.append(side)
        else:
            step = v - top
            if step == 0 or step == 1:
                pass
            elif jump_allowed and not jumped and 0 < step <= STONES_STEP:
                jumped = True
            else:
                return Misplaced("step", card, top)
            out.append("")
        tops[t] = v
        if v == MAX_VALUE:
            closed.add(t)
    if next(side_iter, None) is not None:
        return Misplaced("extra sides")
    return tuple(out)


def plan_placement(
    seat: SeatState, cards: Sequence[Card], sides: Sequence[str], *, jump_allowed: bool,
    new_piles_allowed: bool = True,
) -> tuple[str, ...]:
    """``placement`` into ``seat``'s row; raises ``IllegalCommand`` when it fails."""
    tops, closed = row_tops(seat)
    result = placement(tops, closed, cards, sides, jump_allowed=jump_allowed,
                       new_piles_allowed=new_piles_allowed)
    if isinstance(result, Misplaced):
        raise IllegalCommand(result.message())
    return result


def play_order(cards: Sequence[Card]) -> tuple[str, tuple[Card, ...]]:
    """Classify a play and put it in placing order (RULES §4.2).

    Returns ``("same", cards lower first)`` or ``("mixed", cards as given)``.
    Cards of equal value go in the order of their kind (``CARD_KIND_ID``),
    so which copies of the same kinds are played never changes which
    corners end on top (legal.py lists one copy per kind).
    Raises ``IllegalCommand`` when the cards are neither one type nor all
    different types, or the count is wrong for the mode.
    """
    if not cards:
        raise IllegalCommand("Choose at least one card to play.")
    types = [CARD_TYPE[c] for c in cards]
    if len(set(types)) == 1:
        return "same", tuple(sorted(cards, key=lambda c: (CARD_VALUE[c], CARD_KIND_ID[c], c)))
    if len(set(types)) != len(types):
        raise IllegalCommand(
            "A play is 1 or 2 cards of one type, or 2 or more cards of different types, "
            "one per pile (RULES §4.2)."
        )
    assert len(cards) >= MIXED_MIN
    return "mixed", tuple(cards)


def acorn_pairs(seat: SeatState) -> int:
    """How many neighbouring pile pairs of ``seat``'s row show an acorn pair (RULES §4.2)."""
    row = seat.row
    return sum(
        1 for left, right in zip(row, row[1:])
        if CARD_RIGHT_ACORN[left.top] and CARD_LEFT_ACORN[right.top]
    )


def _emit_play(d: _Draft, seat: int, cards: tuple[Card, ...], sides: tuple[str, ...], mode: str) -> None:
    s = d.state
    d.emit(ev.CardsPlayed(seat, cards, sides, mode))
    row_before_closed = {p.leaf_type for p in s.seats[seat].row if p.closed}
    for card in cards:
        t = CARD_TYPE[card]
        if CARD_VALUE[card] == MAX_VALUE and t not in row_before_closed:
            row_before_closed.add(t)
            d.emit(ev.PileClosed(seat, t, torii=s.torii_left > 0))


# ------------------------------------------------------------------ handlers


def _draft_pick(d: _Draft, c: cmd.DraftPick) -> None:
    s = d.state
    if s.phase != DRAFT:
        raise IllegalCommand("The landscape draft is over.")
    if c.landscape not in s.draft_remaining:
        raise IllegalCommand(f"{c.landscape!r} is not in this round's draft offer (RULES §2.1).")
    d.emit(ev.LandscapeDrafted(c.seat, c.landscape))
    if d.state.phase != DRAFT:
        for e in setup_events(d.state):
            d.emit(e)


def _reveal(d: _Draft, c: cmd.Reveal) -> None:
    s = d.state
    _require_play(s, c)
    check_main_open(s)
    if s.turn.revealed:
        raise IllegalCommand("You may reveal only once per collect (RULES §4.1).")
    if s.deck_size == 0:
        raise IllegalCommand("The deck is empty: there is nothing to reveal (RULES §4.1).")
    cost = 0 if s.turn.boost == "waterfall" else REVEAL_COST
    if s.seats[c.seat].acorns < cost:
        raise IllegalCommand(f"Revealing costs {cost} acorn; you have none (RULES §4.1).")
    if cost:
        d.emit(ev.AcornsPaid(c.seat, cost, "reveal"))
    d.emit(ev.DisplayRevealed(s.deck[s.deck_pos:s.deck_pos + REVEAL_COUNT], "collect"))


def _collect(d: _Draft, c: cmd.Collect) -> None:
    s = d.state
    _require_play(s, c)
    check_main_open(s)
    columns = s.columns()
    if not columns:
        raise IllegalCommand("The display is empty: pay to reveal cards first (RULES §4.1).")
    want = min(TEAHOUSE_COLUMNS, len(columns)) if s.turn.boost == "teahouse" else 1
    if len(c.types) != want or len(set(c.types)) != len(c.types):
        if want == 1:
            raise IllegalCommand("Collect exactly one column (RULES §4.1).")
        raise IllegalCommand(f"With the Tea House, collect {want} different columns (RULES §1.5).")
    for t in c.types:
        if t not in columns:
            raise IllegalCommand(f"There is no {_leaf(t)} column in the display (RULES §4.1).")
    for t in c.types:
        d.emit(ev.ColumnCollected(c.seat, t, tuple(s.column(t))))


def _play(d: _Draft, c: cmd.Play) -> None:
    s = d.state
    _require_play(s, c)
    check_main_open(s)
    seat = s.seats[c.seat]
    _hand_cards(seat, c.cards)
    mode, ordered = play_order(c.cards)
    boost = s.turn.boost
    if mode == "same":
        limit = BRIDGE_SAME_TYPE_MAX if boost == "bridge" else SAME_TYPE_MAX
        if len(ordered) > limit:
            raise IllegalCommand(
                f"A same-type play places at most {limit} cards (RULES §4.2"
                + (", Red Bridge §1.5)." if limit > SAME_TYPE_MAX else ").")
            )
    sides = plan_placement(
        seat, ordered, c.new_pile_sides, jump_allowed=boost == "stones" and not s.turn.stones_used
    )
    _emit_play(d, c.seat, ordered, sides, mode)
    if mode == "mixed" or boost == "moss":
        pairs = acorn_pairs(d.state.seats[c.seat])
        if pairs:
            gain = MOSS_PAIR_GAIN if boost == "moss" else ACORN_PAIR_GAIN
            d.emit(ev.AcornsGained(c.seat, pairs * gain, "acorn pairs"))


def _objective_cost(s: GameState) -> int:
    return PAGODA_OBJECTIVE_COST if s.turn.boost == "pagoda" else OBJECTIVE_COST


def _check_objective(s: GameState, seat: int, objective: str | None, cost: int) -> str:
    if objective not in s.objectives:
        name = OBJECTIVE_NAMES.get(objective or "", objective)
        raise IllegalCommand(f"{name!r} is not one of this game's revealed objectives (RULES §1.4).")
    if objective in s.owners:
        owner = s.seats[s.owners[objective]].name
        raise IllegalCommand(f"{OBJECTIVE_NAMES[objective]} is already activated by {owner} (RULES §4.3).")
    if s.seats[seat].acorns < cost:
        raise IllegalCommand(
            f"Activating an objective costs {cost} acorns; you have {s.seats[seat].acorns} (RULES §4.3)."
        )
    return objective


def _activate(d: _Draft, c: cmd.ActivateObjective) -> None:
    s = d.state
    _require_play(s, c)
    check_main_open(s)
    cost = _objective_cost(s)
    _check_objective(s, c.seat, c.objective, cost)
    d.emit(ev.AcornsPaid(c.seat, cost, "objective"))
    d.emit(ev.ObjectiveActivated(c.seat, c.objective))


def _pass(d: _Draft, c: cmd.Pass) -> None:
    from .legal import can_take_main_action

    s = d.state
    _require_play(s, c)
    check_main_open(s)
    if can_take_main_action(s, c.seat):
        raise IllegalCommand("You can still take a main action, so you cannot pass (RULES §3).")
    d.emit(ev.MainActionPassed(c.seat))


def _exchange(d: _Draft, c: cmd.Exchange) -> None:
    s = d.state
    _require_play(s, c)
    if s.turn.exchanged:
        raise IllegalCommand("You may exchange only once per turn (RULES §3, §4.4).")
    if len(c.cards) != EXCHANGE_DISCARD:
        raise IllegalCommand(f"An exchange discards exactly {EXCHANGE_DISCARD} cards (RULES §4.4).")
    _hand_cards(s.seats[c.seat], c.cards, "discard")
    d.emit(ev.CardsDiscarded(c.seat, tuple(c.cards), "exchange"))
    d.emit(ev.AcornsGained(c.seat, EXCHANGE_GAIN, "exchange"))


def _discard_to_limit(d: _Draft, c: cmd.DiscardToLimit) -> None:
    s = d.state
    _require_play(s, c)
    seat = s.seats[c.seat]
    if not s.turn.main_done:
        raise IllegalCommand("The hand limit applies at the end of your turn (RULES §5.1).")
    excess = len(seat.hand) - HAND_LIMIT
    if excess <= 0:
        raise IllegalCommand(f"You hold {len(seat.hand)} cards: no need to discard (RULES §5.1).")
    if len(c.cards) != excess:
        raise IllegalCommand(f"Discard exactly {excess} card(s) to get down to {HAND_LIMIT} (RULES §5.1).")
    _hand_cards(seat, c.cards, "discard")
    d.emit(ev.CardsDiscarded(c.seat, tuple(c.cards), "hand limit"))


def _end_turn(d: _Draft, c: cmd.EndTurn) -> None:
    s = d.state
    _require_play(s, c)
    if not s.turn.main_done:
        raise IllegalCommand(
            "Take your main action first: collect, play or activate an objective "
            "(or pass if you cannot) (RULES §3)."
        )
    held = len(s.seats[c.seat].hand)
    if held > HAND_LIMIT:
        raise IllegalCommand(f"You hold {held} cards: discard down to {HAND_LIMIT} first (RULES §5.1).")
    need = DISPLAY_SIZE - len(s.display)
    if need > 0 and s.deck_size:
        d.emit(ev.DisplayRevealed(s.deck[s.deck_pos:s.deck_pos + need], "top-up"))
    if s.end_trigger is None:
        if s.deck_size == 0:
            d.emit(ev.EndTriggered(c.seat, "deck"))
        elif s.torii_left <= 0:
            d.emit(ev.EndTriggered(c.seat, "torii"))
    d.emit(ev.TurnEnded(c.seat))
    if s.end_trigger is not None and c.seat == s.last_seat:
        d.emit(ev.GameEnded())


# ---------------------------------------------------------------- landscapes


def _use_landscape(d: _Draft, c: cmd.UseLandscape) -> None:
    s = d.state
    _require_play(s, c)
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
    if seat.acorns < LANDSCAPE_COST:
        raise IllegalCommand(f"Using a landscape costs {LANDSCAPE_COST} acorn; you have none (RULES §4.5).")
    _check_power_args(s, seat, c, name)
    d.emit(ev.AcornsPaid(c.seat, LANDSCAPE_COST, "landscape"))
    d.emit(ev.LandscapeUsed(c.seat, lid))
    _POWERS.get(lid, _no_effect)(d, c)


def _check_power_args(s: GameState, seat: SeatState, c: cmd.UseLandscape, name: str) -> None:
    lid = c.landscape
    needs_hand = {"koi": (1, KOI_MAX), "bell": (1, 1), "crane": (1, 1), "fox": (1, len(seat.hand))}
    if lid in needs_hand:
        lo, hi = needs_hand[lid]
        if not seat.hand:
            raise IllegalCommand(f"{name}: your hand is empty (RULES §1.5).")
        if not lo <= len(c.hand_cards) <= max(hi, lo):
            many = f"{lo}" if lo == hi else f"{lo} to {hi}"
            raise IllegalCommand(f"{name}: choose {many} card(s) from your hand (RULES §1.5).")
        _hand_cards(seat, c.hand_cards, "use")
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
        cost = _objective_cost(s)
        _check_objective(s, c.seat, c.objective, LANDSCAPE_COST + cost)
    elif c.objective is not None:
        raise IllegalCommand(f"{name} takes no objective.")
    if lid == "crane":
        plan_placement(seat, c.hand_cards, (), jump_allowed=False, new_piles_allowed=False)


def _no_effect(d: _Draft, c: cmd.UseLandscape) -> None:
    """Midday powers change only this turn's main action (see ``TurnState.boost``)."""


def _draw_n(d: _Draft, seat: int, n: int) -> None:
    s = d.state
    cards = s.deck[s.deck_pos:s.deck_pos + n]
    if cards:
        d.emit(ev.CardsDrawn(seat, cards))


def _power_spring(d: _Draft, c: cmd.UseLandscape) -> None:
    d.emit(ev.AcornsGained(c.seat, SPRING_GAIN, "Mountain Spring"))


def _power_bamboo(d: _Draft, c: cmd.UseLandscape) -> None:
    _draw_n(d, c.seat, BAMBOO_DRAW)


def _power_lantern(d: _Draft, c: cmd.UseLandscape) -> None:
    d.emit(ev.CardTaken(c.seat, c.card, "display"))


def _power_koi(d: _Draft, c: cmd.UseLandscape) -> None:
    d.emit(ev.CardsDiscarded(c.seat, tuple(c.hand_cards), "Koi Pond"))
    _draw_n(d, c.seat, len(c.hand_cards))


def _power_terrace(d: _Draft, c: cmd.UseLandscape) -> None:
    d.emit(ev.CardTaken(c.seat, c.card, "discard"))


def _power_bell(d: _Draft, c: cmd.UseLandscape) -> None:
    d.emit(ev.CardsSwapped(c.seat, c.hand_cards[0], c.card))


def _power_pier(d: _Draft, c: cmd.UseLandscape) -> None:
    n = sum(1 for p in d.state.seats[c.seat].row if p.closed)
    if n:
        d.emit(ev.AcornsGained(c.seat, n, "Sunset Pier"))


def _power_crane(d: _Draft, c: cmd.UseLandscape) -> None:
    _emit_play(d, c.seat, tuple(c.hand_cards), ("",), "crane")


def _power_pine(d: _Draft, c: cmd.UseLandscape) -> None:
    n = sum(1 for p in d.state.seats[c.seat].row if p.top_value == 0)
    if n:
        d.emit(ev.AcornsGained(c.seat, n, "Pine Ridge"))


def _power_fox(d: _Draft, c: cmd.UseLandscape) -> None:
    d.emit(ev.CardsDiscarded(c.seat, tuple(c.hand_cards), "Fox Shrine"))
    gain = len(c.hand_cards) // FOX_DISCARDS_PER_ACORN
    if gain:
        d.emit(ev.AcornsGained(c.seat, gain, "Fox Shrine"))


def _power_moongate(d: _Draft, c: cmd.UseLandscape) -> None:
    d.emit(ev.AcornsPaid(c.seat, _objective_cost(d.state), "objective"))
    d.emit(ev.ObjectiveActivated(c.seat, c.objective, main_action=False))


def _power_festival(d: _Draft, c: cmd.UseLandscape) -> None:
    gained = 0
    for other in range(d.state.n_seats):
        if other != c.seat and d.state.seats[other].acorns >= FESTIVAL_GIFT:
            d.emit(ev.AcornsPaid(other, FESTIVAL_GIFT, "Autumn Festival"))
            gained += FESTIVAL_GIFT
    if gained:
        d.emit(ev.AcornsGained(c.seat, gained, "Autumn Festival"))


_POWERS = {
    "spring": _power_spring, "bamboo": _power_bamboo, "lantern": _power_lantern,
    "koi": _power_koi, "terrace": _power_terrace, "bell": _power_bell,
    "pier": _power_pier, "crane": _power_crane, "pine": _power_pine,
    "fox": _power_fox, "moongate": _power_moongate, "festival": _power_festival,
}

def _undo(d: _Draft, c: cmd.Undo) -> None:
    s = d.state
    if s.phase != PLAY:
        raise IllegalCommand("There is nothing to undo during the draft.")
    if s.turn.checkpoint is None or s.turn.since_checkpoint == 0:
        raise IllegalCommand(
            "Nothing to undo: your turn has just begun, or a hidden card was revealed since "
            "your last action (a reveal or a draw cannot be taken back)."
        )
    d.emit(ev.ActionsUndone(c.seat, s.turn.since_checkpoint))


_HANDLERS = {
    cmd.DraftPick: _draft_pick,
    cmd.Reveal: _reveal,
    cmd.Collect: _collect,
    cmd.Play: _play,
    cmd.ActivateObjective: _activate,
    cmd.Pass: _pass,
    cmd.Exchange: _exchange,
    cmd.UseLandscape: _use_landscape,
    cmd.DiscardToLimit: _discard_to_limit,
    cmd.EndTurn: _end_turn,
    cmd.Undo: _undo,
}
