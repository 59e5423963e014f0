"""``momiji serve``: the command line, the real process (signals, host key,
colours), and one smoke test through the real OpenSSH client on a pty.

Every wait bounded; loopback only; data and HOME under the test's tmp_path.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import pty
import re
import shutil
import signal
import struct
import subprocess
import sys
import termios
from pathlib import Path

import asyncssh
import pyte
import pytest
from ssh_harness import TIMEOUT, new_key, open_connection, open_terminal, screen_text, wait_until

from momiji_tui.ssh.cli import build_parser, main_serve

ROOT = Path(__file__).resolve().parents[2]


# -- the command line -------------------------------------------------------------
def test_help_lists_every_option(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main_serve(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    for option in ("--host", "--port", "--host-key", "--auth", "--authorized-keys", "--max-sessions",
                   "--max-sessions-per-ip", "--idle-timeout", "--login-timeout", "--data-dir",
                   "--seat-wait", "--bot-workers"):
        assert option in out


@pytest.mark.parametrize("argv", [
    ["--port", "70000"], ["--port", "x"], ["--auth", "allowlist"], ["--auth", "password"],
    ["--auth", "allowlist", "--authorized-keys", "/nonexistent/keys"], ["--authorized-keys", "k"],
    ["--max-sessions", "0"], ["--max-sessions-per-ip", "-1"], ["--seat-wait", "-1"],
    ["--idle-timeout", "nan"], ["--login-timeout", "0"], ["--bot-workers", "-1"],
    ["--lobby-ttl", "0"], ["--lobby-ttl", "5"], ["--lobby-heartbeat", "1", "--lobby-ttl", "0.5"],
])
def test_bad_arguments_are_refused_before_anything_starts(argv, capsys, isolated_dirs):
    with pytest.raises(SystemExit) as exit_info:
        main_serve(argv)
    assert exit_info.value.code == 2
    assert "momiji serve: error:" in capsys.readouterr().err
    assert not isolated_dirs.exists()  # no host key, nothing written


def test_defaults_are_safe():
    args = build_parser().parse_args([])
    assert args.host == "127.0.0.1" and args.port == 2222 and args.auth == "open"
    assert args.max_sessions == 100 and args.max_sessions_per_ip == 4
    assert args.seat_wait == 120 and args.idle_timeout == 900 and args.login_timeout == 10


def test_parsing_does_not_import_textual():
    code = ("import sys\nfrom momiji_tui.ssh.cli import build_parser\nbuild_parser().parse_args([])\n"
            "assert 'textual' not in sys.modules, 'textual imported'\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                            cwd=ROOT)
    assert result.returncode == 0, result.stderr


# -- the process ------------------------------------------------------------------
class ServeProcess:
    """``momiji serve`` in a child process; its log is read as it comes."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.log: list[str] = []
        self._reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        assert self.proc.stderr is not None
        while line := await self.proc.stderr.readline():
            self.log.append(line.decode(errors="replace").rstrip())

    def find(self, pattern: str) -> re.Match[str] | None:
        for line in self.log:
            match = re.search(pattern, line)
            if match:
                return match
        return None

    async def wait_log(self, pattern: str) -> re.Match[str]:
        await wait_until(lambda: self.find(pattern) is not None or self.proc.returncode is not None,
                         TIMEOUT * 3, lambda: "\n".join(self.log))
        match = self.find(pattern)
        assert match is not None, "\n".join(self.log)
        return match

    async def stop(self, sig: int = signal.SIGTERM) -> int:
        if self.proc.returncode is None:
            self.proc.send_signal(sig)
        code = await asyncio.wait_for(self.proc.wait(), TIMEOUT * 2)
        await asyncio.wait_for(self._reader, TIMEOUT)
        return code


