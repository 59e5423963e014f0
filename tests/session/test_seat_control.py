"""Seat control is an event in the game's own log: who controls
each seat of a shared table replays from the log alone; old seats files are
migrated into the log; one task per shared table runs its bots."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path

import pytest

from momiji_tui import engine
from momiji_tui.bots import make_bot
from momiji_tui.engine import EndTurn
from momiji_tui.engine.events import SeatControlChanged
from momiji_tui.session.lobby import Lobby, Player, Seated, SharedTable
from momiji_tui.store import load

FIXTURES = Path(__file__).parent / "fixtures"


class FakeMember:
    def __init__(self, account: str, name: str) -> None:
        self.player = Player(account, name)
        self.events: list = []

    def lobby_event(self, event) -> None:
        self.events.append(event)

    def seated(self) -> Seated:
        return [e for e in self.events if isinstance(e, Seated)][-1]


class FakeTimers:
    """An injected ``call_later``: callbacks fire only when the test says so."""

    def __init__(self) -> None:
        self.pending: list[FakeTimers.Handle] = []

    class Handle:
        def __init__(self, owner: FakeTimers, delay: float, callback, args) -> None:
            self.owner, self.delay, self.callback, self.args, self.cancelled = owner, delay, callback, args, False

        def cancel(self) -> None:
            self.cancelled = True

    def __call__(self, delay: float, callback, *args):
        handle = FakeTimers.Handle(self, delay, callback, args)
        self.pending.append(handle)
        return handle

    def fire_all(self) -> int:
        due, self.pending = [h for h in self.pending if not h.cancelled], []
        for h in due:
            h.callback(*h.args)
        return len(due)


def _start(lobby: Lobby, others: list[str], seed: int = 7) -> tuple[FakeMember, FakeMember, SharedTable]:
    alice, bob = FakeMember("key-alice", "alice"), FakeMember("key-bob", "bob")
    lobby.enter(alice)
    lobby.enter(bob)
    lobby.deal_seed = lambda: seed
    pending = lobby.create_table(alice, others)
    lobby.join_table(bob, pending.table_id)
    return alice, bob, alice.seated().table


def _fold_saved(path: Path) -> list[engine.Event]:
    return [engine.from_dict(e) for e in load(path).events]


def test_seat_changes_of_a_shared_table_replay_from_its_log_alone(tmp_path):
    timers = FakeTimers()
    lobby = Lobby(tmp_path, seat_wait=30, call_later=timers)
    _alice, bob, table = _start(lobby, ["human"])
    lobby.leave_table(bob, table)  # bob left
    assert timers.fire_all() == 1  # the wait is over: a bot plays for bob
    bob2 = FakeMember("key-bob", "bob")
    lobby.enter(bob2)
    lobby.return_to(bob2, table.game_id)  # bob is back
    path = table.log.path
    lobby.close()
    # No seats file, no lobby: the saved JSONL alone.
    assert not (tmp_path / "tables" / "seats").exists()
    events = _fold_saved(path)
    changes = [(e.seat, e.control, e.player, e.reason) for e in events if isinstance(e, SeatControlChanged)]
    assert changes[:5] == [
        (0, "player", "key-alice", "seated"),
        (1, "player", "key-bob", "seated"),
        (1, "player", "key-bob", "left"),
        (1, "bot", "key-bob", "bot after a wait"),
        (1, "player", "key-bob", "back"),
    ]
    # Who controlled seat 1 at each point of the log:
    seen = []
    for n in range(1, len(events) + 1):
        control = engine.fold(events[:n]).seat_control
        if control and control[1] is not None and (not seen or seen[-1] != control[1].reason):
            seen.append(control[1].reason)
    assert seen[:4] == ["seated", "left", "bot after a wait", "back"]
    final = engine.fold(events)
    assert final.seat_control[0].player == "key-alice" and final.seat_control[1].control == "player"
    # The player view says it too (the UI can show "bob (bot for bob)").
    assert engine.view(engine.fold(events[:events.index(next(
        e for e in events if isinstance(e, SeatControlChanged) and e.reason == "bot after a wait")) + 1]), 0
    ).seat_control[1].control == "bot"


def test_seat_control_events_change_no_rule_and_survive_an_undo():
    events = engine.create_game(["a", "b"], seed=3, landscape_mode="starter", game_id="20260101-000000-aaaaaa")
    state = engine.fold(events)
    before = engine.legal_commands(state, state.current)
    moved = engine.apply(state, SeatControlChanged(state.current, "bot", "key-a", "bot after a wait"))
    assert engine.legal_commands(moved, moved.current) == before
    assert engine.view(moved, None).seat_control[state.current].control == "bot"
    # An undo takes back the seat's actions, never who controls it.
    seat = moved.current
    play = next(c for c in engine.legal_commands(moved, seat) if type(c).__name__ == "Play")
    after = moved
    for e in engine.decide(after, play):
        after = engine.apply(after, e)
    after = engine.apply(after, SeatControlChanged(seat, "player", "key-a", "back"))
    undo = engine.Undo(seat)  # not listed by legal_commands (not a rule)
    for e in engine.decide(after, undo):
        after = engine.apply(after, e)
    assert after.seat_control[seat].reason == "back"
    assert after.seats[seat].hand == state.seats[seat].hand  # the play was taken back
    with pytest.raises(ValueError):
        engine.apply(state, SeatControlChanged(9, "bot", None, "seated"))


def test_an_old_seats_file_is_migrated_into_the_log_then_moved_aside(tmp_path):
    shutil.copytree(FIXTURES / "seats-file-table", tmp_path / "tables")
    [seats_file] = (tmp_path / "tables" / "seats").glob("*.json")
    game_id = seats_file.stem
    record = json.loads(seats_file.read_text())
    log_path = tmp_path / "tables" / "games" / f"{game_id}.jsonl"
    n_before = len(load(log_path).events)
    lobby = Lobby(tmp_path, seat_wait=None)
    alice = FakeMember("key-alice", "alice")
    lobby.enter(alice)
    [mine] = lobby.my_tables(alice.player)  # the first listing migrates
    assert mine.game_id == game_id and mine.seat == 0
    assert not seats_file.exists()
    assert [p.name for p in (tmp_path / "tables" / "seats").glob("*.json*")] == [f"{game_id}.json.migrated"]
    events = _fold_saved(log_path)
    added = [(e.seat, e.control, e.player, e.reason) for e in events[n_before:]]
    assert added == [
        (0, "player", "key-alice", "seated"),
        (1, "player", "key-bob", "seated"),
        (1, "bot", "key-bob", "bot after a wait"),
        (1, "player", "key-bob", "back"),
        (1, "bot", "key-bob", "bot after a wait"),
    ]
    assert [t["what"] for t in record["takeovers"]] == ["bot", "returned", "bot"]
    table, seat = lobby.return_to(alice, game_id)
    assert seat == 0 and table.seats[1].is_bot and not table.seats[0].is_bot
    lobby.close()
    # A second server start finds nothing more to migrate.
    n_after = len(load(log_path).events)
    lobby2 = Lobby(tmp_path, seat_wait=None)
    assert [t.game_id for t in lobby2.my_tables(alice.player)] == [game_id]
    assert len(load(log_path).events) == n_after


def test_a_damaged_seats_file_is_reported_and_kept_aside_and_the_game_still_opens(tmp_path, caplog):
    shutil.copytree(FIXTURES / "seats-file-table", tmp_path / "tables")
    [seats_file] = (tmp_path / "tables" / "seats").glob("*.json")
    game_id = seats_file.stem
    seats_file.write_text("{not json")
    lobby = Lobby(tmp_path, seat_wait=None)
    assert lobby.my_tables(Player("key-alice", "alice")) == []
    assert not seats_file.exists()
    [aside] = [p for p in (tmp_path / "tables" / "seats").glob(f"{game_id}.json.damaged-*")
               if not p.name.endswith(".txt")]
    assert aside.read_text() == "{not json"
    assert f"seats file of {game_id} is damaged" in caplog.text
    # The game still opens, with the header's seats.
    table = SharedTable.resume(tmp_path / "tables" / "games" / f"{game_id}.jsonl")
    assert [s.kind for s in table.seats] == ["human", "human", "bot"]
    table.close_log()


async def test_two_players_at_one_shared_table_never_both_run_a_bot_move(tmp_path):
    thoughts: list[tuple[int, int]] = []

    async def think(table, seat):
        thoughts.append((seat, len(table.events)))
        return table.bot_command(seat, make_bot)

    lobby = Lobby(tmp_path, seat_wait=None, think=think, bot_delay=0)
    _alice, _bob, table = _start(lobby, ["human", "bot"], seed=11)
    assert table.seats[2].is_bot

    async def settle() -> None:  # bounded: the bot task gets the loop a few times
        for _ in range(50):
            await asyncio.sleep(0)
            if table.current != 2 or table.finished:
                return

    await settle()
    for _ in range(12):  # the humans play (any legal move, ending turns early)
        if table.finished:
            break
        seat = table.current
        assert seat in (0, 1)
        legal = table.legal(seat)
        ends = [c for c in legal if isinstance(c, EndTurn)]
        table.submit(ends[0] if ends else legal[0])
        await settle()
    bot_commands = [e for e in table.events if getattr(e, "seat", None) == 2
                    and not isinstance(e, SeatControlChanged)]
    bot_turns = [e for e in bot_commands if type(e).__name__ == "TurnEnded"]
    assert bot_turns
    # Every decision was asked once, at a distinct point of the game, and played.
    assert len(thoughts) == len(set(thoughts))
    assert len({n for _, n in thoughts}) == len(thoughts)
    assert SharedTable.bots_run_by_front_end is False
    lobby.close()


def test_a_momiji_of_format_3_refuses_a_log_with_seat_events_as_newer(tmp_path, monkeypatch):
    lobby = Lobby(tmp_path, seat_wait=None)
    _alice, _bob, table = _start(lobby, ["human"])
    path = table.log.path
    lobby.close()
    assert any(isinstance(e, SeatControlChanged) for e in _fold_saved(path))
    from momiji_tui.store import NewerFormat
    from momiji_tui.store import log as store_log

    monkeypatch.setattr(store_log, "CURRENT_FORMAT_VERSION", 3)  # a momiji that reads format 3
    with pytest.raises(NewerFormat, match="newer momiji-tui"):
        load(path)


async def test_two_apps_at_one_shared_table_only_render_the_lobby_runs_its_bot_once_per_decision(tmp_path):
    from momiji_tui.ui.lobby import LobbyApp

    app_bots: list[int] = []

    def apps_make_bot(level, seed=0, **budget):  # what the apps would use to run a bot
        app_bots.append(seed)
        return make_bot(level, seed=seed, **budget)

    thoughts: list[int] = []
    pilots: list = []

    async def think(table, seat):
        thoughts.append(len(table.events))
        for _ in range(3):  # think "slowly": the apps get the loop meanwhile (would they run the bot?)
            for pilot in pilots:
                await pilot.pause()
        return table.bot_command(seat, make_bot)

    lobby = Lobby(tmp_path, seat_wait=None, think=think, bot_delay=0)
    lobby.deal_seed = lambda: 11
    a = LobbyApp(lobby, Player("key-alice", "alice"), bot_delay=0, make_bot=apps_make_bot)
    b = LobbyApp(lobby, Player("key-bob", "bob"), bot_delay=0, make_bot=apps_make_bot)
    async with a.run_test(size=(120, 40)) as pa, b.run_test(size=(120, 40)) as pb:
        pilots += [pa, pb]
        pending = lobby.create_table(a, ["human", "bot"])
        lobby.join_table(b, pending.table_id)
        for _ in range(100):  # bounded: both apps open the table
            if a.table is not None and a.table is b.table:
                break
            await pa.pause()
            await pb.pause()
        table = a.table
        assert isinstance(table, SharedTable) and table.seats[2].is_bot
        for _ in range(10):
            for _ in range(100):  # bounded: the bot's turn is over
                if table.current != 2 or table.finished:
                    break
                await pa.pause()
            if table.finished:
                break
            legal = table.legal(table.current)
            ends = [c for c in legal if isinstance(c, EndTurn)]
            table.submit(ends[0] if ends else legal[0])
            await pb.pause()
        assert not app_bots and a.thinking is None and b.thinking is None  # the apps never ran the bot
        bot_turns = [e for e in table.events if type(e).__name__ == "TurnEnded" and e.seat == 2]
        assert bot_turns and len(thoughts) == len(set(thoughts))  # each decision asked once
    lobby.close()


def test_the_seats_file_of_a_finished_game_is_set_aside_and_its_log_still_ends_with_game_ended(tmp_path):
    shutil.copytree(FIXTURES / "seats-file-table", tmp_path / "tables")
    [seats_file] = (tmp_path / "tables" / "seats").glob("*.json")
    log_path = tmp_path / "tables" / "games" / f"{seats_file.stem}.jsonl"
    table = SharedTable.resume(log_path)
    for _ in range(3000):  # finish the game (any legal moves, ending turns early)
        if table.finished:
            break
        legal = table.legal(table.current)
        ends = [c for c in legal if isinstance(c, EndTurn)]
        table.submit(ends[0] if ends else legal[0])
    table.close_log()
    assert table.finished
    Lobby(tmp_path).my_tables(Player("key-alice", "alice"))
    assert load(log_path).events[-1]["type"] == "GameEnded"
    assert not seats_file.exists() and seats_file.with_name(seats_file.name + ".migrated").exists()


async def test_a_bot_move_the_disk_refuses_is_told_and_tried_again(tmp_path, monkeypatch):
    import errno
    import os

    from momiji_tui.session.shared_table import BOT_SAVE_RETRY, run_bots
    from momiji_tui.session.table import BOT, HUMAN, SeatConfig

    table = SharedTable.new([SeatConfig("alice", HUMAN), SeatConfig("Kaede", BOT, "easy")], seed=5,
                            data_dir=tmp_path)
    while table.bot_to_move() is None:  # alice plays until the bot is to move
        legal = table.legal(table.current)
        table.submit(next((c for c in legal if isinstance(c, EndTurn)), legal[0]))
    real_fsync, refusals = os.fsync, [1]

    def fsync(fd):
        if refusals:
            refusals.pop()
            raise OSError(errno.ENOSPC, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    pauses: list[float] = []
    news: list[str] = []

    async def think(t, seat):
        return t.bot_command(seat, make_bot)

    async def pause(seconds):
        pauses.append(seconds)

    n = len(table.events)
    await run_bots(table, think, pause, 0, news.append)
    assert news == [f"Not saved: disk full. Kaede's move was not made; trying again in {BOT_SAVE_RETRY:g} s."]
    assert pauses == [BOT_SAVE_RETRY] and table.bot_to_move() is None and len(table.events) > n
    table.close_log()
    assert len(load(table.log.path).events) == len(table.events)  # nothing lost, nothing doubled


def test_a_table_whose_owners_cannot_be_saved_does_not_start(tmp_path, monkeypatch):
    import errno
    import os

    from momiji_tui.session.lobby import Dissolved

    real_open = os.open

    def refusing_open(path, flags, *args, **kwargs):
        if flags & os.O_APPEND:  # the log's append (after the atomic create): the disk is full now
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_open(path, flags, *args, **kwargs)

    lobby = Lobby(tmp_path, seat_wait=None)
    alice, bob = FakeMember("key-alice", "alice"), FakeMember("key-bob", "bob")
    lobby.enter(alice)
    lobby.enter(bob)
    pending = lobby.create_table(alice, ["human"])
    monkeypatch.setattr(os, "open", refusing_open)
    lobby.join_table(bob, pending.table_id)
    monkeypatch.undo()
    reasons = [e.reason for e in bob.events if isinstance(e, Dissolved)]
    assert reasons == ["The game could not start: disk full."]
    assert not lobby.live and not [e for e in alice.events if isinstance(e, Seated)]
    assert lobby.members[alice] == "in the lobby"


def test_bots_ignore_seat_control_their_random_draws_are_the_same():
    from momiji_tui.bots.base import view_digest

    events = engine.create_game(["a", "b"], seed=3, landscape_mode="starter", game_id="20260101-000000-aaaaaa")
    state = engine.fold(events)
    moved = engine.apply(state, SeatControlChanged(1, "bot", "key-b", "bot after a wait"))
    # The digest seeds every bot decision: the same with or without the event
    # (and as before seat events existed).
    assert view_digest(engine.view(moved, 0)) == view_digest(engine.view(state, 0))
    assert "seat_control" not in repr(engine.view(state, 0))
    bot = make_bot("normal", seed=4)
    assert bot.choose(engine.view(moved, moved.current)) == make_bot("normal", seed=4).choose(
        engine.view(state, state.current))
