"""``momiji serve --workers N``: N processes on one port
(SO_REUSEPORT), a parent that replaces a dead worker and stops them all.

The server runs in a child process (its own session, killed whole at
teardown); clients are real asyncssh clients on loopback. Which worker
served a client is read from the log: every line names its worker and pid,
and a login line names the client's port. Every wait is bounded.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from ssh_harness import CTRL_S, TIMEOUT, new_key, open_connection, wait_until

from momiji_tui.ssh.cli import build_parser
from momiji_tui.ssh.identity import Identity
from momiji_tui.ssh.worker_role import WORKER_EXIT_ENV, RestartPolicy, WorkerRole, reserve_port

ROOT = Path(__file__).resolve().parents[2]
SHUTDOWN = "The server is shutting down; your game is saved."


class Workers:
    """``momiji serve --workers N`` in a child process; its log read as it comes."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.log: list[str] = []
        self._reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        assert self.proc.stderr is not None
        while line := await self.proc.stderr.readline():
            self.log.append(line.decode(errors="replace").rstrip())

    def find_all(self, pattern: str) -> list[re.Match[str]]:
        return [m for line in self.log if (m := re.search(pattern, line))]

    async def wait_log(self, pattern: str, timeout: float = TIMEOUT * 3) -> re.Match[str]:
        await wait_until(lambda: bool(self.find_all(pattern)) or self.proc.returncode is not None,
                         timeout, lambda: f"{pattern!r} not logged:\n" + "\n".join(self.log))
        found = self.find_all(pattern)
        assert found, f"{pattern!r} not logged:\n" + "\n".join(self.log)
        return found[-1]

    async def served_by(self, conn) -> int:
        """The pid of the worker that logged this connection's login."""
        port = conn.get_extra_info("sockname")[1]
        match = await self.wait_log(rf"\[worker \d+ pid (\d+)\] momiji: login from 127\.0\.0\.1 "
                                    rf"port {port}:")
        return int(match.group(1))

    def pids(self) -> set[int]:
        return {int(m.group(1)) for m in self.find_all(r"worker \d+ started \(pid (\d+)\)")}

    async def wait_exit(self, timeout: float = TIMEOUT * 3) -> int:
        code = await asyncio.wait_for(self.proc.wait(), timeout)
        await asyncio.wait_for(self._reader, TIMEOUT)
        return code


@contextlib.asynccontextmanager
async def workers(data: Path, *args: str, env_extra: dict[str, str] | None = None
                  ) -> AsyncIterator[Workers]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL")}
    env.update(TERM="dumb", **(env_extra or {}))
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "momiji_tui.cli", "serve", "--workers", "2", "--port", "0",
        "--data-dir", str(data), "--bot-delay", "0", "--bot-workers", "0", *args,
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT,
        env=env, start_new_session=True)
    server = Workers(proc)
    try:
        yield server
    finally:
        for group in (proc.pid, *server.pids()):  # the parent; each worker and its bot pool
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(group, signal.SIGKILL)
        if proc.returncode is None:
            await asyncio.wait_for(proc.wait(), TIMEOUT)


async def log_in_until(server: Workers, port: int, wanted: set[int], tries: int = 60) -> set[int]:
    """Guests log in (no session) until workers of every pid in ``wanted``
    have served one; the kernel spreads connections by their address and
    port, so this ends after a few tries. Returns the pids that served."""
    seen: set[int] = set()
    for _ in range(tries):
        conn = await open_connection(port, username="probe")
        seen.add(await server.served_by(conn))
        conn.abort()
        if wanted <= seen:
            return seen
    raise AssertionError(f"after {tries} logins only {seen} served, not all of {wanted}")


def group_members(pgid: int) -> list[int]:
    """The processes of process group ``pgid`` (a worker and its bot pool)."""
    members = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if os.getpgid(int(entry.name)) == pgid:
                    members.append(int(entry.name))
    return members


def hand_line(term) -> str:
    return next(line for line in term.text.splitlines() if "Hand " in line)


