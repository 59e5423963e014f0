"""A watcher over SSH (session/spectators.py, ui/screens/watch.py): two
players at a shared table and a third person watching from the lobby, each
over a real asyncssh connection on loopback. Through an undo, a player's
reconnection and the watcher's own, nothing the watcher's terminal is sent
ever names a card that only a hand or the deck held (RULES §8).

On screen a card is its leaf letter and value (``M2``), which several cards
share; so the cards checked are the *kinds* (letter and value) no card of
which was ever public in this game (revealed to the display, collected,
played, discarded, taken or swapped): every card of such a kind stayed in
a hand or the deck. A kind held in a hand is on its player's screen (which
proves the check can see it) and must never be on the watcher's.
"""

from __future__ import annotations

import re

from ssh_harness import ENTER, new_key, take_turn_by_keys, wait_app, wait_until
from test_ssh_shared_table import table_for_two

from momiji_tui.engine import Play, events as ev
from momiji_tui.engine.cards import CARD_NAME, cards_of_types
from momiji_tui.ui.screens.lobby import LobbyScreen
from momiji_tui.ui.screens.table import HAND_KEYS, TableScreen, hand_order
from momiji_tui.ui.screens.watch import WatchScreen
from momiji_tui.ui.screens.watch_list import WatchListScreen

CSI = re.compile(rb"\x1b\[[0-9;:?<>=]*[ -/]*[@-~]")
OTHER_ESCAPES = re.compile(rb"\x1b[^\[]")


def kind(card: int) -> str:
    """``M2``: what a card looks like on screen (RULES §1.1)."""
    return CARD_NAME[card][:2]


def public_cards(events: list[ev.Event]) -> set[int]:
    """Every card some event showed to every seat (RULES §8), from the log alone."""
    seen: set[int] = set()
    for e in events:
        if isinstance(e, ev.DisplayRevealed | ev.ColumnCollected | ev.CardsPlayed | ev.CardsDiscarded):
            seen.update(e.cards)
        elif isinstance(e, ev.CardTaken):
            seen.add(e.card)
        elif isinstance(e, ev.CardsSwapped):
            seen.update((e.hand_card, e.display_card))
    return seen


def hidden_kinds(events: list[ev.Event]) -> tuple[set[str], set[str]]:
    """(kinds no card of which was ever public, those of them dealt or drawn into a hand)."""
    created = events[0]
    assert isinstance(created, ev.GameCreated)
    public = {kind(c) for c in public_cards(events)}
    hidden = {kind(c) for c in cards_of_types(created.types)} - public
    in_hand = {kind(c) for e in events if isinstance(e, ev.CardsDealt | ev.CardsDrawn) for c in e.cards}
    return hidden, hidden & in_hand


def shown_kinds(text: str, kinds: set[str], names: list[str]) -> set[str]:
    """The ``kinds`` that stand alone in ``text`` as a card does (not inside
    a word), once the players' names (their key hints are random letters)
    are taken out."""
    for name in names:
        text = text.replace(name, " ")
    return {k for k in kinds if re.search(rf"(?<![A-Za-z0-9]){k}(?![A-Za-z0-9])", text)}


def stream_text(raw: bytes) -> str:
    """The characters a terminal was sent: colours dropped (a chip's letter
    and value are one run of one style), every other escape a line break."""
    return OTHER_ESCAPES.sub(b"\n", CSI.sub(lambda m: b"" if m.group().endswith(b"m") else b"\n", raw)).decode(
        "utf-8", "replace")


async def watch_first_game(term, app) -> None:
    await term.wait_for_text("Watch a game (1 playing)")
    term.send("w")
    await wait_until(lambda: isinstance(app.screen, WatchListScreen) and app.screen.is_mounted)
    await term.wait_for_text("shared:")
    term.send(ENTER)
    await wait_until(lambda: isinstance(app.screen, WatchScreen) and app.screen.is_mounted)
    await term.wait_for_text("Watching")


