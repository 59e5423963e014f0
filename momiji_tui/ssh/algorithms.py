"""The server's one algorithm policy: modern SSH algorithms only.

Every list is passed to ``asyncssh.listen`` (see :func:`listen_options`);
the order is the server's preference. Only names asyncssh 2.x knows are
listed (checked by ``tests/ssh/test_ssh_transport_algorithms.py`` against
``asyncssh.kex.get_kex_algs()`` etc.), and ``ssh-audit`` reports no failure.

Left out on purpose: SHA-1 anything (``diffie-hellman-group14-sha1``,
``hmac-sha1``, ``ssh-rsa`` signatures), group exchange (clients may ask for
1024-bit moduli), NIST-curve ECDH (also inside the ML-KEM hybrids other than
X25519), ``rsa2048-sha256``, UMAC-64 and every encrypt-and-MAC (non-ETM)
MAC, CBC and arcfour ciphers. sntrup761x25519 is not listed: asyncssh does
not implement it. OpenSSH 6.5 (2014) and later, PuTTY 0.68+ and asyncssh
clients all share at least one choice of each list.
"""

from __future__ import annotations

from typing import Any

KEX_ALGS: tuple[str, ...] = (
    "mlkem768x25519-sha256",        # hybrid post-quantum, OpenSSH 10 default
    "curve25519-sha256",
    "curve25519-sha256@libssh.org",
    "diffie-hellman-group18-sha512",  # fixed 8192-bit group, for clients without X25519
    "diffie-hellman-group16-sha512",  # fixed 4096-bit group
)
"""Key exchanges."""

ENCRYPTION_ALGS: tuple[str, ...] = (
    "chacha20-poly1305@openssh.com",
    "aes256-gcm@openssh.com",
    "aes128-gcm@openssh.com",
    "aes256-ctr",   # with an ETM MAC below, for clients without AEAD
    "aes192-ctr",
    "aes128-ctr",
)
"""Ciphers (AEAD first)."""

MAC_ALGS: tuple[str, ...] = (
    "hmac-sha2-512-etm@openssh.com",
    "hmac-sha2-256-etm@openssh.com",
    "umac-128-etm@openssh.com",
)
"""MACs, encrypt-then-MAC only (unused with the AEAD ciphers)."""

HOST_KEY_ALGS: tuple[str, ...] = ("ssh-ed25519",)
"""The server's host key type: asyncssh offers what the key is, so
``hostkey.py`` creates and accepts only an Ed25519 key."""

SIGNATURE_ALGS: tuple[str, ...] = (
    "ssh-ed25519",
    "sk-ssh-ed25519@openssh.com",
    "rsa-sha2-512",
    "rsa-sha2-256",
    "ecdsa-sha2-nistp256",
    "ecdsa-sha2-nistp384",
    "ecdsa-sha2-nistp521",
    "sk-ecdsa-sha2-nistp256@openssh.com",
)
"""Signatures accepted from players' keys (their identity, not the session
keys): Ed25519, RSA with SHA-2 and ECDSA keys still log in; SHA-1
``ssh-rsa`` and DSA do not."""


def listen_options() -> dict[str, Any]:
    """The keyword arguments for ``asyncssh.listen`` that apply this policy.

    Returns:
        dict[str, list[str]]: ``kex_algs``, ``encryption_algs``,
        ``mac_algs``, ``signature_algs`` and
        ``compression_algs`` (none: compression before encryption leaks).
    """
    return {
        "kex_algs": list(KEX_ALGS),
        "encryption_algs": list(ENCRYPTION_ALGS),
        "mac_algs": list(MAC_ALGS),
        "signature_algs": list(SIGNATURE_ALGS),
        "compression_algs": ["none"],
    }
