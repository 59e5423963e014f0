"""Replay: step through a saved game, event by event or turn by turn.

Pure (no files, no UI): a :class:`Replay` holds a game's events and a
``position`` — how many of them have happened (1 = just after
``GameCreated``, ``len(events)`` = the end). ``state_at(i)`` folds the first
``i`` events, starting from a cached snapshot (one every ``snapshot_every``
events), so stepping back is as cheap as stepping forward.

    replay = Replay.from_dicts(loaded.events)
    replay.step(+1); replay.jump_turn(-1); replay.end()
    replay.view(seat)        # what the table looked like, RULES §8 applied
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from .. import engine
from ..engine import events as ev
from ..engine.cards import CARD_NAME
from ..engine.narrate import narrate

#: Events after which a new turn begins (each draft pick counts as a turn).
TURN_BREAKS = (ev.LandscapeDrafted, ev.PlayStarted, ev.TurnEnded)


class Replay:
    """A saved game to step through. ``events`` must begin with ``GameCreated``
    (raises ``ValueError`` otherwise, or when an event cannot follow the others).

    ``open_hands``: show every hand (default: only for a finished game, so
    replaying an unfinished one never shows what its players may not know).
    """

    def __init__(self, events: Sequence[ev.Event], *, open_hands: bool | None = None,
                 snapshot_every: int = 64) -> None:
        first = events[0] if events else None
        if not isinstance(first, ev.GameCreated):
            raise ValueError("a replay needs a game log beginning with GameCreated")
        self.events: tuple[ev.Event, ...] = tuple(events)
        self.finished = isinstance(self.events[-1], ev.GameEnded)
        self.open_hands = self.finished if open_hands is None else open_hands
        self.names: tuple[str, ...] = first.seat_names
        self._every = max(1, snapshot_every)
        self._snapshots: dict[int, engine.GameState] = {}
        state = engine.fold(self.events[:1])
        self._snapshots[1] = state.clone()
        for i, event in enumerate(self.events[1:], start=2):  # checks the whole log once
            engine.apply_in_place(state, event)
            if i % self._every == 0:
                self._snapshots[i] = state.clone()
        self._final = state
        breaks = {i + 1 for i, e in enumerate(self.events) if isinstance(e, TURN_BREAKS)}
        #: Positions where a turn (or draft pick) begins, plus the start and the end.
        self.turn_starts: tuple[int, ...] = tuple(sorted({1, len(self.events)} | breaks))
        self.position = 1

    @property
    def hints_used(self) -> int:
        """How many hints the game's seats were shown (``HintShown``)."""
        return sum(self._final.hints)

    @classmethod
    def from_dicts(cls, events: Sequence[dict[str, Any]], *, open_hands: bool | None = None,
                   snapshot_every: int = 64) -> Replay:
        """A replay of a log's JSON events (as the store loads them)."""
        return cls([engine.from_dict(e) for e in events], open_hands=open_hands, snapshot_every=snapshot_every)

    # ----------------------------------------------------------------- state

    def __len__(self) -> int:
        return len(self.events)

    @property
    def start_position(self) -> int:
        """The first position: just after ``GameCreated``."""
        return 1

    @property
    def end_position(self) -> int:
        """The last position: every event has happened."""
        return len(self.events)

    def state_at(self, i: int) -> engine.GameState:
        """The state after the first ``i`` events (a fresh copy; ``1 <= i <= len``).
        Raises ``IndexError`` outside that range."""
        if not 1 <= i <= len(self.events):
            raise IndexError(f"position {i} is outside 1..{len(self.events)}")
        if i == len(self.events):
            return self._final.clone()
        base = max(k for k in self._snapshots if k <= i)
        state = self._snapshots[base].clone()
        for event in self.events[base:i]:
            engine.apply_in_place(state, event)
        return state

    @property
    def state(self) -> engine.GameState:
        """The state at the current position."""
        return self.state_at(self.position)

    @property
    def event(self) -> ev.Event:
        """The event that brought the game to the current position."""
        return self.events[self.position - 1]

    @property
    def turn_index(self) -> int:
        """Which turn the position is in: 0 for the first entry of ``turn_starts``."""
        return max(k for k, start in enumerate(self.turn_starts) if start <= self.position)

    @property
    def turn_count(self) -> int:
        """How many entries ``turn_starts`` has (the slider's length)."""
        return len(self.turn_starts)

    @property
    def at_end(self) -> bool:
        return self.position == len(self.events)

    # ------------------------------------------------------------------ move

    def seek(self, i: int) -> int:
        """Go to position ``i`` (clamped to the game); returns the new position."""
        self.position = min(max(i, 1), len(self.events))
        return self.position

    def step(self, delta: int = 1) -> int:
        """``delta`` events forward (or back when negative), clamped."""
        return self.seek(self.position + delta)

    def jump_turn(self, delta: int = 1) -> int:
        """To the start of the next (``+1``) or the previous (``-1``) turn; from
        inside a turn, ``-1`` goes to the start of that same turn first."""
        if delta > 0:
            later = [s for s in self.turn_starts if s > self.position]
            target = later[min(delta, len(later)) - 1] if later else len(self.events)
        elif delta < 0:
            earlier = [s for s in self.turn_starts if s < self.position]
            target = earlier[max(len(earlier) + delta, 0)] if earlier else 1
        else:
            target = self.position
        return self.seek(target)

    def seek_turn(self, k: int) -> int:
        """To the start of turn ``k`` (an index into ``turn_starts``, clamped)."""
        return self.seek(self.turn_starts[min(max(k, 0), len(self.turn_starts) - 1)])

    def start(self) -> int:
        return self.seek(1)

    def end(self) -> int:
        return self.seek(len(self.events))

    # ------------------------------------------------------------ what shows

    def view(self, seat: int | None, i: int | None = None) -> engine.PlayerView:
        """What the table looked like at position ``i`` (default: the current
        one) from ``seat`` (RULES §8), or with every hand shown if ``open_hands``."""
        state = self.state_at(self.position if i is None else i)
        v = engine.view(state, seat)
        if not self.open_hands:
            return v
        seats = tuple(replace(s, hand=tuple(state.seats[k].hand), hand_size=len(state.seats[k].hand))
                      for k, s in enumerate(v.seats))
        return replace(v, seats=seats)

    def narrate(self, seat: int | None, i: int | None = None) -> str:
        """The line for the event that led to position ``i``, told to ``seat``
        (with every dealt or drawn card named when ``open_hands``)."""
        event = self.events[(self.position if i is None else i) - 1]
        if self.open_hands and isinstance(event, (ev.CardsDealt, ev.CardsDrawn)) and event.seat != seat:
            cards = " ".join(CARD_NAME[c][:2] for c in event.cards)
            verb = "was dealt" if isinstance(event, ev.CardsDealt) else "drew"
            return f"{self.names[event.seat]} {verb} {cards}."
        return narrate(event, seat, self.names) or ""
