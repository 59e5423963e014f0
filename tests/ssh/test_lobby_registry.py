"""The lobby registry (session/lobby.py) without SSH or Textual: tables,
seats, takeovers, resuming from disk, what it records."""

from __future__ import annotations

import asyncio

import pytest
from ssh_harness import TIMEOUT, wait_until

from momiji_tui import engine
from momiji_tui.engine import EndTurn, legal_commands
from momiji_tui.session.lobby import (
    Dissolved,
    Lobby,
    LobbyChanged,
    LobbyError,
    Player,
    Seated,
    SeatNews,
    SharedTable,
)
from momiji_tui.engine.events import SeatControlChanged
from momiji_tui.session.seat_log import read_summary
from momiji_tui.store import list_games


def seat_changes(table: SharedTable) -> list[tuple[int, str]]:
    """The seat events in the table's log on disk: (seat, reason)."""
    saved = list_games(table.log.path.parent.parent)
    [game] = [g for g in saved if g.game_id == table.game_id]
    return [(e["seat"], e["reason"]) for e in game.events if e["type"] == SeatControlChanged.__name__]


class FakeMember:
    def __init__(self, account: str, name: str) -> None:
        self.player = Player(account, name)
        self.events: list = []

    def lobby_event(self, event) -> None:
        self.events.append(event)

    def seated(self) -> Seated:
        return [e for e in self.events if isinstance(e, Seated)][-1]

    def news(self) -> list[str]:
        return [e.text for e in self.events if isinstance(e, SeatNews)]


def members(lobby: Lobby, *names: str) -> list[FakeMember]:
    out = [FakeMember(f"key-{name}", name) for name in names]
    for m in out:
        lobby.enter(m)
    return out


def start_two(lobby: Lobby, seed: int = 1) -> tuple[FakeMember, FakeMember, SharedTable]:
    alice, bob = members(lobby, "alice", "bob")
    lobby.deal_seed = lambda: seed
    pending = lobby.create_table(alice, ["human"])
    lobby.join_table(bob, pending.table_id)
    table = alice.seated().table
    assert bob.seated().table is table
    return alice, bob, table


def play_until_seat(table: SharedTable, seat: int, limit: int = 500) -> None:
    """Advance the game (any legal moves, ending turns early) until ``seat`` is to act."""
    for _ in range(limit):
        if table.finished or table.current == seat:
            return
        legal = table.legal(table.current)
        ends = [c for c in legal if isinstance(c, EndTurn)]
        table.submit(ends[0] if ends else legal[0])
    raise AssertionError("seat never came up")


def test_player_ids_are_checked_and_folders_stay_inside(tmp_path):
    lobby = Lobby(tmp_path)
    assert lobby.player_dir(Player("key-abc", "../x")) == tmp_path / "players" / "key-abc"
    for bad in ("../x", "", "A", "key/../..", "key abc", "x" * 100):
        with pytest.raises(ValueError):
            Player(bad, "x")


async def test_a_table_starts_when_every_open_seat_is_taken(tmp_path):
    lobby = Lobby(tmp_path)
    alice, bob, carol = members(lobby, "alice", "bob", "carol")
    lobby.deal_seed = lambda: 5
    pending = lobby.create_table(alice, ["human", "bot"])
    assert lobby.open_tables() == [pending] and pending.open_seats == 1
    with pytest.raises(LobbyError, match="gone"):
        lobby.join_table(bob, "T99")
    lobby.join_table(bob, pending.table_id)
    assert not lobby.pending and not lobby.open_tables()
    with pytest.raises(LobbyError, match="gone"):
        lobby.join_table(carol, pending.table_id)
    table = alice.seated().table
    assert (alice.seated().seat, bob.seated().seat) == (0, 1)
    assert [s.kind for s in table.seats] == ["human", "human", "bot"]
    assert [s.name for s in table.seats][:2] == ["alice", "bob"]
    # The log lives under tables/, not under a player's folder.
    [saved] = list_games(tmp_path / "tables")
    assert saved.game_id == table.game_id and not (tmp_path / "players").exists()
    # Who owns each seat is in the log itself (no seats file).
    summary = read_summary(table.log.path)
    assert summary.owners == ("key-alice", "key-bob", None) and not summary.bot_for
    assert seat_changes(table) == [(0, "seated"), (1, "seated")]  # alice, who created it, in seat 0
    assert "fingerprint" not in table.log.path.read_text()
    assert not (tmp_path / "tables" / "seats").exists()
    info = {t.table_id: t for t in lobby.snapshot().tables}[table.game_id]
    assert info.state == "playing" and [s for _, s in info.seats] == ["here", "here", "bot"]
    assert any(isinstance(e, LobbyChanged) for e in carol.events)


async def test_one_identity_one_seat_and_names_made_unique(tmp_path):
    lobby = Lobby(tmp_path)
    alice = FakeMember("key-a", "sam")
    alice_again = FakeMember("key-a", "sam")
    other_sam = FakeMember("key-b", "sam")
    for m in (alice, alice_again, other_sam):
        lobby.enter(m)
    pending = lobby.create_table(alice, ["human", "human"])
    with pytest.raises(LobbyError, match="already have a seat"):
        lobby.join_table(alice_again, pending.table_id)
    lobby.join_table(other_sam, pending.table_id)
    assert [s.name for s in pending.seats] == ["sam", "sam-2", ""]
    with pytest.raises(LobbyError):
        lobby.create_table(alice, ["bot"])  # no seat for another player
    with pytest.raises(LobbyError):
        lobby.create_table(alice, [])


