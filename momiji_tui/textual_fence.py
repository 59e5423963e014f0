"""The one module that touches Textual's private names: workarounds for
Textual defects (seen on 8.2.7 and 8.2.8), each written up upstream-style in
``docs/TEXTUAL_DEFECTS.md`` (section N for defect N) with a test that fails
once upstream fixes it (``tests/test_textual_fence.py``: then delete it).

1. ``Strip.divide`` caches ``[self]`` in the strip: a cycle per line drawn.
2. ``XTermParser._parse_extended_key``, an ``lru_cache`` on the class, keeps
   ended parsers and their apps alive.
3. Every app swaps the process-wide ``sys.stdout``: apps on one loop unwind
   the swaps out of order.
4. A layout sets each resized widget's ``virtual_size``, which asks for a
   second layout.
5. Colour system and NO_COLOR are per process, and ``Strip.render`` caches
   escape codes whatever colour system asked.

6. The command palette's search outlives the palette: a palette closed
   while its search runs queries its removed ``CommandList`` (textual#6361).
7. ``OptionList`` page keys before its lines are measured: ``KeyError`` in
   ``_move_page`` (textual#5794).
8. A screen removed while it was being composed still gets its ``Mount``
   and the keys queued at it, after its children went (textual#4258).
   (A screen opened as the app exits is composed without children and not
   being removed: the game screens check ``App.return_code`` in ``on_mount``.)

Defects 6–8 are keys that outrun a screen (a burst of keys queued before the
first one's action runs): their tests are in
``tests/ui/test_random_key_tracebacks.py``.

Missing API (not a defect): ``XTermParser.expire`` says the escape delay
passed by the caller's clock (Textual's parser times it on its own clock,
from when bytes are parsed: an SSH session queues them first).
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import textual.app
from textual import events, work
from textual.command import CommandPalette
from rich.color import ColorSystem
from textual._xterm_parser import XTermParser as _TextualXTermParser  # defect 2
from textual.filter import Monochrome, NoColor
from textual.geometry import Size
from textual.message import Message
from textual.messages import Prune
from textual.reactive import Reactive
from textual.strip import SGR_STYLES, Strip
from textual.widget import Widget
from textual.widgets import OptionList

__all__ = ["XTermParser", "keep_strips_acyclic", "mend_key_races", "print_capture_disabled", "session_colors_enabled",
           "set_session_colors", "still_virtual_size"]

_app_module: Any = textual.app  # its redirect_* names are swapped (defect 3)
_textual_divide = Strip.divide


def _divide(strip: Strip, cuts: Iterable[int]) -> Sequence[Strip]:
    """``Strip.divide`` without keeping ``[strip]`` in the strip itself."""
    if type(cuts) is list and len(cuts) == 1 and cuts[0] == strip.cell_length:
        return [strip]
    return _textual_divide(strip, cuts)


def keep_strips_acyclic() -> None:
    """Defect 1: every strip cut at its own length is returned as ``[strip]``
    without the self-referencing cache entry. Idempotent; process-wide."""
    Strip.divide = _divide  # type: ignore[method-assign, assignment]


class XTermParser(_TextualXTermParser):
    """Defect 2: Textual's input parser whose extended-key parse is not cached
    on the class (each session's parser dies with its session)."""

    def _parse_extended_key(self, sequence: str) -> Any:  # type: ignore[override]
        return _TextualXTermParser._parse_extended_key.__wrapped__(self, sequence)

    def expire(self) -> list[Message]:
        """The escape delay passed, by the caller's clock (missing API: the
        parser times it on Textual's own clock, from when bytes were parsed,
        not received): what is held comes out as keys (an Esc alone is the
        Esc key, Esc x is alt+x), as ``tick()`` gives them once that clock
        says so. Returns [] when nothing is held."""
        if self._timeout_time is None:
            return []
        self._timeout_time = float("-inf")
        return list(self.tick())


def still_virtual_size() -> Reactive[Size]:
    """Defect 4: a ``virtual_size`` for a widget that never scrolls: a
    change asks for neither a layout nor a repaint (the layout that resized
    the widget placed and repaints it)."""
    return Reactive(Size(0, 0), layout=False, repaint=False)


_capture_depth = 0
_saved_redirects: tuple[Any, Any] | None = None


@contextlib.contextmanager
def print_capture_disabled() -> Iterator[None]:
    """Defect 3: while the block runs, apps leave ``sys.stdout``/``stderr``
    alone (hosted apps must not ``print()``; they log). Re-entrant."""
    global _capture_depth, _saved_redirects
    if _capture_depth == 0:
        _saved_redirects = (_app_module.redirect_stdout, _app_module.redirect_stderr)
        _app_module.redirect_stdout = _app_module.redirect_stderr = contextlib.nullcontext
    _capture_depth += 1
    try:
        yield
    finally:
        _capture_depth -= 1
        if _capture_depth == 0 and _saved_redirects is not None:
            _app_module.redirect_stdout, _app_module.redirect_stderr = _saved_redirects
            _saved_redirects = None


_SYSTEMS = {None: None, "standard": ColorSystem.STANDARD, "256": ColorSystem.EIGHT_BIT,
            "truecolor": ColorSystem.TRUECOLOR}


def set_session_colors(app: textual.app.App[Any], color_system: str | None, no_color: bool) -> None:
    """Defect 5: give one app its client's colour system (``None``: no
    colour, ``"standard"``, ``"256"``, ``"truecolor"``) and NO_COLOR.
    Raises ``KeyError`` for another colour system name."""
    app.console._color_system = _SYSTEMS[color_system] or ColorSystem.STANDARD
    if color_system is None:
        app._filters.append(NoColor())
    if no_color and not app.no_color:
        app.no_color = True
        app._filters.append(Monochrome())


@functools.lru_cache(maxsize=16384)
def _sgr(style: Any, color_system: Any) -> str:
    """The SGR codes of a Rich ``style`` in ``color_system`` (cached here, not in the style)."""
    sgr: list[str] = []
    if attributes := style._attributes & style._set_attributes:
        sgr = [SGR_STYLES[bit] for bit in range(attributes.bit_length()) if attributes & (1 << bit)]
    if (color := style._color) is not None:
        sgr.extend(color.downgrade(color_system).get_ansi_codes())
    if (bgcolor := style._bgcolor) is not None:
        sgr.extend(bgcolor.downgrade(color_system).get_ansi_codes(False))
    return ";".join(sgr)


def _render(strip: Strip, console: Any) -> str:
    """``Strip.render`` in the console's own colour system, caching nothing in the strip."""
    color_system = console._color_system or ColorSystem.TRUECOLOR
    out: list[str] = []
    for text, style, _ in strip:
        if style is None:
            out.append(text)
            continue
        ansi = _sgr(style, color_system)
        line = f"\x1b[{ansi}m{text}\x1b[0m" if ansi else text
        if style._link:
            line = f"\x1b]8;id={style._link_id};{style._link}\x1b\\{line}\x1b]8;;\x1b\\"
        out.append(line)
    return "".join(out)


_colors_depth = 0
_saved_render: Any = None


@contextlib.contextmanager
def session_colors_enabled() -> Iterator[None]:
    """Defect 5: while the block runs, apps of this process render strips in
    their own colour systems (``_render``). Re-entrant."""
    global _colors_depth, _saved_render
    if _colors_depth == 0:
        _saved_render = Strip.render
        Strip.render = _render  # type: ignore[method-assign, assignment]
    _colors_depth += 1
    try:
        yield
    finally:
        _colors_depth -= 1
        if _colors_depth == 0 and _saved_render is not None:
            Strip.render = _saved_render  # type: ignore[method-assign]
            _saved_render = None


_applied = False


def _stop_search_before_removal(palette: CommandPalette, event: Prune) -> None:
    """The palette is being removed: its search stops now, while its
    children are still there (Textual's own ``on_prune`` runs next)."""
    palette.workers.cancel_node(palette)


def _no_search_once_removed(search: Any) -> Any:
    @work(exclusive=True, group=CommandPalette._GATHER_COMMANDS_GROUP)
    async def _gather_commands(self: CommandPalette, search_value: str) -> None:
        if self._pruning or not self.is_attached:
            return  # removed before this search ran: its list is gone
        await search(self, search_value)

    return _gather_commands


def _page_when_measured(original: Any) -> Any:
    def _move_page(self: OptionList, direction: int) -> None:
        if self.highlighted is not None and self.highlighted not in self._index_to_line:
            return  # not laid out yet: no page to move by
        original(self, direction)

    return _move_page


def _not_once_removed(dispatch: Any) -> Any:
    async def _dispatch_message(self: Widget, message: Message) -> None:
        if self._pruning and isinstance(message, (events.Mount, events.ScreenResume, events.InputEvent)):
            return  # being removed: never set up, never acting on a key or click (defect 8)
        await dispatch(self, message)

    return _dispatch_message


def mend_key_races() -> None:
    """Defects 6–8: install the workarounds for keys that outrun a screen
    (idempotent; process-wide)."""
    global _applied
    if _applied:
        return
    _applied = True
    CommandPalette._on_prune = _stop_search_before_removal  # type: ignore[attr-defined]
    CommandPalette._gather_commands = _no_search_once_removed(  # type: ignore[method-assign]
        CommandPalette._gather_commands.__wrapped__)  # type: ignore[attr-defined]
    OptionList._move_page = _page_when_measured(OptionList._move_page)  # type: ignore[method-assign]
    Widget._dispatch_message = _not_once_removed(Widget._dispatch_message)  # type: ignore[method-assign]
