"""``momiji serve --database`` at the session level: the
lobby's shared tables and a player's solo games saved in, listed from and
resumed from the database; nothing written to the data dir's game folders."""

from __future__ import annotations

import pytest
from db_helpers import SEATS

from momiji_tui.engine.events import SeatControlChanged
from momiji_tui.session.database_games import MOVED_ON, DatabaseGames
from momiji_tui.session.lobby import Lobby, LobbyError, Player, Seated, SharedTable
from momiji_tui.session.table import HUMAN, SeatConfig, Table, validate_log
from momiji_tui.store.database import SyncGameStore
from momiji_tui.store.errors import WriteFailed


class FakeMember:
    def __init__(self, account: str, name: str) -> None:
        self.player = Player(account, name)
        self.events: list = []

    def lobby_event(self, event) -> None:
        self.events.append(event)

    def seated(self) -> Seated:
        return [e for e in self.events if isinstance(e, Seated)][-1]


@pytest.fixture
def games(pg_url):
    opened = DatabaseGames.open(pg_url)
    yield opened
    opened.close()


def game_files(root) -> list:
    return sorted(p for p in root.rglob("*.jsonl"))


def shared_game(lobby: Lobby, alice: FakeMember, bob: FakeMember) -> SharedTable:
    lobby.enter(alice)
    lobby.enter(bob)
    pending = lobby.create_table(alice, ["human", "bot"])
    lobby.join_table(bob, pending.table_id)
    return alice.seated().table


def test_a_shared_table_on_the_database_saves_its_deal_and_seat_events_there_not_in_files(games, tmp_path, pg_url):
    lobby = Lobby(tmp_path, games=games, deal_seed=lambda: 7, seat_wait=None)
    alice, bob = FakeMember("key-a", "alice"), FakeMember("key-b", "bob")
    table = shared_game(lobby, alice, bob)
    assert table.log.position == len(table.events)  # the log is the database's
    with SyncGameStore(pg_url) as other:  # another process's view of the database
        stored = other.load_game(table.game_id, validate_log)
    seated = [e for e in stored.loaded.events if e["type"] == "SeatControlChanged"]
    assert [(e["seat"], e["player"]) for e in seated] == [(0, "key-a"), (1, "key-b")]
    assert game_files(tmp_path) == []
    lobby.close()


def test_a_shared_game_on_the_database_is_listed_and_returned_to_by_a_new_lobby(games, tmp_path):
    lobby = Lobby(tmp_path, games=games, deal_seed=lambda: 8, seat_wait=None)
    alice, bob = FakeMember("key-a", "alice"), FakeMember("key-b", "bob")
    table = shared_game(lobby, alice, bob)
    lobby.exit(alice)
    lobby.exit(bob)  # nobody left: the game is dropped from memory, kept in the database
    assert table.game_id not in lobby.live
    restarted = Lobby(tmp_path, games=games, seat_wait=None)  # a server restarted on the same database
    [mine] = restarted.my_tables(alice.player)
    assert (mine.game_id, mine.seat) == (table.game_id, 0)
    assert restarted.my_tables(Player("key-c", "carol")) == []
    back = FakeMember("key-b", "bob")
    restarted.enter(back)
    resumed, seat = restarted.return_to(back, table.game_id)
    assert seat == 1 and resumed.events[:len(table.events)] == table.events
    last = resumed.events[-1]
    assert isinstance(last, SeatControlChanged) and last.player == "key-b"
    with pytest.raises(LobbyError, match="There is no such table"):
        restarted.return_to(back, "20260101-000000-abcdef")


def test_solo_games_on_the_database_are_listed_by_owner_and_resumed(games):
    seats = [SeatConfig("alice", HUMAN), *SEATS[1:]]
    table = games.new_table(Table, seats, seed=9, landscape_mode="starter", owners=["key-a"])
    [listed] = games.unfinished_solo("key-a")
    assert listed.game_id == table.game_id and str(listed.path) == table.game_id
    assert games.unfinished_solo("key-b") == []
    resumed = games.resume(Table, str(listed.path))
    assert resumed.state == table.state and resumed.log.position == table.log.position


def test_a_shared_game_is_not_offered_as_a_solo_game(games, tmp_path):
    lobby = Lobby(tmp_path, games=games, deal_seed=lambda: 10, seat_wait=None)
    shared_game(lobby, FakeMember("key-a", "alice"), FakeMember("key-b", "bob"))
    assert games.unfinished_solo("key-a") == []


