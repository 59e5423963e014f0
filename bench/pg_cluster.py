"""A throw-away PostgreSQL for ``bench/bench_ssh.py --database`` and the
database tests (``tests/pg_server.py`` builds on this module: the
repository root is on pytest's path).

Started from the machine's own packages (``initdb``/``pg_ctl`` on PATH, else
the newest ``/usr/lib/postgresql/*/bin``; none: :class:`PostgresMissing`): a
temp data dir, a free loopback port, the unix socket in the temp dir,
``fsync=off``. PostgreSQL refuses to run as root, so as root every server
command runs as ``postgres`` through ``runuser``. TCP needs the password
(scram); the socket is ``trust``.

Nothing is kept: ``with cluster() as pg:`` stops the server and removes its
files on the way out, an error included.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit
from typing import NamedTuple

USER = "postgres"
PASSWORD = "momiji-bench-password"


class PostgresMissing(RuntimeError):
    """The PostgreSQL server binaries are not on this machine."""


def find_bindir() -> Path:
    """The folder holding ``initdb`` and ``pg_ctl``. Raises :class:`PostgresMissing`."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(os.path.realpath(found)).parent
    dirs = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda d: int(Path(d).parent.name or 0))
    for folder in reversed(dirs):
        if (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists():
            return Path(folder)
    raise PostgresMissing("PostgreSQL is not installed (no initdb/pg_ctl on PATH or in /usr/lib/postgresql/*/bin); "
                          "install the 'postgresql' package")


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Cluster(NamedTuple):
    url: str
    """``postgresql://postgres:…@127.0.0.1:PORT/postgres`` (a password over TCP)."""
    data: Path

    def pid(self) -> int:
        """The postmaster's pid (its backends are its children)."""
        return int((self.data / "postmaster.pid").read_text().split()[0])

    def stop(self, mode: str = "fast") -> None:
        """``pg_ctl stop -m mode`` (an operator's restart, or a crash with
        ``immediate``); :meth:`start` starts it again. Raises ``RuntimeError``."""
        done = _pg(self.data.parent, "pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "30", "stop")
        if done.returncode != 0:
            raise RuntimeError(f"pg_ctl stop failed: {done.stdout}{done.stderr}")

    def start(self) -> None:
        """Start the stopped cluster again on its port. Raises ``RuntimeError``."""
        port = urlsplit(self.url).port
        assert port is not None
        done = _start(self.data.parent, port)
        if done.returncode != 0:
            raise RuntimeError(f"pg_ctl start failed: {done.stdout}{done.stderr}")

    def log(self) -> str:
        """The server's log so far."""
        path = self.data.parent / "log"
        return path.read_text(errors="replace") if path.exists() else ""


def _pg(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run a PostgreSQL program (as ``postgres`` when we are root) in ``root``."""
    cmd = [str(find_bindir() / args[0]), *args[1:]]
    if os.geteuid() == 0:
        cmd = ["runuser", "-u", USER, "--", *cmd]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60, cwd=root)


def _start(root: Path, port: int) -> subprocess.CompletedProcess[str]:
    return _pg(root, "pg_ctl", "-D", str(root / "data"), "-l", str(root / "log"), "-w", "-t", "30", "-o",
               f"-c listen_addresses=127.0.0.1 -p {port} -k {root} -c fsync=off "
               "-c synchronous_commit=off -c full_page_writes=off", "start")


@contextmanager
def cluster(*, password: str = PASSWORD, prefix: str = "momiji-bench-pg-") -> Iterator[Cluster]:
    """A running cluster whose ``USER`` logs in over TCP with ``password``,
    in a temp dir named ``prefix…``; stopped (``-m immediate``) and its files
    removed when the block ends. Raises :class:`PostgresMissing` without the
    binaries, ``RuntimeError`` (with the server's log) if it does not start."""
    find_bindir()
    as_postgres = os.geteuid() == 0
    root = Path(tempfile.mkdtemp(prefix=prefix))
    data = root / "data"

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return _pg(root, *args)

    try:
        pwfile = root / "pwfile"
        pwfile.write_text(password + "\n")
        if as_postgres:
            entry = pwd.getpwnam(USER)
            os.chown(root, entry.pw_uid, entry.pw_gid)
            os.chown(pwfile, entry.pw_uid, -1)
        init = run("initdb", "-D", str(data), "-U", USER, f"--pwfile={pwfile}", "--auth-local=trust",
                   "--auth-host=scram-sha-256", "--no-sync", "-E", "UTF8", "--locale=C")
        if init.returncode != 0:
            raise RuntimeError(f"initdb failed: {init.stdout}{init.stderr}")
        for _attempt in range(3):  # the free port may be taken before the start
            port = free_port()
            start = _start(root, port)
            if start.returncode == 0:
                break
        else:
            log = (root / "log").read_text() if (root / "log").exists() else ""
            raise RuntimeError(f"pg_ctl start failed: {start.stdout}{start.stderr}{log[-2000:]}")
        yield Cluster(f"postgresql://{USER}:{password}@127.0.0.1:{port}/postgres", data)
    finally:
        try:
            if (data / "postmaster.pid").exists():
                run("pg_ctl", "-D", str(data), "-m", "immediate", "-w", "-t", "30", "stop")
        finally:
            shutil.rmtree(root, ignore_errors=True)
