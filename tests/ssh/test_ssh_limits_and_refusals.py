"""What the server refuses: side channels, sessions over the limits, slow logins."""

from __future__ import annotations

import asyncio

import asyncssh
import pytest
from ssh_harness import TIMEOUT, new_key, open_connection, open_terminal, wait_until


async def test_exec_subsystem_sftp_and_forwarding_are_refused(hosted, clients):
    conn = await clients.connect(hosted.port, key=new_key())
    with pytest.raises(asyncssh.ChannelOpenError):
        await conn.create_process("ls /", encoding=None)
    with pytest.raises(asyncssh.ChannelOpenError):
        await conn.create_process("ls /", term_type="xterm", encoding=None)
    with pytest.raises(asyncssh.ChannelOpenError):
        await conn.create_process(subsystem="anything", encoding=None)
    with pytest.raises(asyncssh.ChannelOpenError):
        await conn.start_sftp_client()
    with pytest.raises(asyncssh.ChannelOpenError):
        await conn.open_connection("127.0.0.1", hosted.port)  # ssh -L
    with pytest.raises(asyncssh.ChannelOpenError):
        await conn.open_unix_connection("/tmp/momiji-test.sock")
    with pytest.raises(asyncssh.ChannelListenError):
        await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 1)  # ssh -R
    await hosted.wait_sessions(0)
    assert hosted.apps == [] and hosted.ended == []


async def test_session_without_pty_gets_a_message_and_status_1(hosted, clients):
    conn = await clients.connect(hosted.port)
    proc = await conn.create_process(encoding=None)
    message = await asyncio.wait_for(proc.stderr.read(), TIMEOUT)
    await asyncio.wait_for(proc.wait_closed(), TIMEOUT)
    assert b"interactive terminal" in message
    assert proc.exit_status == 1
    await hosted.wait_sessions(0)
    assert hosted.apps == [] and hosted.ended == []


async def test_total_session_limit(start, clients):
    hosted = await start(max_sessions=2, max_sessions_per_ip=10)
    first = await clients.terminal(hosted.port, username="one")
    await clients.terminal(hosted.port, username="two")
    conn = await clients.connect(hosted.port, username="three")
    with pytest.raises(asyncssh.ChannelOpenError, match="Server full"):
        await open_terminal(conn)
    await first.wait_for_text("who=one")
    first.send(b"\x11")
    assert await first.wait_exit() == 0
    await hosted.wait_sessions(1)
    term = await open_terminal(conn)  # the slot is free again
    await term.wait_for_text("who=three")
    await term.close()


async def test_per_address_session_limit(start, clients):
    hosted = await start(max_sessions_per_ip=1)
    await clients.terminal(hosted.port, username="one")
    conn = await clients.connect(hosted.port, username="two")
    with pytest.raises(asyncssh.ChannelOpenError, match="your address"):
        await open_terminal(conn)
    assert hosted.handle.session_count == 1


async def test_connection_limit(start, clients):
    hosted = await start(max_connections=2)
    await clients.connect(hosted.port)
    await clients.connect(hosted.port)
    with pytest.raises(asyncssh.DisconnectError):
        await open_connection(hosted.port)


async def test_idle_session_is_closed_with_a_message(start, clients):
    hosted = await start(idle_timeout=0.3)
    term = await clients.terminal(hosted.port)
    assert await term.wait_exit() == 1
    assert b"no input" in term.raw
    await hosted.wait_sessions(0)
    await wait_until(lambda: [reason for _, reason in hosted.ended] == ["idle"])


async def test_login_timeout_closes_silent_connections(start):
    hosted = await start(login_timeout=0.3)
    reader, writer = await asyncio.open_connection("127.0.0.1", hosted.port)
    try:
        banner = await asyncio.wait_for(reader.readline(), TIMEOUT)
        assert banner.startswith(b"SSH-2.0-momiji")
        rest = await asyncio.wait_for(reader.read(), TIMEOUT)  # EOF when closed
        assert isinstance(rest, bytes)
    finally:
        writer.close()


async def test_logged_in_connection_without_session_is_closed(start, clients):
    hosted = await start(login_timeout=0.3)
    conn = await clients.connect(hosted.port, key=new_key())
    await asyncio.wait_for(conn.wait_closed(), TIMEOUT)


async def test_keys_mode_refuses_guests(start, clients):
    hosted = await start(auth="keys")
    with pytest.raises(asyncssh.PermissionDenied):
        await open_connection(hosted.port)
    term = await clients.terminal(hosted.port, key=new_key())
    await term.wait_for_text("kind=key")


async def test_allowlist_mode_rereads_authorized_keys(start, clients, tmp_path):
    alice, bob = new_key(), new_key()
    keys_file = tmp_path / "authorized_keys"
    keys_file.write_bytes(alice.export_public_key())
    hosted = await start(auth="allowlist", authorized_keys=keys_file)
    term = await clients.terminal(hosted.port, key=alice)
    await term.wait_for_text("who=alice kind=key")
    with pytest.raises(asyncssh.PermissionDenied):
        await open_connection(hosted.port, username="bob", key=bob)
    with pytest.raises(asyncssh.PermissionDenied):
        await open_connection(hosted.port, username="guest")
    keys_file.write_bytes(alice.export_public_key() + bob.export_public_key())
    term = await clients.terminal(hosted.port, username="bob", key=bob)
    await term.wait_for_text("who=bob kind=key")


async def test_invalid_options_are_rejected(start, tmp_path):
    with pytest.raises(ValueError):
        await start(auth="allowlist")
    with pytest.raises(ValueError):
        await start(auth="allowlist", authorized_keys=tmp_path / "missing")
    with pytest.raises(ValueError):
        await start(auth="passwords")
    with pytest.raises(ValueError):
        await start(max_sessions=0)
