"""The move a player is building at the table, with no Textual in it.

``MoveDraft`` holds the player's selections (hand cards, display columns,
the ends new piles go to, a landscape power or the hand-limit discard being
built, the cursor) as typed state, turns them into the ``Command`` they
mean, and says why an action cannot be taken now: one handler per action
(``REASONS``, as ``engine/decide.py`` has one per command; every rules
reason is the engine's own sentence, ``engine.explain``, with its RULES §;
the only reasons written here are about the selection), with quick answers
for the footer (``ALLOWED``: from the legal commands; ``QUICK``: from the
selection alone).

The screen feeds it a fresh view (``set_view``) after every change of the
game and calls its methods on key presses; it never calls the engine itself.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Literal

from ... import engine
from ...engine import (
    ActivateObjective, Collect, Command, DiscardToLimit, DraftPick, EndTurn, Exchange, Pass, Play, PlayerView,
    Reveal, Undo, UseLandscape,
)
from ...engine.cards import CARD_TYPE, CARD_VALUE, Card
from ...engine.errors import IllegalCommand
from ...engine.rules_data import HAND_LIMIT, OBJECTIVE_COST, landscape_cost_text
from .move_flows import (
    GAME_ACTIONS, HAND_KEYS, NO_FLOW, POWER_FLOWS, Check, DiscardFlow, Flow, Judge, LandscapeFlow, PowerFlow, Zone,
    cannot_judge, explain, hand_order,
)
from .preview import PlayPreview, arrangements, new_pile_types, play_preview
from .render import display_columns, leaf_name

__all__ = [
    "GAME_ACTIONS", "HAND_KEYS", "POWER_FLOWS", "DiscardFlow", "Flow", "LandscapeFlow", "MoveDraft", "PowerFlow",
    "Zone", "explain", "hand_order",
]


class MoveDraft:
    """The selections of seat ``seat`` and the command they make."""

    def __init__(self, seat: int, key: Callable[[str], str] = lambda binding_id: binding_id,
                 check: Check | None = None) -> None:
        self.seat = seat
        self.check = check  # the events a public command would cause (``Table.check``), if known
        self.key = key  # the key shown for a binding id (the player's key map applied)
        self.view: PlayerView | None = None
        self.legal: tuple[Command, ...] = ()
        self._kinds: frozenset[type] = frozenset()  # the kinds of command among ``legal``
        self.selected: list[Card] = []  # hand cards, in the order chosen
        self.columns: list[str] = []  # display columns chosen for a collect
        self.zone = Zone.HAND
        self.cursor: dict[Zone, int] = {Zone.HAND: 0, Zone.DISPLAY: 0}
        self.ends = 0  # which arrangement of new piles (preview.arrangements)
        self.flow: Flow | None = None
        self._reasons: dict[str, str | None] = {}  # per view: actions that do not depend on the selection
        self._checks: dict[Play, tuple[PlayPreview | None, str | None]] = {}
        self._judge: tuple[PlayerView, Judge] | None = None  # the view's explainer (one state per view)

    # ------------------------------------------------------------ the view

    def set_view(self, view: PlayerView, legal: Sequence[Command]) -> None:
        """A new view of the game (after any change) and the seat's legal
        commands now (``Table.legal``); selections that no longer apply go."""
        self.view = view
        self.legal = tuple(legal)
        self._kinds = frozenset(type(c) for c in self.legal)
        self._reasons.clear()
        self._checks.clear()
        hand = self.hand
        self.selected = [c for c in self.selected if c in hand]
        present = self.present
        self.columns = [t for t in self.columns if t in present]
        if not self.my_turn or view.turn.main_done:
            self.columns.clear()
        if self.flow is not None and not self.my_turn:
            self.flow = None
        self.cursor[Zone.HAND] = min(self.cursor[Zone.HAND], max(len(hand) - 1, 0))
        self.cursor[Zone.DISPLAY] = min(self.cursor[Zone.DISPLAY], max(len(present) - 1, 0))

    @property
    def hand(self) -> list[Card]:
        """The seat's hand as shown (``hand_order``)."""
        me = self.view.me if self.view is not None else None
        return hand_order(me.hand or ()) if me is not None else []

    @property
    def present(self) -> list[str]:
        """The display's columns, by leaf type."""
        return [t for t, _ in display_columns(self.view)] if self.view is not None else []

    @property
    def my_turn(self) -> bool:
        """True while the seat plays its turn (RULES §3)."""
        v = self.view
        return v is not None and v.phase == "play" and v.current == self.seat

    @property
    def objective_cost(self) -> int:
        """What an objective costs now (RULES §4.3; Pagoda §1.5)."""
        v = self.view
        return v.rules.pagoda_objective_cost if v is not None and v.turn.boost == "pagoda" else OBJECTIVE_COST

    @property
    def columns_wanted(self) -> int:
        """Columns a collect takes now: 1, or 2 with the Tea House (RULES §1.5)."""
        v = self.view
        n = len(self.present)
        return min(v.rules.teahouse_columns, n) if v is not None and v.turn.boost == "teahouse" else 1

    def can(self, kind: type) -> bool:
        """True when some legal command is of ``kind`` (e.g. ``Pass``)."""
        return any(issubclass(legal_kind, kind) for legal_kind in self._kinds)

    # ------------------------------------------------------- selections

    def done(self) -> None:
        """Forget the selection (after an accepted command)."""
        self.selected.clear()
        self.columns.clear()
        self.flow = None
        self.ends = 0

    def toggle_card(self, index: int) -> str | None:
        """Select or unselect the hand card at ``index`` (0-based); returns
        why not when there is no such card."""
        hand = self.hand
        if index >= len(hand):
            key = HAND_KEYS[index] if index < len(HAND_KEYS) else str(index + 1)
            return f"There is no card {key} in your hand."
        self.zone = Zone.HAND
        self.cursor[Zone.HAND] = index
        card = hand[index]
        if card in self.selected:
            self.selected.remove(card)
        else:
            self.selected.append(card)
            if self.flow is None:
                self.columns.clear()
        self.ends = 0
        return None

    def toggle_column(self, leaf_type: str) -> str | None:
        """Select or unselect a display column for a collect (RULES §4.1);
        returns why not."""
        if self.flow is not None:
            return "Finish or cancel (Esc) the landscape first."
        reason = self.reason("collect")
        if reason:
            return reason
        present = self.present
        if leaf_type not in present:
            return f"The display has no {leaf_name(leaf_type)} column."
        self.zone = Zone.DISPLAY
        self.cursor[Zone.DISPLAY] = present.index(leaf_type)
        if leaf_type in self.columns:
            self.columns.remove(leaf_type)
        else:
            self.columns = [*self.columns, leaf_type][-self.columns_wanted:]
            self.selected.clear()
        self.ends = 0
        return None

    def add_for_pile(self, leaf_type: str) -> str | None:
        """A pile's key: add the hand card that fits on that pile (or starts
        it) to the play; again for a second card; unselect that type when
        none fits any more. Returns why not."""
        v = self.view
        if v is None or v.me is None:
            return "There is no game on the table."
        pile = next((p for p in v.me.row if p.leaf_type == leaf_type), None)
        if pile is not None and pile.closed:
            return self.explain(Play(self.seat, tuple(c for c in self.hand if CARD_TYPE[c] == leaf_type)[:1])) \
                or f"Your {leaf_name(leaf_type)} pile is closed."
        chosen = [c for c in self.selected if CARD_TYPE[c] == leaf_type]
        top = max((CARD_VALUE[c] for c in chosen), default=None)
        if top is None and pile is not None:
            top = CARD_VALUE[pile.cards[-1]]
        fits = [c for c in self.hand if CARD_TYPE[c] == leaf_type and c not in self.selected
                and (CARD_VALUE[c] == 0 if top is None else CARD_VALUE[c] - top in (0, 1))]
        if not fits:
            if chosen:
                self.selected = [c for c in self.selected if CARD_TYPE[c] != leaf_type]
                self.ends = 0
                return None
            where = (f"on your {leaf_name(leaf_type)} pile (top {top})" if pile
                     else f"to start a new {leaf_name(leaf_type)} pile")
            return f"No card in your hand fits {where}."
        self.columns.clear()
        self.selected.append(fits[0])
        self.zone = Zone.HAND
        self.cursor[Zone.HAND] = self.hand.index(fits[0])
        self.ends = 0
        return None

    def type_key(self, leaf_type: str) -> Literal["column", "pile"] | str:
        """What a type letter means now: ``"column"`` (a display column to
        collect), ``"pile"`` (your pile of that type, while you build a play
        or with no such column), or why it means nothing."""
        v = self.view
        if v is None:
            return "There is no game on the table."
        building = bool(self.selected) or self.flow is not None
        if not building and leaf_type in self.present and not (self.my_turn and v.turn.main_done):
            return "column"
        if leaf_type in v.types:
            return "pile"
        return f"{leaf_name(leaf_type)} is not in play in this game."

    def move(self, delta: int) -> None:
        """Move the cursor left or right in its zone (wrapping)."""
        n = len(self.present) if self.zone is Zone.DISPLAY else len(self.hand)
        if n:
            self.cursor[self.zone] = (self.cursor[self.zone] + delta) % n

    def under_cursor(self) -> tuple[Zone, int | str] | None:
        """The hand index or the display column under the cursor."""
        if self.zone is Zone.DISPLAY:
            present = self.present
            return (Zone.DISPLAY, present[self.cursor[Zone.DISPLAY] % len(present)]) if present else None
        return Zone.HAND, self.cursor[Zone.HAND]

    def back(self) -> str:
        """Step back: cancel the flow being built, else clear the selection.
        Returns what to tell the player ("Cancelled." or nothing)."""
        said = ""
        if self.flow is not None:
            self.flow = None
            said = "Cancelled."
        else:
            self.columns.clear()
            self.selected.clear()
        self.ends = 0
        return said

    def start_discard(self, then_end: bool) -> None:
        """Start selecting the hand-limit discards (RULES §5.1)."""
        if not isinstance(self.flow, DiscardFlow) or then_end:
            self.flow = DiscardFlow(then_end)
        if then_end:
            self.selected.clear()
            self.zone = Zone.HAND

    def start_landscape(self, landscape: str) -> bool:
        """Start using ``landscape``; True when its hand cards are selected
        next (the flow is kept), False when it can be used at once."""
        if not POWER_FLOWS.get(landscape, NO_FLOW).hand:
            return False
        self.flow = LandscapeFlow(landscape)
        self.columns.clear()
        self.zone = Zone.HAND
        return True

    # ------------------------------------------------------------ commands

    def arrangements(self) -> list[tuple[str, ...]]:
        """Every way to place the new piles of the selected play (RULES §4.2)."""
        me = self.view.me if self.view is not None else None
        return arrangements(me, new_pile_types(me, self.selected)) if me is not None else []

    def play_command(self) -> Play:
        """The play of the selected cards, new piles at the chosen ends (RULES §4.2)."""
        options = self.arrangements()
        sides = options[self.ends % len(options)] if options else ()
        return Play(self.seat, tuple(self.selected), tuple(sides))

    def collect_command(self) -> Collect:
        """The collect of the chosen columns (RULES §4.1)."""
        return Collect(self.seat, tuple(self.columns))

    def discard_command(self) -> DiscardToLimit:
        """The hand-limit discard of the selected cards (RULES §5.1)."""
        return DiscardToLimit(self.seat, tuple(self.selected))

    def exchange_command(self) -> Exchange | None:
        """The exchange of the 2 selected cards (RULES §4.4), None unless 2 are selected."""
        if len(self.selected) != 2:
            return None
        return Exchange(self.seat, (self.selected[0], self.selected[1]))

    def draft_pick(self, landscape: str) -> tuple[DraftPick | None, str | None]:
        """The pick of ``landscape`` in the landscape draft (RULES §2.1), or
        None and the engine's reason it cannot be picked now."""
        command = DraftPick(self.seat, landscape)
        reason = self.explain(command)
        return (None, reason) if reason else (command, None)

    def landscape_command(self, landscape: str, *, card: Card | None = None,
                          objective: str | None = None) -> UseLandscape:
        """The use of ``landscape`` with the selected hand cards (if it takes
        any), the ``card`` chosen from the table and the ``objective``."""
        hand_cards = tuple(self.selected) if POWER_FLOWS.get(landscape, NO_FLOW).hand else ()
        return UseLandscape(self.seat, landscape, hand_cards=hand_cards, card=card, objective=objective)

    def check_play(self) -> tuple[PlayPreview | None, str | None]:
        """The preview of the selected play, or the engine's reason it is not
        one (RULES §4.2, §7)."""
        v = self.view
        if v is None or v.me is None:
            return None, "There is no game on the table."
        command = self.play_command()
        if command not in self._checks:
            reason = self.explain(command)
            preview = None
            if reason is None:
                try:
                    preview = play_preview(v.me, self._events(command))
                except IllegalCommand as refused:
                    # The view is behind the table (keys read before it was
                    # redrawn, e.g. after a reveal): the table's own refusal.
                    reason = str(refused)
            self._checks[command] = (preview, reason)
        return self._checks[command]

    # ------------------------------------------------------------- reasons

    def reason(self, action: str) -> str | None:
        """Why ``action`` (a table action name, ``GAME_ACTIONS``) cannot be
        taken now, or None when it can. Rules reasons are the engine's
        (``explain``); the rest are about the selection or whose turn it is."""
        decided, why = self._common_reason(action)
        if decided:
            return why
        if action in SELECTION_ACTIONS:
            return REASONS[action](self)
        if action not in self._reasons:
            self._reasons[action] = REASONS[action](self)
        return self._reasons[action]

    def allows(self, action: str) -> bool:
        """Whether ``action`` can be taken now: ``reason(action) is None``,
        told for the actions that depend only on the view by the legal
        commands (``ALLOWED``), and for those about the selection when the
        selection alone decides (``QUICK``), without working out the
        engine's sentence (the footer asks it of every key after each change).
        Equal on every view of a dealt game, not on one no state completes
        (``cannot_judge``): that has no engine answer, so the quick one is given."""
        decided, why = self._common_reason(action)
        if decided:
            return why is None
        quick = ALLOWED.get(action) or QUICK.get(action)  # ALLOWED's answer is never None
        answer = quick(self) if quick is not None else None
        return answer if answer is not None else self.reason(action) is None

    def _common_reason(self, action: str) -> tuple[bool, str | None]:
        """The reasons that come before each action's own: (True, reason or
        None) when one decides, (False, None) when the action's handler must."""
        v = self.view
        if v is None or v.me is None:
            return True, "There is no game on the table."
        if action not in GAME_ACTIONS:
            return True, None
        if v.phase != "play":
            return True, "The game is over." if v.phase == "ended" else "The game has not started."
        if not self.my_turn:
            return True, f"It is {v.seats[v.current].name}'s turn."
        turn = v.turn
        if (action in ("collect", "reveal", "objective") and self.selected and self.flow is None
                and not turn.main_done and not turn.limit_discarded):
            return True, (f"You are building a play: {self.key('table.confirm')} plays it, "
                          f"{self.key('table.back')} clears the selection.")
        return False, None

    def explain(self, command: Command) -> str | None:
        """The engine's reason ``command`` is refused now, or None (``explain``),
        judged on one state built once for this view (``engine.Explainer``)."""
        v = self.v
        if self._judge is None or self._judge[0] is not v:
            try:
                judge: Judge = engine.Explainer(v)
            except ValueError as error:  # a view no state completes: ``explain`` falls back to ``check``
                judge = cannot_judge(error)
            self._judge = (v, judge)
        return explain(v, command, self.check, self._judge[1])

    def _events(self, command: Command) -> Sequence[engine.Event]:
        """The events of a legal public ``command`` (for its preview)."""
        if self.check is not None:
            return self.check(command)
        return engine.decide(engine.determinize(self.v, random.Random(0)), command)

    def landscape_reason(self, landscape: str) -> str | None:
        """Why ``landscape`` cannot be used now (the engine's sentence), or None."""
        if any(isinstance(c, UseLandscape) and c.landscape == landscape for c in self.legal):
            return None
        return self.explain(UseLandscape(self.seat, landscape)) or "Not with the cards you hold."

    def objective_reason(self, objective: str, *, moongate: bool = False) -> str | None:
        """Why ``objective`` cannot be activated now (by the Moon Gate), or None."""
        command: Command = (UseLandscape(self.seat, "moongate", objective=objective) if moongate
                            else ActivateObjective(self.seat, objective))
        return self.explain(command)

    @property
    def v(self) -> PlayerView:
        """The view (a draft in use always has one)."""
        assert self.view is not None
        return self.view


