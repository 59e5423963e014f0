"""``momiji serve --workers N --database URL`` with a database that cannot be
used (SERVER "Playing on a database (PostgreSQL)": *one line in the log and exit status
1 (the server does not start)*). The parent checks the database before it
forks, as it checks the data dir and the host key; before, every worker
failed on its own and was replaced until the parent gave up (20 log lines:
6 worker errors, restarts, "workers keep dying … giving up")."""

from __future__ import annotations

import logging
import os

from momiji_tui import ssh
from momiji_tui.ssh import cli, workers
from momiji_tui.ssh.worker_role import LOG_FORMAT


async def _unusable(url: str) -> None:
    cli.log.error("Could not connect to the database at 127.0.0.1:5432/momiji: Connection refused.")
    return None


def test_workers_with_an_unusable_database_start_no_worker_and_exit_1(tmp_path, monkeypatch, caplog):
    forked: list[object] = []
    monkeypatch.setattr(ssh, "prepare_environment", lambda color_system: None)
    monkeypatch.setattr(cli, "_open_database", _unusable)  # the fault, injected at the call
    monkeypatch.setattr(workers, "serve_workers", lambda *a: forked.append(a) or 0)
    umask = os.umask(0o022)
    try:
        status = cli.main_serve(["--workers", "2", "--port", "0", "--data-dir", str(tmp_path / "data"),
                                 "--database", "postgresql://momiji@127.0.0.1:5432/momiji"])
    finally:
        os.umask(umask)
    assert status == 1
    assert forked == [], "the workers were started on a database that cannot be used"
    errors = [r for r in caplog.records if r.levelname == "ERROR"]
    assert [r.getMessage() for r in errors] == [
        "Could not connect to the database at 127.0.0.1:5432/momiji: Connection refused."]
    line = logging.Formatter(LOG_FORMAT).format(errors[0])  # the parent's log format takes the line
    assert "[parent pid" in line and line.endswith("Connection refused.")