@contextlib.asynccontextmanager
async def serve(data: Path, *args: str):
    env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL")}
    env["TERM"] = "dumb"  # colours must not follow the server's TERM
    if "--bot-workers" not in args:
        args = ("--bot-workers", "0", *args)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "momiji_tui.cli", "serve", "--port", "0", "--data-dir", str(data),
        "--bot-delay", "0", *args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, cwd=ROOT, env=env)
    server = ServeProcess(proc)
    try:
        yield server
    finally:
        if proc.returncode is None:
            proc.kill()
            await asyncio.wait_for(proc.wait(), TIMEOUT)


async def test_serve_process_hosts_the_lobby_and_stops_cleanly_on_signals(tmp_path, clients):
    data = tmp_path / "served"
    async with serve(data, "--bot-workers", "1") as server:
        port = int((await server.wait_log(r"listening on 127\.0\.0\.1 port (\d+)")).group(1))
        await server.wait_log(r"bots think in 1 worker process \(pid \d+\)$")
        fingerprint = (await server.wait_log(r"host key fingerprint: (SHA256:\S+)")).group(1)
        await server.wait_log(r"ssh -p \d+ 127\.0\.0\.1")
        term = await clients.terminal(port, username="alice", key=new_key())
        await term.wait_for_text("Welcome, alice")
        assert b"38;5;" in term.raw  # the client's xterm-256color decides, not the server's TERM
        assert await server.stop(signal.SIGTERM) == 0
        assert await term.wait_exit() == 1
        assert b"shutting down" in term.raw
    key_file = data / "ssh_host_ed25519_key"
    assert key_file.stat().st_mode & 0o777 == 0o600
    assert asyncssh.read_private_key(key_file).get_fingerprint("sha256") == fingerprint

    # Restarted: the same host key; SIGINT stops it as cleanly.
    async with serve(data) as server:
        assert (await server.wait_log(r"host key fingerprint: (SHA256:\S+)")).group(1) == fingerprint
        await server.wait_log(r"listening on")
        assert await server.stop(signal.SIGINT) == 0
        assert server.find("Traceback") is None


def test_a_signal_while_the_server_starts_still_stops_it_cleanly(tmp_path):
    """A SIGINT delivered at any moment after start-up begins (here: inside start_game_server,
    injected at the call) ends the process with 0 after a clean close, never 130 from
    KeyboardInterrupt. CI once sent SIGINT just after "listening on", before the handlers were in."""
    script = (
        "import os, signal, sys\n"
        "import momiji_tui.ssh as ssh\n"
        "ssh.prepare_environment()\n"
        "ssh.prepare_environment = lambda color_system: None  # done above, before Textual\n"
        "import momiji_tui.ssh.game_server as gs\n"
        "real = gs.start_game_server\n"
        "async def start_and_interrupt(**kwargs):\n"
        "    server = await real(**kwargs)\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "    return server\n"
        "gs.start_game_server = start_and_interrupt\n"
        "from momiji_tui.ssh.cli import main_serve\n"
        "sys.exit(main_serve(sys.argv[1:]))\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL")}
    done = subprocess.run(
        [sys.executable, "-c", script, "--port", "0", "--data-dir", str(tmp_path / "served"),
         "--bot-workers", "0"], stdin=subprocess.DEVNULL, capture_output=True, text=True,
        cwd=ROOT, env=env, timeout=TIMEOUT * 4)
    assert done.returncode == 0, done.stderr
    assert "received SIGINT" in done.stderr and "stopped" in done.stderr
    assert "Traceback" not in done.stderr


async def test_a_busy_port_is_a_clear_error(tmp_path):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL")}
        result = await asyncio.to_thread(
            subprocess.run, [sys.executable, "-m", "momiji_tui.cli", "serve", "--port", str(port),
                             "--data-dir", str(tmp_path / "d")],
            capture_output=True, text=True, timeout=TIMEOUT * 3, cwd=ROOT, env=env)
    assert result.returncode == 1
    assert "cannot start the server" in result.stderr and "Traceback" not in result.stderr