# ----------------------------------------------- why an action cannot be taken

def _any_or_explain(d: MoveDraft, kind: type, example: Command) -> str | None:
    return None if d.can(kind) else d.explain(example)


def _why_collect(d: MoveDraft) -> str | None:
    present = d.present
    return _any_or_explain(d, Collect, Collect(d.seat, tuple(present[:1])))


def _why_reveal(d: MoveDraft) -> str | None:
    return d.explain(Reveal(d.seat))


def _why_objective(d: MoveDraft) -> str | None:
    v = d.v
    free = [o for o in v.objectives if v.owner_of(o) is None] or list(v.objectives)
    return _any_or_explain(d, ActivateObjective, ActivateObjective(d.seat, free[0] if free else ""))


def _why_landscape(d: MoveDraft) -> str | None:
    me = d.v.me
    assert me is not None
    unused = [lid for lid in me.panorama if lid not in me.used] or list(me.panorama)
    if not unused:
        return "You have no landscape."
    if d.can(UseLandscape):
        return None
    rules = d.v.rules
    if me.acorns < min(rules.landscape_cost(lid) for lid in unused):  # every one's cost, not the first's
        have = me.acorns or "none"
        return f"Using a landscape costs {landscape_cost_text(rules, unused)}; you have {have} (RULES §4.5)."
    return d.explain(UseLandscape(d.seat, unused[0]))