def test_a_database_game_has_no_save_file_so_no_review_is_cached_beside_one(games, tmp_path):
    on_file = Table.new(SEATS, seed=11, data_dir=tmp_path)
    assert on_file.save_file == on_file.log.path
    on_file.close()
    on_db = games.new_table(Table, SEATS, seed=11, landscape_mode="starter", owners=[])
    assert on_db.save_file is None  # its log's path is only its id, not a file to write beside


def test_a_move_another_process_saved_first_is_refused_in_words_not_a_crash(games, pg_url):
    """--workers N / several hosts on one database before the lobby is shared: one
    game open in two processes. The later writer is told (a WriteFailed the app
    shows as 'Not saved: …'), its table unchanged; the database keeps the first."""
    first = games.new_table(Table, SEATS, seed=12, landscape_mode="starter", owners=["key-a"])
    other = DatabaseGames.open(pg_url)
    try:
        second = other.resume(Table, first.game_id)
        first.submit(first.bot_command(first.bot_to_move()))
        before = second.state.clone()
        with pytest.raises(WriteFailed) as caught:
            second.submit(second.bot_command(second.bot_to_move()))
        assert caught.value.reason == MOVED_ON
        assert second.state == before
        assert other.store.load_game(first.game_id).position == first.log.position
    finally:
        other.close()


def test_after_a_worker_dies_mid_game_both_players_return_to_their_seats_on_another(games, tmp_path, pg_url):
    """Two processes on one database: B listed its games before A started the
    table; A dies mid-game (no goodbye in the log). Each player logging in on B
    finds the game in 'My games' and takes their seat back; play goes on there."""
    other = DatabaseGames.open(pg_url)
    worker_b = Lobby(tmp_path, games=other, seat_wait=None)
    try:
        assert worker_b.my_tables(Player("key-a", "alice")) == []  # B's index is built now, empty
        worker_a = Lobby(tmp_path, games=games, deal_seed=lambda: 13, seat_wait=None)
        table = shared_game(worker_a, FakeMember("key-a", "alice"), FakeMember("key-b", "bob"))
        table.submit(table.legal(table.current)[0])
        moved = len(table.events)  # worker A is killed here: nothing more is written by it

        alice, bob = FakeMember("key-a", "alice"), FakeMember("key-b", "bob")
        for member in (alice, bob):
            worker_b.enter(member)
            [mine] = worker_b.my_tables(member.player)
            assert mine.game_id == table.game_id
        resumed, seat_a = worker_b.return_to(alice, table.game_id)
        again, seat_b = worker_b.return_to(bob, table.game_id)
        assert again is resumed and (seat_a, seat_b) == (0, 1)
        assert resumed.events[:moved] == table.events
        resumed.submit(resumed.legal(resumed.current)[0])  # the game goes on, saved by B
        assert other.store.load_game(table.game_id).position == len(resumed.events)
    finally:
        worker_b.close()


def test_after_the_database_drops_the_connection_one_move_is_refused_in_words_then_play_goes_on(games, pg_admin):
    """A database restart (here: the server's backend ended by the admin) must not
    break the server for good: the move in flight is not made ('Not saved: the
    database failed: …'), the store connects again, the same move then lands."""
    table = games.new_table(Table, SEATS, seed=14, landscape_mode="starter", owners=["key-a"])
    pg_admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                     "WHERE datname = current_database() AND pid <> pg_backend_pid()")
    command = table.bot_command(table.bot_to_move())
    before = table.state.clone()
    with pytest.raises(WriteFailed) as caught:
        table.submit(command)
    assert caught.value.reason.startswith("the database failed: ") and table.state == before
    table.submit(command)  # the same move, sent again, is saved on a new connection
    assert games.store.load_game(table.game_id).position == len(table.events)


def test_the_lobby_lists_a_players_games_without_reading_their_finished_ones(games, monkeypatch):
    """'Continue' and 'Resume my games' are read at every lobby visit: only the
    unfinished games are loaded, however many finished ones a player has."""
    done = games.new_table(Table, SEATS, seed=15, landscape_mode="starter", owners=["key-a"])
    while (seat := done.bot_to_move()) is not None:
        done.submit(done.bot_command(seat))
    going = games.new_table(Table, SEATS, seed=16, landscape_mode="starter", owners=["key-a"])
    loaded: list[str] = []
    real = type(games.store._store).load_game

    async def counted(store, game_id, validate=None):
        loaded.append(game_id)
        return await real(store, game_id, validate)

    monkeypatch.setattr(type(games.store._store), "load_game", counted)
    assert [g.game_id for g in games.unfinished_solo("key-a")] == [going.game_id]
    assert loaded == [going.game_id]
