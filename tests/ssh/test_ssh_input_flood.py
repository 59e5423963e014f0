"""A key flood costs the flooding session its own time only: another
player's keys are still served while it runs; the flooder, over its input
budget with its SSH window full for the grace (shortened here), is told and
closed, and its slot is free again (ssh/driver.py "bounded input")."""

from __future__ import annotations

import logging
import random

from ssh_harness import new_key, wait_until

from momiji_tui.ssh import driver


async def flood_and_play(hosted, clients, payload: bytes, caplog) -> None:
    player = await clients.terminal(hosted.port, username="player", key=new_key())
    await player.wait_for_text("who=player")
    flooder = await clients.terminal(hosted.port, username="flooder", key=new_key())
    await flooder.wait_for_text("who=flooder")
    flooder.send(payload)
    for count in (1, 2):  # while the flood runs
        player.send(b"\x1bOR")
        await player.wait_for_text(f"counter={count}")
    assert await flooder.wait_exit() == 1
    assert b"too much input, too fast" in flooder.raw
    await hosted.wait_sessions(1)
    await wait_until(lambda: [reason for _, reason in hosted.ended] == ["flood"])
    floods = [r.getMessage() for r in caplog.records if r.name == "momiji" and "input flood" in r.getMessage()]
    assert len(floods) == 1 and floods[0].startswith("input flood from 127.0.0.1 port ")
    player.send(b"\x1bOR")
    await player.wait_for_text("counter=3")


async def test_a_key_flood_is_told_and_closed_and_another_player_is_still_served(
        hosted, clients, monkeypatch, caplog):
    caplog.set_level(logging.INFO, logger="momiji")
    monkeypatch.setattr(driver, "FLOOD_GRACE", 0.5)
    await flood_and_play(hosted, clients, b"x" * 300_000, caplog)


async def test_random_bytes_are_told_and_closed_the_same_way(hosted, clients, monkeypatch, caplog):
    caplog.set_level(logging.INFO, logger="momiji")
    monkeypatch.setattr(driver, "FLOOD_GRACE", 0.5)
    noise = random.Random(39).randbytes(300_000).replace(b"\x03", b"x").replace(b"\x11", b"x")  # no quit key
    await flood_and_play(hosted, clients, noise, caplog)