async def test_rules_8_a_watcher_never_sees_a_hand_or_the_deck_through_undo_and_reconnections(game, clients):
    bob_key, carol_key = new_key(), new_key()
    alice, bob, a_app, b_app = await table_for_two(game, clients, seed=4242, bob_key=bob_key)
    table = a_app.table
    histories = {"alice": alice.record(), "bob": bob.record()}

    carol = await clients.terminal(game.port, username="carol", key=carol_key)
    carol_screens = carol.record()
    await carol.wait_for_text("Welcome, carol")
    c_app = await wait_app(game, "carol")
    await watch_first_game(carol, c_app)
    carol_label = game.lobby.label(c_app)
    assert game.lobby.watchers_of(table.game_id) == (carol_label,)
    await alice.wait_for_text(f"Watching: {carol_label}")  # the players' line
    await bob.wait_for_text(f"Watching: {carol_label}")
    streams = [carol]

    players = {a_app.seat: (alice, a_app), b_app.seat: (bob, b_app)}

    async def turn() -> None:
        term, app = players[table.current]
        await wait_until(lambda: isinstance(app.screen, TableScreen) and app.screen.is_mounted)
        await take_turn_by_keys(term, app, prefer="collect")

    # An undo: the seat to move plays one card, takes it back, then plays its turn.
    term, app = players[table.current]
    seat = table.current
    hand = hand_order(table.view(seat).me.hand)
    play = next(c for c in table.legal(seat) if isinstance(c, Play) and len(c.cards) == 1
                and hand.index(c.cards[0]) < len(HAND_KEYS))
    n = len(table.events)
    term.send(HAND_KEYS[hand.index(play.cards[0])] + "p")
    await wait_until(lambda: len(table.events) > n)
    n = len(table.events)
    term.send("u")
    await wait_until(lambda: any(isinstance(e, ev.ActionsUndone) for e in table.events[n:]))
    await carol.wait_for_text("took back their last actions")
    await take_turn_by_keys(term, app, prefer="collect")
    await turn()

    # A player's connection drops; they come back to their seat with the same key.
    bob.conn.abort()
    await wait_until(lambda: b_app not in game.lobby.members)
    again = await clients.terminal(game.port, username="bob", key=bob_key)
    histories["bob again"] = again.record()
    b2 = await wait_app(game, "bob")
    await wait_until(lambda: b2.table is table and isinstance(b2.screen, TableScreen))
    players[b2.seat] = (again, b2)
    await turn()
    await turn()

    # The watcher's connection drops: the watch is cleaned up, the players are told.
    carol.conn.abort()
    await wait_until(lambda: c_app not in game.lobby.members)
    assert game.lobby.watchers_of(table.game_id) == () and not game.lobby.spectators.watching
    await alice.wait_for_no_text("Watching:")
    # Back with the same key, watching again.
    carol2 = await clients.terminal(game.port, username="carol", key=carol_key)
    carol2_screens = carol2.record()
    c2 = await wait_app(game, "carol")
    await wait_until(lambda: isinstance(c2.screen, LobbyScreen) and c2.screen.is_mounted)
    await watch_first_game(carol2, c2)
    streams.append(carol2)
    await turn()
    await turn()
    await carol2.wait_for_text(f" Round {table.state.round} ")  # the last move reached the watcher
    await carol2.wait_for_text(f"▶ {table.seats[table.current].name}")
    # The watcher never held up the game: every turn above was played with it watching.
    assert not table.finished

    hidden, held = hidden_kinds(table.events)
    assert held, "no card kind stayed in a hand only: the check would see nothing"
    names = [s.name for s in table.seats] + [carol_label]
    # The check sees a hand: each player's own screens showed some of those kinds.
    player_text = "\n".join(histories["alice"] + histories["bob"] + histories["bob again"])
    assert shown_kinds(player_text, held, names), "the players' screens never showed a hand"
    # The watcher's terminal: every screen it showed, and every byte it was sent.
    watcher_text = "\n".join(carol_screens + carol2_screens)
    assert "Hand " not in watcher_text
    assert shown_kinds(watcher_text, hidden, names) == set()
    for term in streams:
        assert shown_kinds(stream_text(bytes(term.raw)), hidden, names) == set()
    # And what the watcher's screen was drawn from: the spectator's view only.
    assert isinstance(c2.screen, WatchScreen) and c2.screen.views > 0
    assert all(s.hand is None for s in c2.screen.watched.view().seats)
