"""Child processes die with the server, whatever killed it (``kill -9``):
the bot pool's workers watch their parent, and with them goes
multiprocessing's resource tracker; a child forked by the main thread asks
Linux for a parent-death signal (``ssh/parent_death.py``). Each server here
is a small Python process killed with SIGKILL; every wait is bounded."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")

GONE_WITHIN = 30.0
"""Seconds a child may take to go (a bound on a wait, not a timing asserted)."""

SERVER_WITH_A_BOT_POOL = """
import sys
from momiji_tui.ssh.bot_pool import BotPool
pool = BotPool(1)
pool.start()
print("ready", flush=True)
sys.stdin.read()
"""

SERVER_WITH_A_FORKED_WORKER = """
import os, signal, sys, time
from momiji_tui.ssh.parent_death import signal_on_parent_death
parent = os.getpid()
pid = os.fork()
if pid == 0:
    signal_on_parent_death(parent, signal.SIGKILL)
    time.sleep(600)
    os._exit(0)
print("ready", flush=True)
sys.stdin.read()
"""


def children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        found |= {int(p) for p in (task / "children").read_text().split()}
    return found


def alive(pid: int) -> bool:
    """Running (a zombie left for a reaper counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def start(script: str) -> subprocess.Popen[str]:
    server = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True)
    assert server.stdout is not None and server.stdout.readline() == "ready\n"
    return server


def kill_and_wait_for(server: subprocess.Popen[str], pids: set[int]) -> set[int]:
    """SIGKILL the server; the pids still running after GONE_WITHIN seconds."""
    server.kill()
    server.wait()
    deadline = time.monotonic() + GONE_WITHIN
    while (left := {p for p in pids if alive(p)}) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


def test_the_bot_workers_and_the_resource_tracker_die_with_a_killed_server():
    server = start(SERVER_WITH_A_BOT_POOL)
    try:
        kids = children(server.pid)
        assert len(kids) >= 2  # the worker and multiprocessing's resource tracker
        assert kill_and_wait_for(server, kids) == set()
    finally:
        for pid in children(server.pid) if server.poll() is None else ():
            os.kill(pid, signal.SIGKILL)
        server.kill()


def test_a_child_forked_by_the_main_thread_gets_the_parent_death_signal():
    if not sys.platform.startswith("linux"):
        pytest.skip("prctl is Linux's")
    server = start(SERVER_WITH_A_FORKED_WORKER)
    try:
        kids = children(server.pid)
        assert len(kids) == 1
        assert kill_and_wait_for(server, kids) == set()
    finally:
        server.kill()