# -- the real OpenSSH client --------------------------------------------------------
class PtyClient:
    """The ``ssh`` binary on a pseudo-terminal, its output rendered by pyte."""

    def __init__(self, argv: list[str], size: tuple[int, int] = (80, 24)) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, start_new_session=True,
                                     close_fds=True)
        os.close(slave)
        self.master = master
        self.screen = pyte.Screen(*size)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()
        self.eof = asyncio.Event()
        asyncio.get_running_loop().add_reader(master, self._readable)

    def _readable(self) -> None:
        try:
            data = os.read(self.master, 65536)
        except OSError:  # EIO: the child closed the terminal
            data = b""
        if not data:
            asyncio.get_running_loop().remove_reader(self.master)
            self.eof.set()
            return
        self.raw += data
        self.stream.feed(data)

    @property
    def text(self) -> str:
        return screen_text(self.screen)

    async def wait_for_text(self, text: str) -> None:
        await wait_until(lambda: text in self.text, TIMEOUT, lambda: f"{text!r} not on screen:\n{self.text}")

    def send(self, data: bytes) -> None:
        os.write(self.master, data)

    async def wait_exit(self) -> int:
        code = await asyncio.wait_for(asyncio.to_thread(self.proc.wait), TIMEOUT)
        await asyncio.wait_for(self.eof.wait(), TIMEOUT)
        return code

    def close(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            asyncio.get_running_loop().remove_reader(self.master)
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(TIMEOUT)
        with contextlib.suppress(OSError):
            os.close(self.master)


@pytest.mark.skipif(shutil.which("ssh") is None, reason="no OpenSSH client (ssh) on this machine")
async def test_smoke_with_the_real_openssh_client(tmp_path):
    key = new_key()
    key_path = tmp_path / "id_momiji"
    key_path.write_bytes(key.export_private_key("openssh"))
    key_path.chmod(0o600)
    async with serve(tmp_path / "served") as server:
        port = int((await server.wait_log(r"listening on 127\.0\.0\.1 port (\d+)")).group(1))
        base = ["ssh", "-F", "/dev/null", "-tt", "-p", str(port), "-o", "StrictHostKeyChecking=no",
                "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR", "-o", "IdentityAgent=none",
                "-o", "ConnectTimeout=20"]
        client = PtyClient([*base, "-i", str(key_path), "-o", "IdentitiesOnly=yes", "alice@127.0.0.1"])
        try:
            await client.wait_for_text("Welcome, alice")
            await client.wait_for_text("kept under your key SHA256:")
            client.send(b"j")
            await client.wait_for_text("No table is waiting")
            client.send(b"\x1b")  # a lone Esc, as a person types it
            await client.wait_for_text("Welcome, alice")
            client.send(b"q")
            assert await client.wait_exit() == 0
        finally:
            client.close()
        guest = PtyClient([*base, "-o", "PubkeyAuthentication=no", "-o",
                           "PreferredAuthentications=keyboard-interactive", "gus@127.0.0.1"])
        try:
            await guest.wait_for_text("Welcome, gus")
            await guest.wait_for_text("a guest cannot")
            guest.send(b"\x11")  # ctrl+q
            assert await guest.wait_exit() == 0
        finally:
            guest.close()
        assert await server.stop() == 0


async def test_exec_is_refused_by_the_serve_process(tmp_path):
    async with serve(tmp_path / "served") as server:
        port = int((await server.wait_log(r"listening on 127\.0\.0\.1 port (\d+)")).group(1))
        conn = await open_connection(port, username="x", key=new_key())
        async with conn:
            with pytest.raises(asyncssh.ChannelOpenError):
                await asyncio.wait_for(conn.run("id", check=False), TIMEOUT)
            term = await open_terminal(conn)
            await term.wait_for_text("Welcome, x")
            await term.close()
        assert await server.stop() == 0
