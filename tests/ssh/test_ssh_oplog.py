"""The operator's log, one line per event with the address.

Every line about a client reads ``<event> from <ip> port <port>[: detail]``
on the ``momiji`` logger, so fail2ban can match it (SERVER "The server's log").
"""

from __future__ import annotations

import asyncio
import logging
import re

import asyncssh
import pytest
from ssh_harness import TIMEOUT, new_key, open_connection, open_terminal, wait_until

from momiji_tui.ssh.throttle import Throttle, ThrottleLimits

LINE = re.compile(r"^(?P<event>[a-z ]+) from (?P<ip>[0-9a-f.:]+) port (?P<port>\d+)(?:: (?P<detail>.*))?$")
FAIL2BAN = re.compile(r"momiji: (?:auth failed|no login|refused username) from (?P<host>\S+) port \d+")


@pytest.fixture
def oplog(caplog):
    caplog.set_level(logging.DEBUG, logger="momiji")

    def lines(event: str | None = None) -> list[re.Match[str]]:
        found = []
        for record in caplog.records:
            if record.name != "momiji":
                continue
            match = LINE.match(record.getMessage())
            if match and (event is None or match["event"] == event):
                found.append(match)
        return found

    return lines


async def wait_line(oplog, event: str) -> re.Match[str]:
    await wait_until(lambda: bool(oplog(event)), TIMEOUT, lambda: f"no {event!r} line")
    return oplog(event)[-1]


async def test_login_session_and_disconnect_lines(hosted, clients, oplog):
    key = new_key()
    term = await clients.terminal(hosted.port, username="alice", key=key)
    await term.wait_for_text("who=alice")
    login = await wait_line(oplog, "login")
    assert login["ip"] == "127.0.0.1"
    assert key.get_fingerprint("sha256") in login["detail"] and "'alice'" in login["detail"]
    assert (await wait_line(oplog, "session start"))["ip"] == "127.0.0.1"
    term.send(b"\x11")
    await term.wait_exit()
    assert "quit" in (await wait_line(oplog, "session end"))["detail"]
    await term.close()
    await wait_line(oplog, "disconnect")


async def test_a_failed_login_is_logged_with_its_reason(start, oplog):
    hosted = await start(auth="keys")
    with pytest.raises(asyncssh.PermissionDenied):
        await open_connection(hosted.port, username="mallory")  # no key: no guests here
    line = await wait_line(oplog, "auth failed")
    assert line["ip"] == "127.0.0.1" and line["detail"].startswith("no key accepted")


async def test_a_key_not_in_the_allowlist_is_named(start, tmp_path, oplog):
    allowed = new_key()
    keys = tmp_path / "authorized_keys"
    keys.write_bytes(allowed.export_public_key())
    hosted = await start(auth="allowlist", authorized_keys=keys)
    other = new_key()
    with pytest.raises(asyncssh.PermissionDenied):
        await open_connection(hosted.port, key=other)
    line = await wait_line(oplog, "auth failed")
    assert f"key {other.get_fingerprint('sha256')} not in the allowlist" in line["detail"]


async def test_a_refused_username_is_logged(hosted, oplog):
    with pytest.raises((asyncssh.Error, ValueError)):
        await open_connection(hosted.port, username="x" * 1100, key=new_key())
    line = await wait_line(oplog, "refused username")
    assert line["ip"] == "127.0.0.1"


async def test_refused_requests_are_logged(hosted, clients, oplog):
    conn = await clients.connect(hosted.port, key=new_key())
    with pytest.raises(asyncssh.ChannelOpenError):
        await conn.create_process("ls /", encoding=None)
    with pytest.raises(asyncssh.ChannelOpenError):
        await conn.create_process(subsystem="sftp", encoding=None)
    with pytest.raises(asyncssh.ChannelOpenError):
        await conn.open_connection("127.0.0.1", hosted.port)
    with pytest.raises(asyncssh.ChannelListenError):
        await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 1)
    proc = await conn.create_process(encoding=None)  # no pty
    await asyncio.wait_for(proc.wait_closed(), TIMEOUT)
    await wait_until(lambda: len(oplog("refused request")) >= 5, TIMEOUT,
                     lambda: str([m.string for m in oplog()]))
    details = " | ".join(m["detail"] for m in oplog("refused request"))
    for what in ("exec", "subsystem 'sftp'", "port forwarding to 127.0.0.1",
                 "remote port forwarding", "session without a pty"):
        assert what in details


async def test_an_idle_socket_before_login_is_logged(start, oplog):
    hosted = await start(login_timeout=0.2)
    reader, writer = await asyncio.open_connection("127.0.0.1", hosted.port)
    try:
        await asyncio.wait_for(reader.read(), TIMEOUT)  # the server hangs up
    finally:
        writer.close()
    line = await wait_line(oplog, "no login")
    assert line["ip"] == "127.0.0.1" and "Login timeout" in line["detail"]


