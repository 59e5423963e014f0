"""A refused save is logged for the operator once, with its cause (the
``momiji`` logger: the server's log), and again when saves work again; the
player is told every time as before. The disk's refusal is injected at the
call (``store_faults.inject``)."""

from __future__ import annotations

import logging

import pytest
from store_faults import inject

from momiji_tui.bots import make_bot
from momiji_tui.engine import EndTurn
from momiji_tui.session.shared_table import SharedTable, run_bots
from momiji_tui.session.table import BOT, HUMAN, SeatConfig
from momiji_tui.store import WriteFailed, load


def operator_lines(caplog) -> list[tuple[int, str]]:
    return [(r.levelno, r.getMessage()) for r in caplog.records
            if r.name == "momiji" and r.getMessage().startswith(("save refused", "saves work again"))]


def bot_to_move(tmp_path) -> SharedTable:
    table = SharedTable.new([SeatConfig("alice", HUMAN), SeatConfig("Kaede", BOT, "easy")], seed=5,
                            data_dir=tmp_path)
    while table.bot_to_move() is None:  # alice plays until the bot is to move
        legal = table.legal(table.current)
        table.submit(next((c for c in legal if isinstance(c, EndTurn)), legal[0]))
    return table


async def test_a_full_disk_while_serving_is_logged_once_with_its_cause(tmp_path, monkeypatch, caplog):
    """A served shared table: the disk is full for three tries of the bot's
    move (each told at the table); the server's log has one line saying
    which file, what could not be done and why, then one when it saves again."""
    caplog.set_level(logging.INFO, logger="momiji")
    table = bot_to_move(tmp_path)
    faults = inject(monkeypatch, "fsync", "ENOSPC")
    news: list[str] = []

    async def think(t, seat):
        return t.bot_command(seat, make_bot)

    async def pause(seconds):
        if len(news) == 3:
            monkeypatch.undo()  # the operator freed some space

    await run_bots(table, think, pause, 0, news.append)
    assert faults.hits == 3 and len(news) == 3 and all(n.startswith("Not saved: disk full.") for n in news)
    assert operator_lines(caplog) == [
        (logging.ERROR, f"save refused: {table.log.path}: could not save the move: disk full "
                        "(ENOSPC: No space left on device (injected at os.fsync))"),
        (logging.WARNING, f"saves work again: {table.log.path}"),
    ]
    table.close_log()
    assert len(load(table.log.path).events) == len(table.events)


def test_each_run_of_refusals_is_logged_once_and_a_player_retrying_adds_no_line(tmp_path, monkeypatch, caplog):
    caplog.set_level(logging.INFO, logger="momiji")
    table = bot_to_move(tmp_path)
    for code in ("EROFS", "EIO"):
        command = table.legal(table.current)[0]
        inject(monkeypatch, "write", code)
        for _ in range(4):  # the player tries again and again
            with pytest.raises(WriteFailed):
                table.submit(command)
        monkeypatch.undo()
        table.submit(command)  # saved: the run of refusals ends
    lines = [text for _, text in operator_lines(caplog)]
    assert [line.split(":")[0] for line in lines] == ["save refused", "saves work again"] * 2
    assert "read-only" in lines[0] and "EROFS" in lines[0] and "EIO" in lines[2]
    table.close_log()
