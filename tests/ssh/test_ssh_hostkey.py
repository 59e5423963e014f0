"""The host key: created once with mode 0600, reused, refused when unsafe."""

from __future__ import annotations

import os
import stat

import asyncssh
import pytest
from ssh_harness import TIMEOUT, open_terminal

from momiji_tui.ssh import HostKeyError, load_or_create_host_key


async def test_host_key_is_created_0600_and_reused_across_restarts(start, isolated_dirs):
    path = isolated_dirs / "ssh_host_ed25519_key"
    assert not path.exists()
    first = await start()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    fingerprint = first.handle.host_key_fingerprint
    assert fingerprint.startswith("SHA256:")
    content = path.read_bytes()
    await first.handle.close()

    second = await start()
    assert second.handle.host_key_fingerprint == fingerprint
    assert path.read_bytes() == content
    assert [p.name for p in isolated_dirs.iterdir()] == [path.name]

    # A client that pins the host key gets in.
    public = asyncssh.read_private_key(path).convert_to_public()
    conn = await asyncssh.connect(
        "127.0.0.1", second.port, username="pinned", known_hosts=([public], [], []),
        client_keys=None, kbdint_auth=True, password="", agent_path=None, config=[],
        connect_timeout=TIMEOUT,
    )
    async with conn:
        term = await open_terminal(conn)
        await term.wait_for_text("who=pinned")
        await term.close()


async def test_explicit_host_key_path(start, tmp_path, isolated_dirs):
    path = tmp_path / "keys" / "host"
    hosted = await start(host_key_path=path)
    assert path.is_file() and not (isolated_dirs / "ssh_host_ed25519_key").exists()
    key = asyncssh.read_private_key(path)
    assert key.get_fingerprint("sha256") == hosted.handle.host_key_fingerprint


async def test_data_dir_parameter(start, tmp_path):
    hosted = await start(data_dir=tmp_path / "elsewhere")
    assert (tmp_path / "elsewhere" / "ssh_host_ed25519_key").is_file()
    assert hosted.handle.host_key_fingerprint.startswith("SHA256:")


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_group_readable_key_is_refused(tmp_path):
    path = tmp_path / "key"
    load_or_create_host_key(path)
    path.chmod(0o640)
    with pytest.raises(HostKeyError, match="chmod 600"):
        load_or_create_host_key(path)


def test_directory_and_garbage_are_refused(tmp_path):
    (tmp_path / "dir").mkdir()
    with pytest.raises(HostKeyError, match="directory"):
        load_or_create_host_key(tmp_path / "dir")
    garbage = tmp_path / "garbage"
    garbage.write_text("not a key")
    garbage.chmod(0o600)
    with pytest.raises(HostKeyError, match="cannot read"):
        load_or_create_host_key(garbage)
    dangling = tmp_path / "dangling"
    dangling.symlink_to(tmp_path / "nowhere")
    with pytest.raises(HostKeyError, match="cannot use"):
        load_or_create_host_key(dangling)