def _why_discard(d: MoveDraft) -> str | None:
    me = d.v.me
    assert me is not None
    excess = max(me.hand_size - HAND_LIMIT, 0)
    return d.explain(DiscardToLimit(d.seat, tuple(d.hand[:excess])))


def _why_end_turn(d: MoveDraft) -> str | None:
    v = d.v
    me = v.me
    assert me is not None
    if v.turn.main_done and me.hand_size > HAND_LIMIT and not v.turn.limit_discarded:
        return None  # ending asks for the discards first
    if not v.turn.main_done and d.can(Pass):
        return None  # ending passes first (RULES §3)
    return d.explain(EndTurn(d.seat))


def _why_undo(d: MoveDraft) -> str | None:
    return d.explain(Undo(d.seat))


def _why_play(d: MoveDraft) -> str | None:
    turn = d.v.turn
    if turn.main_done or turn.revealed or turn.limit_discarded:
        return d.explain(Play(d.seat, tuple(d.selected)))
    if not d.selected:
        return "Select the cards to play first (1–0, or click them)."
    return d.check_play()[1]


def _why_exchange(d: MoveDraft) -> str | None:
    command = d.exchange_command()
    if command is None:
        hand = d.hand
        reason = d.explain(Exchange(d.seat, (hand[0], hand[1]))) if len(hand) >= 2 else None
        return reason or "Select exactly 2 cards to exchange for 1 acorn."
    return d.explain(command)


