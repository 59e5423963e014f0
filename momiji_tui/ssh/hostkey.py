"""The server's SSH host key: created once, kept private, never replaced."""

from __future__ import annotations

import os
import secrets
import stat
from pathlib import Path

import asyncssh

HOST_KEY_FILENAME = "ssh_host_ed25519_key"
"""File name of the host key inside the data directory."""


class HostKeyError(Exception):
    """The host key file is unusable: a directory, readable by others, or corrupt."""


def default_data_dir() -> Path:
    """``$MOMIJI_DATA_DIR`` if set, else platformdirs' user data dir for momiji-tui."""
    env = os.environ.get("MOMIJI_DATA_DIR")
    if env:
        return Path(env)
    import platformdirs

    return platformdirs.user_data_path("momiji-tui")


def load_or_create_host_key(path: Path) -> asyncssh.SSHKey:
    """Load the ed25519 host key at ``path``, creating it (mode 0600) if missing.

    Raises:
        HostKeyError: ``path`` is a directory, a dangling link, group/world
            accessible (POSIX only), does not hold an unencrypted private key,
            or holds a key other than Ed25519 (see ``algorithms.HOST_KEY_ALGS``).
    """
    path = Path(path)
    if not os.path.lexists(path):
        _create(path)
    try:
        mode = path.stat().st_mode
    except OSError as error:
        raise HostKeyError(f"cannot use host key {path}: {error}") from error
    if stat.S_ISDIR(mode):
        raise HostKeyError(f"host key path {path} is a directory")
    if os.name == "posix" and stat.S_IMODE(mode) & 0o077:
        raise HostKeyError(
            f"host key {path} is readable by other users; run: chmod 600 {path}"
        )
    try:
        key = asyncssh.read_private_key(path)
    except (OSError, asyncssh.KeyImportError) as error:
        raise HostKeyError(f"cannot read host key {path}: {error}") from error
    if key.get_algorithm() != "ssh-ed25519":
        raise HostKeyError(
            f"host key {path} is {key.get_algorithm()}; the server offers ed25519 only "
            f"(move it away and a new key is created)"
        )
    return key


def _create(path: Path) -> None:
    """Write a new key atomically; if another process wins the race, keep theirs."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    key = asyncssh.generate_private_key("ssh-ed25519")
    data = key.export_private_key("openssh")
    temp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        try:
            os.link(temp, path)  # atomic and never overwrites
        except FileExistsError:
            pass
    finally:
        temp.unlink(missing_ok=True)
