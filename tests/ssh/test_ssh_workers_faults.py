"""``momiji serve --workers N`` met with faults at the call: a fork the
system refuses (EAGAIN: too many processes), a number of workers no host
could fork. Refused in words, never a traceback, never a worker left behind."""

from __future__ import annotations

import argparse
import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest
from ssh_harness import TIMEOUT

from momiji_tui.ssh.cli import build_parser
from momiji_tui.ssh.worker_role import RestartPolicy
from momiji_tui.ssh.workers import _Parent

ROOT = Path(__file__).resolve().parents[2]

# The parent of --workers 2 in a child process; its second fork is refused
# (injected at the call). The worker it did start exits 0 at once.
REFUSED_FORK = """
import argparse, errno, logging, os, sys
from pathlib import Path
from momiji_tui.ssh import workers
real_fork, forks = os.fork, []
def fork():
    forks.append(1)
    if len(forks) == 2:
        raise OSError(errno.EAGAIN, "Resource temporarily unavailable")
    return real_fork()
workers.os.fork = fork
logging.basicConfig(level="INFO", stream=sys.stderr, format="%(message)s")
args = argparse.Namespace(workers=2, host="127.0.0.1", port=0, host_key=None, stop_countdown=0.0)
status = workers.serve_workers(args, Path(sys.argv[1]), lambda args, role: 0)
print("forks", len(forks), file=sys.stderr)
sys.exit(status)
"""


def test_a_fork_the_system_refuses_at_start_stops_the_started_workers_and_exits_1(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL")}
    result = subprocess.run([sys.executable, "-c", REFUSED_FORK, str(tmp_path / "served")],
                            stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=TIMEOUT * 3,
                            cwd=ROOT, env=env, start_new_session=True)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 1
    assert "cannot start worker 2: [Errno 11] Resource temporarily unavailable; stopping the others" \
        in result.stderr
    assert "forks 2" in result.stderr  # no retry loop


@pytest.mark.parametrize("value", ["65", "100000"])
def test_more_workers_than_any_host_should_fork_is_a_usage_error(value, capsys):
    with pytest.raises(SystemExit) as exit_info:
        build_parser().parse_args(["--workers", value])
    assert exit_info.value.code == 2
    assert "argument --workers: at most 64" in capsys.readouterr().err
    assert build_parser().parse_args(["--workers", "64"]).workers == 64


def test_a_refused_restart_counts_as_a_death_and_too_many_give_up(caplog):
    args = argparse.Namespace(workers=2, host="127.0.0.1", port=0, stop_countdown=0.0)
    parent = _Parent(args, lambda a, r: 0, None, policy=RestartPolicy(max_deaths=1, window=60.0))
    try:
        parent.running = True
        refused = OSError(errno.EAGAIN, "Resource temporarily unavailable")
        parent._fork_refused(2, refused)
        assert 2 in parent.due and parent.status == 0 and not parent.stopping
        parent._fork_refused(2, refused)
        assert parent.status == 1 and parent.stopping and not parent.due
    finally:
        for fd in (parent.signal_read, parent.signal_write, parent.ready_read, parent.ready_write):
            os.close(fd)
    assert "cannot start worker 2: [Errno 11] Resource temporarily unavailable; trying again in" in caplog.text