def _why_ends(d: MoveDraft) -> str | None:
    if d.v.turn.revealed:  # a paid reveal waits for its collect (RULES §4.1): the engine says so
        return d.explain(Play(d.seat, tuple(d.selected)))
    if not d.selected:
        return "Select cards that start new piles first."
    if len(d.arrangements()) < 2:
        return "This play starts no pile whose end you can choose."
    return d.check_play()[1]  # an illegal play has no ends to choose


def _why_confirm(d: MoveDraft) -> str | None:
    flow = d.flow
    if isinstance(flow, DiscardFlow):
        return d.explain(d.discard_command())
    if isinstance(flow, LandscapeFlow):
        if flow.power.needs_hand and not d.selected:
            return "Select the cards for this power first."
        return None
    if d.columns:
        if len(d.columns) < d.columns_wanted:
            return "Tea House: choose one more column."
        return d.explain(d.collect_command())
    if d.selected and not d.v.turn.main_done:
        return d.check_play()[1]
    if d.v.turn.main_done:  # RULES §3: one main action a turn; what is left has its own keys
        return f"Nothing to confirm: your main action is done (RULES §3); {d.key('table.end_turn')} ends the turn."
    return "Nothing to confirm yet: select cards to play or a column to collect."


# One handler per action; those marked are about the selection, so they are
# asked again at every key (the others once per view).
REASONS: dict[str, Callable[[MoveDraft], str | None]] = {
    "collect": _why_collect, "reveal": _why_reveal, "objective": _why_objective,
    "landscape": _why_landscape, "discard": _why_discard, "end_turn": _why_end_turn, "undo": _why_undo,
    "play": _why_play, "exchange": _why_exchange, "ends": _why_ends, "confirm": _why_confirm,
}
SELECTION_ACTIONS = frozenset({"play", "exchange", "ends", "confirm"})


