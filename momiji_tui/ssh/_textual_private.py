"""The only place where ``momiji_tui.ssh`` relies on Textual internals.

Textual is pinned (``textual==8.2.8``). Re-check everything here when that pin
moves; the SSH tests (tests/ssh) exercise each item end to end.

1. ``textual._xterm_parser.XTermParser`` is the input parser that Textual's own
   LinuxDriver uses: it turns terminal bytes into key, mouse and paste events.
   Its ``_parse_extended_key`` is a ``functools.lru_cache(maxsize=1024)`` on
   the class, keyed by ``(parser, sequence)``: fine for one app per process,
   but on a server it kept up to 1,024 finished sessions' parsers alive, each
   holding (in its parse generator) its last ``Key`` event, whose sender is
   that session's whole app (issue 12 item 11). We export a subclass that
   calls the undecorated function (``__wrapped__``) instead.
2. ``App._process_messages`` wraps every running app in
   ``contextlib.redirect_stdout/redirect_stderr`` (looked up as globals of
   ``textual.app``). With many apps interleaved on one event loop, those
   process-wide swaps of ``sys.stdout`` unwind in the wrong order and leave
   ``sys.stdout`` pointing at a finished app. While an SSH server runs, we
   replace the two names with ``contextlib.nullcontext`` (hosted apps must
   not ``print()``; use logging).
"""

from __future__ import annotations

import contextlib
from typing import Any

import textual.app as _textual_app
from textual._xterm_parser import XTermParser as _TextualXTermParser  # private, note 1

__all__ = ["XTermParser", "print_capture_disabled"]

_parse_extended_key = _TextualXTermParser._parse_extended_key.__wrapped__  # type: ignore[attr-defined]


class XTermParser(_TextualXTermParser):
    """Textual's input parser without the class-level cache that kept every
    session's parser (and, through its last key, its app) alive; note 1."""

    def _parse_extended_key(self, sequence: str) -> Any:
        return _parse_extended_key(self, sequence)


_depth = 0
_saved: tuple[Any, Any] | None = None


@contextlib.contextmanager
def print_capture_disabled() -> Any:
    """Disable Textual's per-app stdout/stderr capture while the block runs.

    Re-entrant (counted), so several servers in one process may nest it. See
    note 2 in the module docstring.
    """
    global _depth, _saved
    if _depth == 0:
        _saved = (_textual_app.redirect_stdout, _textual_app.redirect_stderr)
        _textual_app.redirect_stdout = contextlib.nullcontext  # type: ignore[assignment]
        _textual_app.redirect_stderr = contextlib.nullcontext  # type: ignore[assignment]
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1
        if _depth == 0 and _saved is not None:
            _textual_app.redirect_stdout, _textual_app.redirect_stderr = _saved
            _saved = None
