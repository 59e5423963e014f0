"""Ratings at the lobby on files (session/lobby_ratings.py): a finished
shared game rates its players once, the players are told, and the lobby's
lists show the ratings."""

from __future__ import annotations

from rated_play import Member as FakeMember
from rated_play import play_to_the_end

from momiji_tui.session.lobby import Lobby, SharedTable
from momiji_tui.session.rating_book import FileRatingBook
from momiji_tui.session.ratings import BOT_RATINGS, NEW, game_result, rate
from momiji_tui.session.shared_table import live_from_log


ALICE, BOB = "key-alice", "key-bob"


def play_shared_game_to_the_end(lobby: Lobby, seed: int = 3) -> tuple[FakeMember, FakeMember, SharedTable]:
    """Alice, Bob and a Normal bot at one table, played to the end (any legal
    moves; no event loop runs, so the test moves the bot's seat too)."""
    alice, bob = FakeMember(ALICE, "alice"), FakeMember(BOB, "bob")
    lobby.enter(alice)
    lobby.enter(bob)
    lobby.deal_seed = lambda: seed
    pending = lobby.create_table(alice, ["human", "bot"], bot_level="normal")
    lobby.join_table(bob, pending.table_id)
    table = alice.seated()[-1].table
    play_to_the_end(table)
    return alice, bob, table


def test_a_finished_shared_game_rates_its_players_once_on_files(tmp_path):
    lobby = Lobby(tmp_path, seat_wait=None, ratings=True)
    alice, bob, table = play_shared_game_to_the_end(lobby)

    # What the library gives for this result, computed here from the game's own score sheet.
    expected = game_result(table.game_id, [None, None, "normal"], [ALICE, BOB, None], table.score())
    assert expected is not None and expected.seats[2].fixed == BOT_RATINGS["normal"]
    after = rate(expected, {ALICE: NEW, BOB: NEW})
    stored = FileRatingBook(tmp_path).look_up([ALICE, BOB])
    assert stored == after and stored[ALICE].games == stored[BOB].games == 1

    # The players are told at the table, and the lobby's lists show the new ratings.
    [told] = [t for t in alice.news() if t.startswith("Ratings:")]
    assert told in bob.news() and f"{table.seats[0].name} rating {after[ALICE].ordinal:.1f} (" in told
    players = dict(lobby.snapshot().players)
    assert any(name.startswith("alice") and name.endswith(f" · {after[ALICE].ordinal:.1f}") for name in players)
    assert lobby.rating_line(table.game_id, {ALICE: "alice", BOB: "bob"}) == told.replace(
        table.seats[0].name, "alice").replace(table.seats[1].name, "bob")

    # The end seen again (an event replayed, another process opening the finished game): no second update.
    live = lobby.live[table.game_id]
    lobby._rate(live)
    lobby.close()
    other = Lobby(tmp_path, seat_wait=None, ratings=True)
    other._rate(live_from_log(SharedTable.resume(table.log.path), "normal"))
    assert FileRatingBook(tmp_path).look_up([ALICE, BOB]) == after
    # A new server on the same data dir shows the ratings at login.
    again = FakeMember(ALICE, "alice")
    restarted = Lobby(tmp_path, ratings=True)
    restarted.enter(again)
    assert restarted.known_ratings[ALICE] == after[ALICE]


def test_ratings_off_keep_nothing_and_show_nothing(tmp_path):
    lobby = Lobby(tmp_path, seat_wait=None, ratings=False)
    alice, _bob, _table = play_shared_game_to_the_end(lobby, seed=4)
    assert not (tmp_path / "ratings").exists()
    assert not [t for t in alice.news() if t.startswith("Ratings:")]
    assert all(" · " not in name for name, _ in lobby.snapshot().players)


def test_serve_rates_by_default_and_no_ratings_turns_it_off():
    from momiji_tui.ssh.cli import build_parser

    assert build_parser().parse_args([]).ratings is True
    assert build_parser().parse_args(["--no-ratings"]).ratings is False


async def test_the_server_passes_its_ratings_option_to_the_lobby(tmp_path):
    from momiji_tui.ssh.game_server import start_game_server

    for on in (True, False):
        server = await start_game_server(data_dir=tmp_path / str(on), port=0, housekeeping_every=None,
                                         ratings=on)
        try:
            assert (server.lobby.ratings is not None) is on
        finally:
            await server.close()


def test_a_table_that_starts_tells_its_players_their_ratings(tmp_path):
    from momiji_tui.session.ratings import BOT_RATINGS

    lobby = Lobby(tmp_path, seat_wait=None, ratings=True)
    play_shared_game_to_the_end(lobby)  # alice and bob have a rated game now
    alice, bob, guest = FakeMember(ALICE, "alice"), FakeMember(BOB, "bob"), FakeMember("guest-0123", "gus")
    for m in (alice, bob, guest):
        lobby.enter(m)
    pending = lobby.create_table(alice, ["human", "human", "bot"], bot_level="hard")
    lobby.join_table(bob, pending.table_id)
    lobby.join_table(guest, pending.table_id)
    [line] = [t for t in bob.news() if t.startswith("Rated game:")]
    rating = lobby.known_ratings[ALICE].ordinal
    assert f"alice rating {rating:.1f}, " in line and "gus guest, unrated" in line
    assert line.endswith(f"bot {BOT_RATINGS['hard'].ordinal:.1f}.")

    lone = FakeMember("key-carol", "carol")
    lobby.enter(lone)
    pending = lobby.create_table(lone, ["human", "bot"])
    lobby.join_table(guest, pending.table_id)  # a guest and one key holder: not rated
    assert [t for t in lone.news() if t.startswith("Not a rated game")]


def test_a_ratings_store_that_fails_leaves_the_game_unrated_until_the_next_game_ends(tmp_path, caplog):
    lobby = Lobby(tmp_path, seat_wait=None, ratings=True)
    record = lobby.ratings.record

    def full(result):
        raise OSError(28, "No space left on device")

    lobby.ratings.record = full
    alice, _bob, first = play_shared_game_to_the_end(lobby)
    assert first.finished and lobby.rating_changes == {} and list(lobby.unrated) == [first.game_id]
    assert not [t for t in alice.news() if t.startswith("Ratings:")]
    assert "the ratings were not updated: [Errno 28] No space left on device" in caplog.text

    lobby.ratings.record = record  # the disk has room again
    _alice, _bob, second = play_shared_game_to_the_end(lobby, seed=4)
    assert set(lobby.rating_changes) == {first.game_id, second.game_id} and lobby.unrated == {}
    stored = FileRatingBook(tmp_path).look_up([ALICE])[ALICE]
    assert stored.games == 2 and stored == lobby.rating_changes[second.game_id][ALICE].after
