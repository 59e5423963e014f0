"""The session table: commands in, events saved before they change the table."""

from __future__ import annotations

import pytest

from momiji_tui import engine
from momiji_tui.engine import EndTurn, IllegalCommand
from momiji_tui.session.table import BOT, HUMAN, SeatConfig, Table, validate_log
from momiji_tui.store import load

SEATS = [SeatConfig("Ada", HUMAN), SeatConfig("Kaede", BOT, "easy"), SeatConfig("Ginnan", BOT, "easy")]


def play_bots_until_human(table: Table) -> None:
    for _ in range(500):
        seat = table.bot_to_move()
        if seat is None:
            return
        table.submit(table.bot_command(seat))
    raise AssertionError("bots never stopped")


def test_every_event_is_saved_before_the_table_changes(isolated_dirs):
    table = Table.new(SEATS, seed=3, data_dir=isolated_dirs)
    play_bots_until_human(table)
    loaded = load(table.log.path, validate_log)
    assert [engine.from_dict(e) for e in loaded.events] == table.events
    assert loaded.header["seats"][1] == {"name": "Kaede", "kind": "bot", "level": "easy"}
    assert engine.fold(table.events) == table.state


def test_an_illegal_command_writes_nothing_and_changes_nothing(isolated_dirs):
    table = Table.new(SEATS, seed=3, data_dir=isolated_dirs)
    play_bots_until_human(table)
    size = table.log.path.stat().st_size
    state = table.state.clone()
    heard = []
    table.subscribe(heard.append)
    with pytest.raises(IllegalCommand, match="main action"):
        table.submit(EndTurn(table.current))
    assert table.log.path.stat().st_size == size
    assert table.state == state
    assert heard == []


def test_listeners_hear_each_accepted_command_once(isolated_dirs):
    table = Table.new(SEATS, seed=4, data_dir=None)
    heard: list[list] = []
    unsubscribe = table.subscribe(heard.append)
    seat = table.bot_to_move()
    if seat is None:
        seat = table.current
        command = table.legal(seat)[0]
    else:
        command = table.bot_command(seat)
    events = table.submit(command)
    assert heard == [events]
    unsubscribe()
    play_bots_until_human(table)
    assert len(heard) == 1


def test_resume_gives_the_same_table_and_the_same_bot_choices(isolated_dirs):
    table = Table.new(SEATS, seed=5, data_dir=isolated_dirs)
    play_bots_until_human(table)
    table.submit(table.legal(table.current)[0])
    table.close()
    again = Table.resume(table.log.path)
    assert again.state == table.state
    assert again.seats == SEATS
    seat = again.bot_to_move() if again.bot_to_move() is not None else None
    if seat is not None:
        # A bot's choice depends only on the game, the seat and the step.
        assert again.bot_command(seat) == table.bot_command(seat)


def test_no_front_end_claims_bot_moves_any_more_a_shared_table_runs_its_own():
    # the race through claim_bot_move is gone; the lobby runs a
    # shared table's bots in one task (tests/session/test_seat_control.py).
    from momiji_tui.session.shared_table import SharedTable

    assert not hasattr(Table, "claim_bot_move") and not hasattr(Table, "release_bot_claim")
    assert Table.bots_run_by_front_end and not SharedTable.bots_run_by_front_end


def test_a_seat_event_the_disk_refuses_changes_nothing(tmp_path, monkeypatch):
    import errno
    import os

    from momiji_tui.engine.events import SeatControlChanged
    from momiji_tui.store import WriteFailed, load

    table = Table.new(SEATS, seed=6, data_dir=tmp_path)
    n, state = len(table.events), table.state
    heard: list = []
    table.subscribe(heard.append)

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(WriteFailed, match="disk full"):
        table.record([SeatControlChanged(0, "bot", "key-a", "bot after a wait")])
    assert len(table.events) == n and table.state is state and not heard
    monkeypatch.undo()
    table.record([SeatControlChanged(0, "bot", "key-a", "bot after a wait")])
    assert table.state.seat_control[0].control == "bot" and len(heard) == 1
    table.close()
    assert load(table.log.path).events[-1]["type"] == "SeatControlChanged"


def test_check_previews_public_commands_only():
    table = Table.new(SEATS, seed=7, data_dir=None)
    with pytest.raises(TypeError):
        table.check(EndTurn(0))


def test_validate_log_rejects_events_the_rules_reject():
    table = Table.new(SEATS, seed=8, data_dir=None)
    dicts = [engine.to_dict(e) for e in table.events]
    header = {"seats": [{"name": s.name, "kind": s.kind, "level": s.level} for s in SEATS]}
    validate_log(header, dicts)
    bad = [*dicts, {"type": "AcornsPaid", "seat": 0, "amount": 99, "reason": "x"}]
    with pytest.raises(ValueError, match="rules reject"):
        validate_log(header, bad)
    with pytest.raises(ValueError):
        validate_log(header, [])


@pytest.mark.parametrize("point", ["open", "write", "fsync", "truncate"])
@pytest.mark.parametrize("error", ["ENOSPC", "EROFS", "EACCES", "EIO"])
def test_a_move_the_disk_refuses_changes_neither_file_nor_table_and_can_be_sent_again(
        isolated_dirs, monkeypatch, point, error):
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parents[1] / "store"))
    from store_faults import inject

    from momiji_tui.store import WriteFailed

    table = Table.new(SEATS, seed=3, data_dir=isolated_dirs)
    table.log.close()  # reopened at the next move: a torn tail is cut then
    with table.log.path.open("ab") as f:
        f.write(b'{"type":"Tor')
    before_file, before_events, before_state = table.log.path.read_bytes(), list(table.events), table.state
    command = table.bot_command(table.bot_to_move()) if table.bot_to_move() is not None else EndTurn(0)
    faults = inject(monkeypatch, point, error)
    with pytest.raises(WriteFailed) as caught:
        table.submit(command)
    assert faults.hits > 0 and caught.value.reason
    assert table.events == before_events and table.state is before_state
    assert table.log.path.read_bytes() in (before_file, before_file[: -len(b'{"type":"Tor')])
    faults.points.clear()
    table.submit(command)  # the same command again, once the disk is back
    assert [engine.from_dict(e) for e in load(table.log.path, validate_log).events] == table.events
    table.close()
