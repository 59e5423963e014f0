"""The only place where ``momiji_tui.ssh`` relies on Textual internals.

Textual is pinned (``textual==8.2.8``). Re-check everything here when that pin
moves; the SSH tests (tests/ssh) exercise each item end to end.

1. ``textual._xterm_parser.XTermParser`` is the input parser that Textual's own
   LinuxDriver uses: it turns terminal bytes into key, mouse and paste events.
   Its ``_parse_extended_key`` is a ``functools.lru_cache(maxsize=1024)`` on
   the class, keyed by ``(parser, sequence)``: fine for one app per process,
   but on a server it kept up to 1,024 finished sessions' parsers alive, each
   holding (in its parse generator) its last ``Key`` event, whose sender is
   that session's whole app. We export a subclass that
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
import functools
from typing import Any

import textual.app
from textual._xterm_parser import XTermParser as _TextualXTermParser  # private, note 1

# Patched below (note 2); typed as Any because its redirect_* names are
# classes imported from contextlib, which mypy will not let us reassign.
_textual_app: Any = textual.app

__all__ = ["XTermParser", "print_capture_disabled", "session_colors_enabled", "set_session_colors"]

_parse_extended_key = _TextualXTermParser._parse_extended_key.__wrapped__


class XTermParser(_TextualXTermParser):
    """Textual's input parser without the class-level cache that kept every
    session's parser (and, through its last key, its app) alive; note 1."""

    # Textual's is an lru_cache wrapper; a plain method in its place is the point (note 1).
    def _parse_extended_key(self, sequence: str) -> Any:  # type: ignore[override]
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
        _textual_app.redirect_stdout = contextlib.nullcontext
        _textual_app.redirect_stderr = contextlib.nullcontext
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1
        if _depth == 0 and _saved is not None:
            _textual_app.redirect_stdout, _textual_app.redirect_stderr = _saved
            _saved = None


def set_session_colors(app: _textual_app.App[Any], color_system: str | None, no_color: bool) -> None:
    """Set one app's colour system and NO_COLOR filter (note 3).

    3. Textual reads ``TEXTUAL_COLOR_SYSTEM`` and ``NO_COLOR`` from the
       process environment in ``App.__init__`` (``app.console`` and
       ``app._filters``); a hosted app gets its client's instead. Rich keeps
       the colour system in ``Console._color_system``.
    """
    from rich.color import ColorSystem
    from textual.filter import Monochrome, NoColor

    systems = {None: None, "standard": ColorSystem.STANDARD, "256": ColorSystem.EIGHT_BIT,
               "truecolor": ColorSystem.TRUECOLOR}
    # Textual renders a None colour system as truecolor: "no colour" is 16
    # colours with every colour removed (textual.filter.NoColor).
    app.console._color_system = systems[color_system] or ColorSystem.STANDARD
    if color_system is None:
        app._filters.append(NoColor())
    if no_color and not app.no_color:
        app.no_color = True
        app._filters.append(Monochrome())


_colors_depth = 0
_saved_render: Any = None


@functools.lru_cache(maxsize=16384)
def _session_sgr(style: Any, color_system: Any) -> str:
    """The SGR codes of ``style`` in ``color_system``, cached per colour system.

    Textual's ``Strip.render_ansi`` computes the same, but also stores the
    result in the style itself (``style._ansi``) and ``Strip.render_style``
    reuses that whatever colour system asks next: a style shared by two
    sessions kept the colours of the first one that drew it (note 4).
    """
    from textual.strip import SGR_STYLES

    sgr: list[str] = []
    if attributes := style._attributes & style._set_attributes:
        sgr = [SGR_STYLES[bit] for bit in range(attributes.bit_length()) if attributes & (1 << bit)]
    if (color := style._color) is not None:
        sgr.extend(color.downgrade(color_system).get_ansi_codes())
    if (bgcolor := style._bgcolor) is not None:
        sgr.extend(bgcolor.downgrade(color_system).get_ansi_codes(False))
    return ";".join(sgr)


def _session_render(strip: Any, console: Any) -> str:
    """``Strip.render`` in the console's own colour system, never from a cache
    another session filled (note 4)."""
    from rich.color import ColorSystem

    color_system = console._color_system or ColorSystem.TRUECOLOR
    out: list[str] = []
    for text, style, _ in strip._segments:
        if style is None:
            out.append(text)
            continue
        ansi = _session_sgr(style, color_system)
        line = f"\x1b[{ansi}m{text}\x1b[0m" if ansi else text
        if style._link:
            line = f"\x1b]8;id={style._link_id};{style._link}\x1b\\{line}\x1b]8;;\x1b\\"
        out.append(line)
    return "".join(out)


@contextlib.contextmanager
def session_colors_enabled() -> Any:
    """Let apps of one process render in different colour systems (note 4).

    4. ``textual.strip.Strip.render`` caches its output in the strip
       (``_render_cache``) whatever the console's colour system, some strips
       are shared by every app (``Strip.blank`` is an ``lru_cache``), and
       ``Strip.render_ansi`` stores a style's codes in the style
       (``style._ansi``) for whichever colour system drew it first: the
       first session to render a strip or a style decided its colours for
       all. While this block runs, strips render through
       :func:`_session_render`, which caches codes per (style, colour
       system) and nothing in the strip. Re-entrant (counted).
    """
    global _colors_depth, _saved_render
    from textual.strip import Strip

    if _colors_depth == 0:
        _saved_render = Strip.render
        Strip.render = _session_render  # type: ignore[method-assign, assignment]  # on purpose, note 4
    _colors_depth += 1
    try:
        yield
    finally:
        _colors_depth -= 1
        if _colors_depth == 0 and _saved_render is not None:
            Strip.render = _saved_render  # type: ignore[method-assign]
            _saved_render = None
