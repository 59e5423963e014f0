"""A throw-away PostgreSQL cluster for the database tests (issue 15).

Started from the machine's own packages (``initdb``/``pg_ctl`` on PATH, else
the newest ``/usr/lib/postgresql/*/bin``): a temp data dir, a free loopback
port, the unix socket in the temp dir, ``fsync=off`` (about 2 s to start).
PostgreSQL refuses to run as root, so when we are root every server command
runs as ``postgres`` through ``runuser`` (the temp dir is chowned to it).

TCP connections need a password (scram), so a test can also try a wrong one;
the socket is ``trust``. Nothing here opens a connection beyond loopback, and
no real database is ever used: the cluster lives and dies with the session.

Without the binaries the tests skip with a reason; with
``MOMIJI_REQUIRE_POSTGRES=1`` (CI) they fail instead.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

REQUIRE_ENV = "MOMIJI_REQUIRE_POSTGRES"
PASSWORD = "momiji-test-password"
USER = "postgres"


class PostgresMissing(RuntimeError):
    """The PostgreSQL server binaries are not on this machine."""


def required() -> bool:
    """True when the database tests must run (CI): missing binaries then fail."""
    return os.environ.get(REQUIRE_ENV, "") not in ("", "0")


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
                          "install the 'postgresql' package to run the database tests")


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class PgCluster:
    """A running throw-away cluster: ``url(dbname)`` gives a connection URL."""

    bindir: Path
    root: Path
    port: int
    as_postgres: bool

    @property
    def data(self) -> Path:
        return self.root / "data"

    def url(self, dbname: str = "postgres", password: str = PASSWORD) -> str:
        return f"postgresql://{USER}:{password}@127.0.0.1:{self.port}/{dbname}"

    def _run(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        cmd = [str(self.bindir / args[0]), *args[1:]]
        if self.as_postgres:
            cmd = ["runuser", "-u", USER, "--", *cmd]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=self.root)

    def stop(self) -> None:
        """Stop the server at once (``-m immediate``) and remove its files."""
        try:
            if (self.data / "postmaster.pid").exists():
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "-t", "30", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


def start_cluster() -> PgCluster:
    """initdb + pg_ctl start on a fresh temp dir. Raises :class:`PostgresMissing`
    without the binaries, ``RuntimeError`` (with the server's log) if it does
    not start."""
    bindir = find_bindir()
    as_postgres = os.geteuid() == 0
    root = Path(tempfile.mkdtemp(prefix="momiji-pg-"))
    if as_postgres:
        entry = pwd.getpwnam(USER)
        os.chown(root, entry.pw_uid, entry.pw_gid)
    pwfile = root / "pwfile"
    pwfile.write_text(PASSWORD + "\n")
    if as_postgres:
        os.chown(pwfile, pwd.getpwnam(USER).pw_uid, -1)
    cluster = PgCluster(bindir, root, free_port(), as_postgres)
    try:
        init = cluster._run("initdb", "-D", str(cluster.data), "-U", USER, f"--pwfile={pwfile}",
                            "--auth-local=trust", "--auth-host=scram-sha-256", "--no-sync", "-E", "UTF8",
                            "--locale=C")
        if init.returncode != 0:
            raise RuntimeError(f"initdb failed: {init.stdout}{init.stderr}")
        for _attempt in range(3):  # the free port may be taken between free_port() and the start
            options = (f"-c listen_addresses=127.0.0.1 -p {cluster.port} -k {root} -c fsync=off "
                       "-c synchronous_commit=off -c full_page_writes=off")
            start = cluster._run("pg_ctl", "-D", str(cluster.data), "-l", str(root / "log"), "-w", "-t", "30",
                                 "-o", options, "start")
            if start.returncode == 0:
                return cluster
            cluster.port = free_port()
        log = (root / "log").read_text() if (root / "log").exists() else ""
        raise RuntimeError(f"pg_ctl start failed: {start.stdout}{start.stderr}{log[-2000:]}")
    except BaseException:
        cluster.stop()
        raise
