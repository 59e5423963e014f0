"""The operator's log: one line per event, with the client's address.

Every line goes to the ``momiji`` logger, so with the server's log format a
line reads ``<time> WARNING momiji: auth failed from 1.2.3.4 port 5678: no
key accepted``: a stable prefix (``momiji:``), the event, and ``from <ip>
port <port>`` on every line about a client (what fail2ban matches). The
events and their words are listed in SERVER "The server's log".

The lobby may log tables starting and ending with a plain
``logging.getLogger("momiji").info("table started: ...")``; it needs
nothing from this module.
"""

from __future__ import annotations

import logging

log = logging.getLogger("momiji")

Peer = tuple[str, int]
"""A client's (address, port)."""


def client_event(event: str, peer: Peer, detail: str = "", level: int = logging.INFO) -> None:
    """Log one line about a client: ``<event> from <ip> port <port>[: <detail>]``.

    Args:
        event: what happened, from the table in SERVER "The server's log" (``"login"``,
            ``"auth failed"``, ``"refused request"``, ...).
        peer: the client's address and port.
        detail: free text after a colon; control characters are escaped so
            a client-chosen string cannot forge a line.
        level: a ``logging`` level.
    """
    ip, port = peer
    text = f"{event} from {ip} port {port}"
    if detail:
        text += ": " + _plain(detail)
    log.log(level, "%s", text)


def server_event(event: str, detail: str = "", level: int = logging.INFO) -> None:
    """Log one line about the server itself: ``<event>[: <detail>]``."""
    log.log(level, "%s", f"{event}: {_plain(detail)}" if detail else event)


def _plain(text: str) -> str:
    """``text`` with control characters escaped (no forged lines)."""
    if text.isprintable():
        return text
    return text.encode("unicode_escape", "backslashreplace").decode("ascii")
