"""Shared helpers for the UI tests (a plain module: unique name across the tree)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from textual.widgets import Input

from momiji_tui import engine
from momiji_tui.engine.cards import CARD_NAME, CARD_TYPE, card_by_name, cards_of_types
from momiji_tui.engine.rules_data import LEAF_TYPES
from momiji_tui.engine.state import Pile, TurnState
from momiji_tui.session.table import BOT, HUMAN, SeatConfig, Table
from momiji_tui.ui.app import MomijiApp


async def steady_cursors(pilot) -> None:
    """Stop the text fields of the app's screen from blinking, their cursor
    shown: Textual blinks an ``Input``'s cursor on a wall-clock timer (every
    0.5 s), so a snapshot taken a moment later on a busy machine would catch
    the cursor hidden."""
    for field in pilot.app.screen.query(Input).results(Input):
        field.cursor_blink = False
    await pilot.pause()


async def settle(pilot, rounds: int = 3) -> None:
    """Let bots finish thinking and messages drain (bounded)."""
    app = pilot.app
    for _ in range(rounds):
        await app.workers.wait_for_complete()
        await pilot.pause()


async def until_human_or_end(pilot, limit: int = 400) -> None:
    """Wait until the game needs the human seat (or has ended)."""
    app: MomijiApp = pilot.app
    for _ in range(limit):
        await settle(pilot, 1)
        table = app.table
        if table is None:
            continue  # the app is still opening the game
        if table.finished or (table.bot_to_move() is None and app.thinking is None):
            return
    raise AssertionError("the bots never handed the turn back")


async def until_screen(pilot, screen_type, limit: int = 50) -> None:
    """Wait (bounded) until the app shows a screen of ``screen_type``."""
    for _ in range(limit):
        if isinstance(pilot.app.screen, screen_type):
            await pilot.pause()
            return
        await pilot.pause()
    raise AssertionError(f"{screen_type.__name__} never showed; the screen is {pilot.app.screen!r}")


class ScriptedBot:
    """A cheap, deterministic test bot: a seeded random legal command, ending
    its turn as soon as it may. Independent of the real bots, so layout
    snapshots do not change when the bots get stronger."""

    def __init__(self, seed: int) -> None:
        import random

        self.rng = random.Random(seed)

    def choose(self, view):
        import random

        from momiji_tui.engine import EndTurn, determinize, legal_commands

        legal = legal_commands(determinize(view, random.Random(0)), view.seat)
        ends = [c for c in legal if isinstance(c, EndTurn)]
        return ends[0] if ends else self.rng.choice(legal)


def scripted_bot(level: str, seed: int = 0, **_: object) -> ScriptedBot:
    """``make_bot`` stand-in for ``MomijiApp(make_bot=...)``."""
    return ScriptedBot(seed)


def cards(names: str | Sequence[str]) -> list[int]:
    """Cards by name: ``cards("M0a C1b")``."""
    if isinstance(names, str):
        names = names.split()
    return [card_by_name(n) for n in names]


def situation(
    *,
    hand: str = "",
    row: Sequence[str] = (),
    closed: Sequence[str] = (),
    display: str = "",
    discard: str = "",
    acorns: int = 2,
    panorama: Sequence[str] = ("spring", "waterfall", "pier"),
    used: Sequence[str] = (),
    objectives: Sequence[str] = ("zeros", "acorns", "piles", "torii", "longest", "top-sum"),
    owners: dict[str, int] | None = None,
    other_row: Sequence[str] = (),
    other_hand: int = 5,
    deck_top: str = "",
    deck_size: int | None = None,
    turn: TurnState | None = None,
    seats: int = 2,
    seed: int = 1,
) -> Table:
    """A table (no save file) where seat 0, a human, is to act in exactly this
    situation; seat 1 (and more) are bots. ``row`` lists seat 0's piles left
    to right, each as card names bottom first ("M0a M1b"); ``closed`` names
    the leaf types of closed piles. Every card of the six leaf types is
    somewhere exactly once: the rest go to the other hands and the deck
    (``deck_top`` first; ``deck_size`` trims the deck)."""
    names = ["You", *[f"Bot {i}" for i in range(1, seats)]]
    events = engine.create_game(names, seed=seed, game_id="test-situation")
    state = engine.fold(events)
    types = tuple(LEAF_TYPES)
    placed: set[int] = set()

    def take(spec: str) -> list[int]:
        got = cards(spec)
        for c in got:
            assert c not in placed, f"{CARD_NAME[c]} is placed twice"
            placed.add(c)
        return got

    me = state.seats[0]
    me.hand = take(hand)
    me.known = []
    me.row = [Pile(CARD_TYPE[pile[0]], pile, CARD_TYPE[pile[0]] in closed) for pile in map(take, row)]
    me.acorns = acorns
    me.panorama = list(panorama)
    me.used = list(used)
    other_piles = [take(p) for p in other_row]
    state.display = take(display)
    state.discard = take(discard)
    top = take(deck_top)
    rest = [c for c in cards_of_types(types) if c not in placed]
    # Keep the rest in a fixed shuffled order (by the seed's deck where it can).
    order = {c: i for i, c in enumerate(state.deck)}
    rest.sort(key=lambda c: (order.get(c, 1000), c))
    for i, seat in enumerate(state.seats[1:], start=1):
        seat.hand, rest = rest[:other_hand], rest[other_hand:]
        seat.known = []
        seat.row = [Pile(CARD_TYPE[p[0]], p, False) for p in other_piles] if i == 1 else []
        seat.acorns = 2
        seat.panorama = list(panorama)
        seat.used = []
    deck = top + rest
    if deck_size is not None:
        # The cards cut from the deck go to the discard pile: every card stays
        # somewhere, so the view can be completed into a state (engine.explain).
        state.discard = [*state.discard, *deck[deck_size:]]
        deck = deck[:deck_size]
    state.types = types
    state.deck = tuple(deck)
    state.deck_pos = 0
    state.objectives = tuple(objectives)
    state.owners = dict(owners or {})
    state.torii_left = seats + 2 - len(closed)
    state.phase = "play"
    state.current = 0
    state.first_seat = 0
    state.turn = turn or TurnState()
    state.end_trigger = None
    seat_configs = [SeatConfig("You", HUMAN), *[SeatConfig(f"Bot {i}", BOT, "easy") for i in range(1, seats)]]
    # The log starts from a bare GameCreated (the seed's deal would not match the situation).
    created = dataclasses.replace(events[0], types=types, objectives=tuple(objectives))
    table = Table([created], seat_configs, None)
    table.state = state
    return table


async def sit(pilot, table: Table):
    """Open ``table`` in the app as seat 0 and wait for the table screen."""
    from momiji_tui.ui.screens.table import TableScreen

    pilot.app.open_table(table, seat=0)
    await until_screen(pilot, TableScreen)
    return pilot.app.screen


def plain(widget) -> str:
    """What a Static shows, as plain text."""
    from rich.text import Text

    content = widget.content
    if isinstance(content, Text):
        return content.plain
    return str(content)


def sentence(widget) -> str:
    """What a two-line region (message, preview) says, its lines read as one
    text: a long sentence comes wrapped at the region's width (``fit_lines``),
    the space it breaks at dropped."""
    return plain(widget).replace("\n", " ")


def on_frames(monkeypatch, each) -> None:
    """Call ``each(frame)`` with every frame handed to the terminal
    (``App._display``) from now on."""
    from textual.app import App

    original = App._display

    def display(self, screen, renderable):
        if renderable is not None:
            each(renderable)
        return original(self, screen, renderable)

    monkeypatch.setattr(App, "_display", display)


def count_frames(monkeypatch) -> list[object]:
    """Record each frame handed to the terminal (``App._display``) from now on."""
    frames: list[object] = []
    on_frames(monkeypatch, frames.append)
    return frames
