"""Bracketed paste, taken out of the input before Textual's key parser.

A terminal in bracketed-paste mode (``ESC[?2004h``, set by the driver) wraps
pasted text in ``ESC[200~`` … ``ESC[201~``. Textual's parser leaves paste
mode at the first stray escape sequence inside the paste, so the rest of a
pasted blob of random bytes became key presses (a paste could
quit the session). :class:`PasteSplitter` cuts the input into key text and
paste text itself, so bytes inside a paste never become keys; the driver
sends the paste as one ``events.Paste`` (an ``Input`` takes it as text,
other widgets ignore it). Markers split across network reads are held back
until the next read (or, for key text, until :meth:`PasteSplitter.flush`,
which the driver calls with the escape-delay tick, so a lone Esc still
arrives).
"""

from __future__ import annotations

PASTE_START = "\x1b[200~"
PASTE_END = "\x1b[201~"
MAX_PASTE = 64 * 1024
"""Characters of one paste kept (the rest is dropped, never typed)."""


def _held_prefix(text: str, marker: str) -> int:
    """Length of the longest tail of ``text`` that is a proper prefix of ``marker``."""
    for n in range(min(len(marker) - 1, len(text)), 0, -1):
        if marker.startswith(text[-n:]):
            return n
    return 0


class PasteSplitter:
    """Splits decoded terminal input into ``("keys", text)`` and
    ``("paste", text)`` parts, in order. Pure: no I/O, no Textual."""

    def __init__(self, max_paste: int = MAX_PASTE) -> None:
        self.in_paste = False
        self._held = ""
        self._paste: list[str] = []
        self._paste_len = 0
        self._max_paste = max_paste

    def feed(self, text: str) -> list[tuple[str, str]]:
        """Split ``text`` (what arrived now); returns the parts that are complete.

        Key text never includes a paste marker or anything between markers;
        a paste part is returned when its end marker arrives, without NULs
        and cut to ``max_paste`` characters.
        """
        text, self._held = self._held + text, ""
        out: list[tuple[str, str]] = []
        while text:
            marker = PASTE_END if self.in_paste else PASTE_START
            at = text.find(marker)
            if at < 0:
                keep = _held_prefix(text, marker)
                body, self._held = (text[:-keep], text[-keep:]) if keep else (text, "")
                self._take(body, out)
                break
            self._take(text[:at], out)
            text = text[at + len(marker):]
            if self.in_paste:
                out.append(("paste", "".join(self._paste).replace("\x00", "")))
                self._paste, self._paste_len = [], 0
            self.in_paste = not self.in_paste
        return out

    def flush(self) -> str:
        """Key text held back as a possible start marker (e.g. a lone Esc):
        returns it for the key parser. Nothing is returned inside a paste."""
        if self.in_paste:
            return ""
        held, self._held = self._held, ""
        return held

    def _take(self, body: str, out: list[tuple[str, str]]) -> None:
        if not body:
            return
        if not self.in_paste:
            out.append(("keys", body))
            return
        room = self._max_paste - self._paste_len
        if room > 0:
            self._paste.append(body[:room])
            self._paste_len += min(room, len(body))