def _end_turn_allowed(d: MoveDraft) -> bool:
    v = d.v
    me = v.me
    assert me is not None
    if v.turn.main_done and me.hand_size > HAND_LIMIT and not v.turn.limit_discarded:
        return True  # ending asks for the discards first
    return (not v.turn.main_done and d.can(Pass)) or d.can(EndTurn)


def _undo_allowed(d: MoveDraft) -> bool:
    # ``legal_commands`` leaves ``Undo`` out (a bot never takes back). In the
    # play phase a state has an undo checkpoint exactly when the view's
    # ``since_checkpoint`` is above 0 (fold.py; ``engine.Explainer`` builds its
    # stand-in on the same test), and ``decide`` takes ``Undo`` exactly then.
    return d.v.turn.since_checkpoint > 0


# Whether each action that depends only on the view is allowed, read from the
# legal commands (undo: from the turn; the footer asks every key after each change; the engine's
# sentence is worked out only for a key pressed). Each is True exactly when its
# handler above gives None, the view's commands being the engine's legal ones:
# tests/ui/test_move_allows.py checks it on every view of random games.
ALLOWED: dict[str, Callable[[MoveDraft], bool]] = {
    "collect": lambda d: d.can(Collect), "reveal": lambda d: d.can(Reveal),
    "objective": lambda d: d.can(ActivateObjective), "landscape": lambda d: d.can(UseLandscape),
    "discard": lambda d: d.can(DiscardToLimit), "end_turn": _end_turn_allowed, "undo": _undo_allowed,
}


def _play_quick(d: MoveDraft) -> bool | None:
    turn = d.v.turn
    if turn.main_done or turn.revealed or turn.limit_discarded or not d.selected:
        return False  # the engine refuses any play then (RULES §3, §4.1, §5.1), or nothing is selected
    return None


def _ends_quick(d: MoveDraft) -> bool | None:
    return False if d.v.turn.revealed or not d.selected else None


def _exchange_quick(d: MoveDraft) -> bool:
    # Two cards of the hand are selected: the engine takes their exchange
    # exactly when it takes some exchange (``legal_commands`` lists one per
    # pair of kinds, RULES §4.4); else the handler above never says yes.
    return d.exchange_command() is not None and d.can(Exchange)


# The same for the actions about the selection, where the selection alone
# decides: False, True, or None (then the handler above is asked). Checked by
# the same test, with selections of none, one and two cards.
QUICK: dict[str, Callable[[MoveDraft], bool | None]] = {
    "play": _play_quick, "ends": _ends_quick, "exchange": _exchange_quick,
}
