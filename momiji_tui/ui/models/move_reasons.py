"""Why a table action cannot be taken now: one handler per action (as
``engine/decide.py`` has one per command). Every rules reason is the
engine's sentence (``MoveDraft.explain``: ``engine.explain``, with its
RULES §); the few written here are about the selection. Pure: no Textual.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ...engine import (
    ActivateObjective, Collect, Command, DiscardToLimit, EndTurn, Exchange, Pass, Play, Reveal, Undo,
    UseLandscape,
)
from ...engine.rules_data import HAND_LIMIT
from .move_flows import DiscardFlow, LandscapeFlow

if TYPE_CHECKING:
    from .move_draft import MoveDraft


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
    return _any_or_explain(d, UseLandscape, UseLandscape(d.seat, unused[0]))


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