async def test_the_creator_leaving_closes_a_waiting_table(tmp_path):
    lobby = Lobby(tmp_path)
    alice, bob, _carol = members(lobby, "alice", "bob", "carol")
    pending = lobby.create_table(alice, ["human", "human"])
    lobby.join_table(bob, pending.table_id)
    lobby.leave_pending(bob)  # a player leaving frees the seat
    assert pending.open_seats == 2 and lobby.pending
    lobby.join_table(bob, pending.table_id)
    lobby.exit(alice)  # the creator's session ends
    assert not lobby.pending
    assert [e.reason for e in bob.events if isinstance(e, Dissolved)] == ["alice closed table T1."]
    assert lobby.members[bob] == "in the lobby"


async def test_leaving_keeps_the_seat_then_a_bot_plays_it_then_the_player_takes_it_back(tmp_path):
    lobby = Lobby(tmp_path, seat_wait=0.05)
    alice, bob, table = start_two(lobby)
    lobby.exit(bob)  # dropped connection
    assert any("bob left the table" in text for text in alice.news())
    assert not table.seats[1].is_bot
    await wait_until(lambda: table.seats[1].is_bot, TIMEOUT)
    assert table.seats[1].level == "normal" and table.seats[1].name == "bob"
    assert any("A bot (normal) now plays for bob" in text for text in alice.news())
    assert lobby.absent_seat(bob.player) == table.game_id
    # bob comes back in a new session with the same key.
    bob2 = FakeMember("key-bob", "bob")
    lobby.enter(bob2)
    back, seat = lobby.return_to(bob2, table.game_id)
    assert back is table and seat == 1 and not table.seats[1].is_bot
    assert any("bob is back" in text for text in alice.news())
    takeovers = [c for c in seat_changes(table) if c[1] in ("bot after a wait", "back")]
    assert takeovers == [(1, "bot after a wait"), (1, "back")]
    # The header still says what the table was created as: two humans.
    [saved] = list_games(tmp_path / "tables")
    assert [s["kind"] for s in saved.header["seats"]] == ["human", "human"]


async def test_no_takeover_without_a_wait_or_without_anyone_left(tmp_path):
    lobby = Lobby(tmp_path, seat_wait=None)
    alice, bob, table = start_two(lobby)
    lobby.leave_table(bob, table)
    await asyncio.sleep(0)
    assert not table.seats[1].is_bot and not any(s.timer for s in lobby.live[table.game_id].seats)
    lobby.leave_table(alice, table)  # nobody left: the game is put away, still on disk
    assert not lobby.live and table.log is not None and table.log._file is None


async def test_a_game_everyone_left_is_resumed_from_disk(tmp_path):
    lobby = Lobby(tmp_path, seat_wait=0.05)
    alice, bob, table = start_two(lobby, seed=9)
    play_until_seat(table, 1)
    events = len(table.events)
    lobby.exit(bob)
    await wait_until(lambda: table.seats[1].is_bot, TIMEOUT)  # alice is still there
    lobby.exit(alice)
    assert not lobby.live
    # A new server process: a fresh lobby over the same folder.
    lobby2 = Lobby(tmp_path, seat_wait=0.05)
    alice2 = FakeMember("key-alice", "alice")
    lobby2.enter(alice2)
    [mine] = lobby2.my_tables(alice2.player)
    assert mine.game_id == table.game_id and mine.seat == 0 and not mine.live
    assert lobby2.my_tables(Player("key-mallory", "m")) == []
    with pytest.raises(LobbyError, match="no seat"):
        lobby2.return_to(FakeMember("key-mallory", "m"), table.game_id)
    assert not lobby2.live
    resumed, seat = lobby2.return_to(alice2, table.game_id)
    assert resumed is not table and seat == 0 and len(resumed.events) == len(table.events) + 1  # + alice back
    assert len(table.events) >= events
    assert engine.fold(resumed.events[:-1]) == table.state
    assert resumed.seats[1].is_bot  # the takeover is remembered until bob is back
    bob2 = FakeMember("key-bob", "bob")
    lobby2.enter(bob2)
    assert lobby2.absent_seat(bob2.player) == table.game_id
    lobby2.return_to(bob2, table.game_id)
    assert not resumed.seats[1].is_bot


async def test_finished_games_leave_the_resume_list(tmp_path):
    lobby = Lobby(tmp_path, seat_wait=None)
    alice, _bob, table = start_two(lobby, seed=3)
    assert [t.game_id for t in lobby.my_tables(alice.player)] == [table.game_id]
    for _ in range(2000):
        if table.finished:
            break
        legal = legal_commands(table.state, table.current)
        ends = [c for c in legal if isinstance(c, EndTurn)]
        table.submit(ends[0] if ends else legal[0])
    assert table.finished
    assert read_summary(table.log.path).finished is True
    assert lobby.my_tables(alice.player) == [] and lobby.absent_seat(alice.player) is None


def test_shared_table_close_is_not_closing_the_log(tmp_path):
    lobby = Lobby(tmp_path)
    _alice, _bob, table = start_two(lobby)
    n = len(table.events)
    table.close()  # what a front end calls when it leaves
    legal = table.legal(table.current)
    table.submit(legal[0])
    assert len(list_games(tmp_path / "tables")[0].events) > n
    lobby.close()
    assert table.log._file is None and not lobby.live


def test_solo_files_are_open_in_one_session_only(tmp_path):
    lobby = Lobby(tmp_path)
    one, two = FakeMember("key-a", "a"), FakeMember("key-a", "a")
    path = tmp_path / "players" / "key-a" / "games" / "g.jsonl"
    assert lobby.claim_file(one, path) and lobby.claim_file(one, path)
    assert not lobby.claim_file(two, path)
    lobby.release_file(two, path)  # not theirs: no effect
    assert not lobby.claim_file(two, path)
    lobby.exit(one)
    assert lobby.claim_file(two, path)
