"""Text from outside (a player's name, a save, an imported file, a cache, an
SSH client) made safe to show on a terminal: the one rule every screen and
every CLI output uses.

A terminal obeys control characters: ESC starts sequences that set the
window title (OSC 0/2), write the clipboard (OSC 52), make links (OSC 8),
clear the screen or move the cursor (CSI); a C1 character (U+0080–U+009F)
does the same in one code point; BEL rings; CR overwrites the line; bidi
overrides and isolates reorder what follows. :func:`safe_text` shows every
such code point escaped, as Python writes it (``\\x1b``, ``\\u202e``), so
nothing in the text can act on the terminal and the player still sees
that something was there. Lone surrogates (which no terminal encoding can
carry, and which would stop ``print``) are escaped the same way.
"""

from __future__ import annotations

import re
import sys
from typing import TextIO

#: C0 controls, DEL, C1 controls; bidi marks, embeddings, overrides and
#: isolates; line and paragraph separators; lone surrogates.
UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
#: The same but for the line break (for text of several lines).
UNSAFE_BUT_NEWLINE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e"
                                "\u2066-\u2069\ud800-\udfff]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def safe_text(text: str) -> str:
    """``text`` with every control character (C0, DEL, C1), bidi control,
    line separator and lone surrogate shown escaped (``\\x1b``, ``\\u202e``);
    anything else as it is. Idempotent on its own output. Raises
    ``TypeError`` if ``text`` is not a ``str``."""
    if not isinstance(text, str):
        raise TypeError(f"a text is a str, not {type(text).__name__}")
    return UNSAFE.sub(_escape, text)


def safe_lines(text: str) -> str:
    """As :func:`safe_text`, keeping line breaks (``\\n``): for text of several lines."""
    return UNSAFE_BUT_NEWLINE.sub(_escape, text)


class SafeStream:
    """A text stream that writes through :func:`safe_lines`, keeping ``\\n``
    and a ``\\r`` (a progress line rewritten in place): every other control
    character a command would print is escaped. ``stream`` is the real one."""

    _keep = re.compile("[\x00-\x09\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e"
                       "\u2066-\u2069\ud800-\udfff]")

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(self._keep.sub(_escape, text))
        return len(text)

    def __getattr__(self, name: str) -> object:  # flush, isatty, fileno, encoding…
        return getattr(self.stream, name)


def guard_std_streams() -> tuple[TextIO, TextIO]:
    """Make ``sys.stdout`` and ``sys.stderr`` :class:`SafeStream` s; returns
    the ones they were (to put back)."""
    before = sys.stdout, sys.stderr
    if not isinstance(sys.stdout, SafeStream):
        sys.stdout = SafeStream(sys.stdout)
    if not isinstance(sys.stderr, SafeStream):
        sys.stderr = SafeStream(sys.stderr)
    return before