async def test_throttling_is_logged_and_failed_logins_lock_out_that_address(start, oplog):
    hosted = await start(auth="keys", throttle=Throttle(ThrottleLimits(max_failures=2)))
    for _ in range(2):
        with pytest.raises(asyncssh.PermissionDenied):
            await open_connection(hosted.port, username="mallory")
    await wait_until(lambda: len(oplog("auth failed")) == 2)
    with pytest.raises((asyncssh.Error, OSError)):
        await open_connection(hosted.port, username="mallory", key=new_key())
    line = await wait_line(oplog, "throttled")
    assert line["detail"] == "too many failed logins from this address"
    other = await asyncio.wait_for(asyncssh.connect(
        "127.0.0.1", hosted.port, local_addr=("127.0.0.2", 0), username="ok", known_hosts=None,
        agent_path=None, config=[], client_keys=[new_key()], kbdint_auth=False), TIMEOUT)
    other.close()


def test_every_client_line_matches_the_documented_fail2ban_filter(caplog):
    from momiji_tui.ssh.oplog import client_event

    caplog.set_level(logging.INFO, logger="momiji")
    client_event("auth failed", ("203.0.113.7", 5678), "no key accepted\r\nforged from 1.1.1.1")
    [record] = caplog.records
    text = f"2026-01-01 00:00:00,000 WARNING {record.name}: {record.getMessage()}"
    assert "\n" not in text and "\r" not in text  # a client string cannot forge a line
    match = FAIL2BAN.search(text)
    assert match and match["host"] == "203.0.113.7"


async def test_tables_starting_and_ending_are_logged(tmp_path, caplog):
    from test_lobby_registry import start_two

    from momiji_tui.session.lobby import Lobby

    caplog.set_level(logging.INFO, logger="momiji")
    lobby = Lobby(tmp_path)
    _, _, table = start_two(lobby)
    started = [r.getMessage() for r in caplog.records if r.getMessage().startswith("table started")]
    assert started == [f"table started: game {table.game_id}, seats key-alice, key-bob"]
    for _ in range(2000):
        if table.finished:
            break
        legal = table.legal(table.current)
        table.submit(legal[0])
    assert table.finished
    assert f"table ended: game {table.game_id}, finished" in [r.getMessage() for r in caplog.records]
    lobby.close()


def documented_fail2ban_filter() -> re.Pattern[str]:
    """The ``failregex`` of SERVER "The server's log", with fail2ban's
    ``<HOST>`` as a named group."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "SERVER.md").read_text()
    [failregex] = re.findall(r"^failregex = (.+)$", text, re.MULTILINE)
    return re.compile(failregex.replace("<HOST>", r"(?P<host>\S+)"))


async def test_the_documented_fail2ban_filter_matches_only_what_a_client_did(start, caplog):
    """Real log lines, formatted as ``momiji serve`` writes them: a failed
    login (127.0.0.3), a socket that never logged in (127.0.0.1) and a
    refused username (127.0.0.4) match, each with its own address; an
    innocent client refused because others crowd the door (random early
    drop, 127.0.0.2) and a player's own lines (127.0.0.5) never do."""
    import random

    from momiji_tui.ssh.worker_role import LOG_FORMAT

    caplog.set_level(logging.DEBUG, logger="momiji")
    door = Throttle(ThrottleLimits(start=1, rate=100, full=10, per_source=5), rng=random.Random(39))
    hosted = await start(auth="keys", login_timeout=0.5, throttle=door)

    async def connect(source: str, **options):
        return await asyncio.wait_for(asyncssh.connect(
            "127.0.0.1", hosted.port, local_addr=(source, 0), known_hosts=None, agent_path=None, config=[],
            kbdint_auth=False, password_auth=False, **options), TIMEOUT)

    reader, writer = await asyncio.open_connection("127.0.0.1", hosted.port)  # never logs in
    await wait_until(lambda: door.unauthenticated == 1)
    with pytest.raises((asyncssh.Error, OSError)):
        await connect("127.0.0.2", username="innocent", client_keys=[new_key()])
    await asyncio.wait_for(reader.read(), TIMEOUT)  # the login timeout hangs up on the idle socket
    writer.close()
    await wait_until(lambda: door.unauthenticated == 0)
    with pytest.raises(asyncssh.PermissionDenied):
        await connect("127.0.0.3", username="mallory", client_keys=[])
    with pytest.raises((asyncssh.Error, ValueError)):
        await connect("127.0.0.4", username="x" * 1100, client_keys=[new_key()])
    conn = await connect("127.0.0.5", username="alice", client_keys=[new_key()])
    term = await open_terminal(conn)
    await term.wait_for_text("who=alice")
    term.send(b"\x11")
    await term.wait_exit()
    await term.close()
    conn.close()

    formatter = logging.Formatter(LOG_FORMAT)

    def lines() -> list[str]:
        out = []
        for record in caplog.records:
            if record.name == "momiji":
                record.worker = "worker 1"
                out.append(formatter.format(record))
        return out

    await wait_until(lambda: any("disconnect from 127.0.0.5" in line for line in lines()), TIMEOUT,
                     lambda: "\n".join(lines()))
    text = "\n".join(lines())
    assert "random early drop" in text and "throttled from 127.0.0.2" in text  # the lines are there
    fail2ban = documented_fail2ban_filter()
    matched = {m["host"]: line for line in lines() if (m := fail2ban.search(line))}
    assert set(matched) == {"127.0.0.1", "127.0.0.3", "127.0.0.4"}, text
    assert "no login" in matched["127.0.0.1"] and "auth failed" in matched["127.0.0.3"]
    assert "refused username" in matched["127.0.0.4"]
