"""Spectators at the lobby (session/spectators.py): who may watch what, what
a watcher sees (RULES §8: the spectator's view, no hand, no deck order, not
even after an undo), the players told, a watcher who leaves or vanishes."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from momiji_tui import engine
from momiji_tui.engine import Play, Undo
from momiji_tui.session.lobby import Lobby, LobbyError, Player, SeatNews, SharedTable
from momiji_tui.session.shared_table import WatchEnded
from momiji_tui.session.spectators import NOT_WATCHABLE, WATCH_OFF
from momiji_tui.session.table import BOT, HUMAN, SeatConfig, Table


class FakeMember:
    def __init__(self, account: str, name: str) -> None:
        self.player = Player(account, name)
        self.events: list = []

    def lobby_event(self, event) -> None:
        self.events.append(event)

    def news(self) -> list[str]:
        return [e.text for e in self.events if isinstance(e, SeatNews)]


def shared_game(lobby: Lobby) -> tuple[FakeMember, FakeMember, SharedTable]:
    alice, bob = FakeMember("key-alice", "alice"), FakeMember("key-bob", "bob")
    lobby.enter(alice)
    lobby.enter(bob)
    pending = lobby.create_table(alice, ["human"])
    lobby.join_table(bob, pending.table_id)
    (live,) = lobby.live.values()
    return alice, bob, live.table


@pytest.fixture
def lobby(tmp_path):
    lobby = Lobby(tmp_path, seat_wait=None, deal_seed=lambda: 37)
    yield lobby
    lobby.close()


def test_a_watcher_sees_the_spectators_view_and_the_players_are_told(lobby):
    alice, bob, table = shared_game(lobby)
    carol = FakeMember("key-carol", "carol")
    lobby.enter(carol)
    [info] = lobby.watchable()
    assert info.game_id == table.game_id and info.kind == "shared" and info.watchers == 0
    watch = lobby.watch(carol, table.game_id)
    assert watch.table is table and watch.names == tuple(s.name for s in table.seats)
    v = watch.view()
    assert v.seat is None and all(s.hand is None for s in v.seats)  # RULES §8
    assert v.turn.checkpoint is None
    assert lobby.watchers_of(table.game_id) == ("carol",)
    assert "carol is watching." in alice.news() and "carol is watching." in bob.news()
    assert lobby.members[carol] == f"watching {table.game_id}"
    assert lobby.watchable()[0].watchers == 1


def test_rules_8_a_spectator_sees_no_hand_after_an_undo(lobby):
    _alice, _bob, table = shared_game(lobby)
    carol = FakeMember("key-carol", "carol")
    lobby.enter(carol)
    watch = lobby.watch(carol, table.game_id)
    seat = table.current
    plays = [c for c in table.legal(seat) if isinstance(c, Play)]
    assert plays, "the fixed deal offers a play"
    table.submit(plays[0])
    table.submit(Undo(seat))
    v = watch.view()
    assert all(s.hand is None for s in v.seats) and v.turn.checkpoint is None
    # What a spectator knows of that hand now: only the cards every seat saw played (RULES §8).
    assert set(v.seats[seat].known) == set(plays[0].cards)
    assert v.deck_size == table.state.deck_size and not hasattr(v, "deck")


def test_a_player_cannot_watch_their_own_table_and_nobody_watches_what_is_not_played(lobby):
    alice, _bob, table = shared_game(lobby)
    with pytest.raises(LobbyError, match="You play at that table"):
        lobby.watch(alice, table.game_id)
    carol = FakeMember("key-carol", "carol")
    lobby.enter(carol)
    with pytest.raises(LobbyError, match=NOT_WATCHABLE):
        lobby.watch(carol, "no-such-game")


def test_leaving_and_vanishing_clean_up_and_tell_the_players(lobby):
    alice, bob, table = shared_game(lobby)
    carol, dave = FakeMember("key-carol", "carol"), FakeMember("key-dave", "dave")
    lobby.enter(carol)
    lobby.enter(dave)
    lobby.watch(carol, table.game_id)
    lobby.watch(dave, table.game_id)
    assert lobby.watchers_of(table.game_id) == ("carol", "dave")
    lobby.stop_watching(carol)
    assert lobby.watchers_of(table.game_id) == ("dave",) and lobby.members[carol] == "in the lobby"
    lobby.exit(dave)  # the connection dropped: the session's app leaves the lobby
    assert lobby.watchers_of(table.game_id) == () and not lobby.spectators.watching
    assert "carol stopped watching." in alice.news() and "dave stopped watching." in bob.news()
    assert len(table._listeners) == 1  # the lobby's own: no watcher is left listening


def test_when_everyone_leaves_the_watchers_are_told(lobby):
    alice, bob, table = shared_game(lobby)
    carol = FakeMember("key-carol", "carol")
    lobby.enter(carol)
    lobby.watch(carol, table.game_id)
    lobby.exit(alice)
    assert lobby.watchers_of(table.game_id) == ("carol",)  # bob still plays
    lobby.exit(bob)
    assert [e for e in carol.events if isinstance(e, WatchEnded)] == [
        WatchEnded(table.game_id, "Everyone left that table.")]
    assert lobby.watchers_of(table.game_id) == () and lobby.watchable() == []


def test_a_solo_game_is_watchable_only_when_its_player_allowed_it(lobby, tmp_path):
    alice, carol = FakeMember("key-alice", "alice"), FakeMember("key-carol", "carol")
    lobby.enter(alice)
    lobby.enter(carol)
    solo = Table.new([SeatConfig("alice", HUMAN), SeatConfig("Kaede", BOT, "easy")], seed=3,
                     data_dir=tmp_path / "solo")
    try:
        assert lobby.watchable() == []
        with pytest.raises(LobbyError, match=NOT_WATCHABLE):
            lobby.watch(carol, solo.game_id)
        lobby.offer_solo(alice, solo)
        [info] = lobby.watchable()
        assert info.kind == "solo" and info.names == ("alice", "Kaede")
        watch = lobby.watch(carol, solo.game_id)
        assert watch.view().seats[0].hand is None
        assert alice.news() == ["carol is watching."]
        lobby.withdraw_solo(alice)  # alice left her game
        assert WatchEnded(solo.game_id, "The player left that game.") in carol.events
        assert lobby.watchable() == [] and lobby.watchers_of(solo.game_id) == ()
    finally:
        solo.close()


def test_an_operator_turns_watching_off(tmp_path):
    lobby = Lobby(tmp_path, seat_wait=None, spectators=False)
    try:
        _alice, _bob, table = shared_game(lobby)
        carol = FakeMember("key-carol", "carol")
        lobby.enter(carol)
        assert lobby.watchable() == []
        with pytest.raises(LobbyError, match=WATCH_OFF):
            lobby.watch(carol, table.game_id)
    finally:
        lobby.close()


def test_the_serve_command_line_turns_watching_off():
    from momiji_tui.ssh.cli import build_parser

    assert build_parser().parse_args([]).spectators is True
    assert build_parser().parse_args(["--no-spectators"]).spectators is False


def test_a_watcher_is_never_asked_anything_during_a_move(lobby):
    """A move tells its listeners and returns: a watcher only listens, and
    the lobby sends it nothing per move (its screen redraws from its own queue)."""
    _alice, _bob, table = shared_game(lobby)
    carol = FakeMember("key-carol", "carol")
    lobby.enter(carol)
    lobby.watch(carol, table.game_id)
    before = len(carol.events)
    seat = table.current
    table.submit(next(c for c in table.legal(seat) if isinstance(c, engine.Collect)))
    assert len(carol.events) == before


def _public_cards(events) -> set[int]:
    """Every card some event showed to every seat (RULES §8), from the log alone."""
    from momiji_tui.engine import events as ev

    seen: set[int] = set()
    for e in events:
        if isinstance(e, ev.DisplayRevealed | ev.ColumnCollected | ev.CardsPlayed | ev.CardsDiscarded):
            seen.update(e.cards)
        elif isinstance(e, ev.CardTaken):
            seen.add(e.card)
        elif isinstance(e, ev.CardsSwapped):
            seen.update((e.hand_card, e.display_card))
    return seen


@settings(max_examples=12)
@given(seed=st.integers(0, 10**6))
def test_rules_8_the_spectators_view_holds_only_public_cards_through_random_play_and_undos(seed):
    """Random legal moves with an undo now and then: after every command
    the spectator's view shows no hand, and every card it shows (display,
    discard, rows, cards seen entering a hand) was public by the log."""
    import random

    from momiji_tui.engine import create_game, decide, fold, legal_commands, view
    from momiji_tui.engine.errors import IllegalCommand

    rng = random.Random(seed)
    events = list(create_game(["a", "b", "c"][:rng.choice((2, 3))], seed=seed))
    state = fold(events)
    for _ in range(150):
        if state.phase == "ended":
            break
        seat = state.current
        command = Undo(seat) if rng.random() < 0.15 else rng.choice(legal_commands(state, seat))
        try:
            new = decide(state, command)
        except IllegalCommand:
            continue  # nothing to undo now
        events += new
        state = fold(events)
        v = view(state, None)
        if state.phase == "ended":
            break  # the end shows every hand, to everyone
        assert all(s.hand is None for s in v.seats)
        shown = set(v.display) | set(v.discard)
        for s in v.seats:
            shown.update(s.known)
            for pile in s.row:
                shown.update(pile.cards)
        assert shown <= _public_cards(events)
        assert v.turn.checkpoint is None
