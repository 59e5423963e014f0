"""Private data folders, guest data retention, a summary line."""

from __future__ import annotations

import asyncio
import logging
import os
import stat
import time

from ssh_harness import new_key, wait_app

from momiji_tui.ssh.housekeeping import DAY, make_private, summary_line, sweep_guests


def mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


async def test_every_data_folder_is_private_0700(start_game, isolated_dirs, clients):
    old = isolated_dirs / "players" / "key-0123"  # as an older version left it
    (old / "games").mkdir(parents=True)
    for folder in (isolated_dirs, isolated_dirs / "players", old, old / "games"):
        folder.chmod(0o755)
    server = await start_game()
    term = await clients.terminal(server.port, username="alice", key=new_key())
    await term.wait_for_text("Welcome, alice")
    for folder in (isolated_dirs, isolated_dirs / "players", isolated_dirs / "tables", old,
                   old / "games"):
        assert mode(folder) == 0o700, folder


def _make_guest(root, name: str, age_days: float, now: float):
    folder = root / "players" / name / "games"
    folder.mkdir(parents=True)
    game = folder / "g.jsonl"
    game.write_text("{}\n")
    for path in (game, folder, folder.parent):
        os.utime(path, (now - age_days * DAY, now - age_days * DAY))
    return folder.parent


def test_guest_data_is_removed_after_the_retention_only(tmp_path):
    now = 2_000_000_000.0
    old = _make_guest(tmp_path, "guest-aaaa", 4, now)
    recent = _make_guest(tmp_path, "guest-bbbb", 2, now)
    online = _make_guest(tmp_path, "guest-cccc", 10, now)
    key = _make_guest(tmp_path, "key-dddd", 100, now)
    removed = sweep_guests(tmp_path, 3, now, in_use={"guest-cccc"})
    assert removed == ["guest-aaaa"]
    assert not old.exists() and recent.exists() and online.exists() and key.exists()
    assert sweep_guests(tmp_path, 0, now) == []  # 0: kept forever


async def test_the_server_sweeps_guests_at_start_and_periodically(start_game, isolated_dirs):
    now = time.time()
    make_private(isolated_dirs)
    old = _make_guest(isolated_dirs, "guest-aaaa", 5, now)
    server = await start_game(housekeeping_every=3600, guest_retention_days=3)
    for _ in range(100):  # the first sweep runs at start, on the loop
        if not old.exists():
            break
        await asyncio.sleep(0.01)
    assert not old.exists()
    later = _make_guest(isolated_dirs, "guest-bbbb", 1, now)
    assert server.sweep_guests(3, now + 3 * DAY) == ["guest-bbbb"]
    assert not later.exists()


async def test_a_guest_logged_in_now_keeps_their_data(start_game, clients):
    server = await start_game(housekeeping_every=None)
    term = await clients.terminal(server.port, username="gus")
    await term.wait_for_text("Welcome, gus")
    app = await wait_app(server, "gus")
    folder = server.lobby.player_dir(app.player)
    folder.mkdir(parents=True, exist_ok=True)
    assert server.sweep_guests(1, time.time() + 30 * DAY) == []
    assert folder.exists()


async def test_a_summary_line_is_logged(start_game, caplog):
    caplog.set_level(logging.INFO, logger="momiji")
    slept: list[float] = []
    gate = asyncio.Event()

    async def fake_sleep(seconds: float) -> None:
        slept.append(seconds)
        await gate.wait()

    server = await start_game(housekeeping_every=None)
    server.start_housekeeping(600, 3, sleep=fake_sleep)
    for _ in range(100):
        if slept:
            break
        await asyncio.sleep(0.01)
    assert slept == [600]
    lines = [r.getMessage() for r in caplog.records if r.name == "momiji"]
    assert any(line.startswith("summary: 0 sessions, 0 tables, rss ") and line.endswith(" MB")
               for line in lines), lines
    assert summary_line(3, 1, 50 * 2**20) == "3 sessions, 1 table, rss 50 MB"
    assert summary_line(1, 2, 50 * 2**20) == "1 session, 2 tables, rss 50 MB"
