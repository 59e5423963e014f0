"""The server offers modern algorithms only.

``ssh-audit`` (pinned in the test extra) audits the in-process server on
127.0.0.1 and must report no failing algorithm; the policy lists only names
asyncssh knows.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
from pathlib import Path

import asyncssh
import pytest
from ssh_harness import TIMEOUT, new_key, open_connection

from momiji_tui.ssh import algorithms


def _audit_command() -> list[str]:
    exe = Path(sys.executable).with_name("ssh-audit")
    if exe.exists():
        return [str(exe)]
    found = shutil.which("ssh-audit")
    if found is None:
        pytest.fail("ssh-audit is not installed: pip install -e '.[test]'")
    return [found]


def _failures(report: dict) -> list[str]:
    failing = []
    for section in ("kex", "key", "enc", "mac"):
        for entry in report.get(section, []):
            notes = entry.get("notes", {})
            if notes.get("fail"):
                failing.append(f"{section}: {entry['algorithm']}: {notes['fail']}")
    return failing


async def test_ssh_audit_reports_no_failing_algorithm(hosted):
    proc = await asyncio.create_subprocess_exec(
        *_audit_command(), "-j", "--skip-rate-test", "-p", str(hosted.port), "127.0.0.1",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), 3 * TIMEOUT)
    report = json.loads(out)
    offered = {e["algorithm"] for s in ("kex", "key", "enc", "mac") for e in report[s]}
    assert "curve25519-sha256" in offered, err  # the audit really saw the server
    assert _failures(report) == []
    # 0 good, 1 or 2 warnings only (curve25519 is not post-quantum), 3 a failure
    assert proc.returncode != 3


def test_policy_lists_only_names_asyncssh_supports():
    from asyncssh.encryption import get_encryption_algs
    from asyncssh.kex import get_kex_algs
    from asyncssh.mac import get_mac_algs
    from asyncssh.public_key import get_public_key_algs

    assert set(algorithms.KEX_ALGS) <= {a.decode() for a in get_kex_algs()}
    assert set(algorithms.ENCRYPTION_ALGS) <= {a.decode() for a in get_encryption_algs()}
    assert set(algorithms.MAC_ALGS) <= {a.decode() for a in get_mac_algs()}
    known_keys = {a.decode() for a in get_public_key_algs()}
    assert set(algorithms.HOST_KEY_ALGS) <= known_keys
    assert set(algorithms.SIGNATURE_ALGS) <= known_keys
    assert algorithms.HOST_KEY_ALGS == ("ssh-ed25519",)


@pytest.mark.parametrize("kex", ["diffie-hellman-group14-sha1", "ecdh-sha2-nistp256",
                                 "diffie-hellman-group-exchange-sha1"])
async def test_a_client_offering_only_a_weak_kex_cannot_connect(hosted, kex):
    with pytest.raises((asyncssh.Error, OSError)):
        await asyncio.wait_for(
            asyncssh.connect("127.0.0.1", hosted.port, username="x", known_hosts=None,
                             agent_path=None, config=[], client_keys=[new_key()],
                             kex_algs=[kex]), TIMEOUT)


async def test_a_modern_client_still_logs_in(hosted, clients):
    conn = await clients.connect(hosted.port, key=new_key())
    assert conn.get_extra_info("send_cipher") in algorithms.ENCRYPTION_ALGS
    guest = await open_connection(hosted.port)
    guest.close()


def test_an_rsa_host_key_is_refused_with_a_clear_message(tmp_path):
    from momiji_tui.ssh.hostkey import HostKeyError, load_or_create_host_key

    path = tmp_path / "rsa_key"
    path.write_bytes(asyncssh.generate_private_key("ssh-rsa", key_size=2048).export_private_key())
    path.chmod(0o600)
    with pytest.raises(HostKeyError, match="ed25519 only"):
        load_or_create_host_key(path)