async def test_two_workers_serve_one_port_a_killed_worker_loses_no_game_and_sigterm_stops_all(
        tmp_path, clients):
    data = tmp_path / "served"
    async with workers(data, "--stop-countdown", "1", "--bot-workers", "1",
                       "--summary-every", "0.01") as server:  # a guest sweep every 0.6 s
        port = int((await server.wait_log(r"2 workers listening on 127\.0\.0\.1 port (\d+)")).group(1))
        first = server.pids()
        assert len(first) == 2
        for n in range(1, 4):  # old guest data, swept by worker 1 only (never both, racing)
            old_guest = data / "players" / f"guest-old{n}"
            old_guest.mkdir()
            os.utime(old_guest, (0, 0))
            await wait_until(lambda n=n: len(server.find_all("guests removed")) >= n)
        await wait_until(lambda: len(server.find_all("momiji: summary: ")) >= 12)
        assert len(server.find_all(r"\[worker 1 pid \d+\] momiji: guests removed: 1 guest")) == 3
        assert not server.find_all("cannot remove guest data")
        assert await log_in_until(server, port, first) == first  # both accept

        # A player on one worker starts a solo game.
        key = new_key()
        alice = await clients.terminal(port, username="alice", key=key)
        await alice.wait_for_text("Welcome, alice")
        victim = await server.served_by(alice.conn)
        await wait_until(lambda: len(group_members(victim)) > 1)  # its bot pool is up
        alice.send("n")
        await alice.wait_for_text("New game")
        alice.send(CTRL_S)
        await alice.wait_for_text("Your turn")
        hand = hand_line(alice)
        account = Identity.from_key(key.get_fingerprint("sha256"), "alice").account_id
        (save,) = (data / "players" / account / "games").glob("*.jsonl")
        events = save.read_text().count("\n")

        # Its worker dies; the parent starts another; the player comes back.
        os.kill(victim, signal.SIGKILL)
        await asyncio.wait_for(alice.conn.wait_closed(), TIMEOUT)  # the connection is lost
        await server.wait_log(rf"worker \d \(pid {victim}\) died: killed by SIGKILL")
        await wait_until(lambda: not group_members(victim))  # no orphaned bot process
        await wait_until(lambda: len(server.pids()) == 3, TIMEOUT, lambda: "\n".join(server.log))
        (new,) = server.pids() - first
        await server.wait_log(rf"\(pid {new}\) listening on port {port}")
        again = await clients.terminal(port, username="alice", key=key)
        await again.wait_for_text(f"Continue your last game ({save.stem})")
        again.send("c")
        await again.wait_for_text("Your turn")
        assert hand_line(again) == hand  # the same cards in hand: the same position
        assert save.read_text().count("\n") == events
        assert not list(data.rglob("*.damaged-*"))
        await log_in_until(server, port, {new})  # the new worker serves

        # SIGTERM: every worker warns, saves and ends its sessions; the parent exits 0.
        server.proc.send_signal(signal.SIGTERM)
        assert await again.wait_exit(TIMEOUT * 2) == 1
        assert SHUTDOWN in again.text
        assert await server.wait_exit() == 0
        live = first - {victim} | {new}
        for pid in live:
            assert server.find_all(rf"worker \d \(pid {pid}\) stopped: exit status 0")
            with pytest.raises(ProcessLookupError):
                os.kill(pid, 0)
        assert not server.find_all("Traceback")


async def test_workers_that_keep_dying_make_the_parent_give_up_with_status_1(tmp_path):
    async with workers(tmp_path / "served", env_extra={WORKER_EXIT_ENV: "3"}) as server:
        assert await server.wait_exit() == 1
    gave_up = server.find_all(r"workers keep dying: (\d+) exits within 60 s \(the last: worker \d, "
                              r"pid \d+, exit status 3\); giving up")
    assert gave_up and int(gave_up[0].group(1)) == RestartPolicy().max_deaths + 1
    assert len(server.find_all(r"died: exit status 3; a new worker \d starts in")) == 5
    assert not server.find_all("Traceback")


def test_restart_delay_doubles_and_the_policy_gives_up_after_too_many_deaths_in_a_minute():
    policy = RestartPolicy(max_deaths=3, window=60.0, first_delay=0.5, max_delay=1.5)
    assert [policy.died(t) for t in (0.0, 1.0, 2.0)] == [0.5, 1.0, 1.5]
    assert policy.died(3.0) is None  # the 4th within a minute
    later = RestartPolicy(max_deaths=3, window=60.0, first_delay=0.5)
    assert [later.died(t) for t in (0.0, 61.0, 122.0, 183.0)] == [0.5, 0.5, 0.5, 0.5]


def test_each_worker_gets_a_share_of_the_cores_for_its_bots_and_only_the_first_sweeps():
    roles = [WorkerRole(n, 2, lambda port: None) for n in (1, 2)]
    assert [r.bot_workers(2) for r in roles] == [1, 1]
    assert WorkerRole(1, 4, lambda port: None).bot_workers(2) == 1
    assert WorkerRole(1, 2, lambda port: None).bot_workers(16) == 8
    assert [r.sweeps_guests for r in roles] == [True, False]


def test_the_reserved_port_is_shared_by_reuse_port_listeners_and_a_taken_port_is_refused():
    reservation = reserve_port("127.0.0.1", 0)
    port = reservation.getsockname()[1]
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT):
            pass  # the listener, not the reservation, took it
        with pytest.raises(OSError):
            reserve_port("127.0.0.1", port)  # someone listens there: not shared silently
    finally:
        listener.close()
        reservation.close()


def test_a_port_another_server_listens_on_is_refused_before_any_worker_starts(tmp_path):
    with socket.socket() as taken:
        taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)  # even one that shares
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "momiji_tui.cli", "serve", "--workers", "2", "--port", str(port),
             "--data-dir", str(tmp_path / "served")], stdin=subprocess.DEVNULL, capture_output=True,
            text=True, timeout=TIMEOUT * 3, cwd=ROOT)
    assert result.returncode == 1
    assert f"cannot start the server on 127.0.0.1:{port}: [Errno 98] Address already in use" \
        in result.stderr
    assert "worker 1 started" not in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("value", ["0", "-1", "two"])
def test_workers_must_be_a_whole_number_of_at_least_one(value, capsys):
    with pytest.raises(SystemExit) as exit_info:
        build_parser().parse_args(["--workers", value])
    assert exit_info.value.code == 2
    assert "--workers" in capsys.readouterr().err


def test_workers_default_to_one_and_the_help_says_what_workers_share(capsys):
    assert build_parser().parse_args([]).workers == 1
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "players meet at a shared table only within one worker" in help_text
    assert "a game open in one worker is locked against the others" in help_text
    assert "with --database every worker and host shares one lobby" in help_text
