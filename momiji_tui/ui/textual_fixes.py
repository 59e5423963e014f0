"""Workarounds for bugs of Textual (pinned ``textual==8.2.8``), each with its
upstream link; :func:`apply` installs them once per process (``MomijiApp``
calls it). Drop one when the pin moves past its fix: its test
(``tests/ui/test_random_key_tracebacks.py``) says whether it is still needed.

1. The command palette's search outlives the palette
   (https://github.com/Textualize/textual/issues/6361): a node's workers are
   cancelled only after its children were removed, so a palette closed while
   its search runs, or before its first search started (ctrl+p and the
   screen changing under it in one burst of keys), lets the search query its
   removed ``CommandList``: ``NoMatches`` ends the app. Here the palette
   stops its search as soon as it is being removed, before its children go.
2. ``OptionList`` page keys before the list is laid out: its lines are only
   measured in a region of some height
   (https://github.com/Textualize/textual/issues/5794), and ``_move_page``
   looks the highlighted option up in them: ``KeyError``. The palette's
   ``CommandList`` gets page keys typed with ctrl+p before its first layout.
   Here a page key does nothing until the lines are measured.
3. A screen removed while it was being composed still gets its ``Mount``,
   after its children were removed
   (https://github.com/Textualize/textual/issues/4258): a game screen pushed
   and popped (or switched away) in one burst of keys or lobby news, a help
   whose ``MarkdownViewer`` loads its removed document; every ``on_mount``
   that queries a child raises ``NoMatches``. Here a widget whose removal
   began before its ``Mount`` skips it, and a screen's ``ScreenResume``
   likewise (it is never shown; its ``Unmount`` still comes). Keys and clicks
   queued at a widget being removed (a screen popped, or every screen as the
   app exits, with a burst of keys behind the quit) are dropped too: they
   would run the screen's bindings after its children went. (A screen
   opened as the app exits is composed without children and not being
   removed: the game screens check ``App.return_code`` in ``on_mount``.)
"""

from __future__ import annotations

from typing import Any

from textual import events, work
from textual.command import CommandPalette
from textual.message import Message
from textual.messages import Prune
from textual.widget import Widget
from textual.widgets import OptionList

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
            return  # being removed: never set up, never acting on a key or click (note 3)
        await dispatch(self, message)

    return _dispatch_message


def apply() -> None:
    """Install the workarounds (idempotent)."""
    global _applied
    if _applied:
        return
    _applied = True
    CommandPalette._on_prune = _stop_search_before_removal  # type: ignore[attr-defined]
    CommandPalette._gather_commands = _no_search_once_removed(  # type: ignore[method-assign]
        CommandPalette._gather_commands.__wrapped__)  # type: ignore[attr-defined]
    OptionList._move_page = _page_when_measured(OptionList._move_page)  # type: ignore[method-assign]
    Widget._dispatch_message = _not_once_removed(Widget._dispatch_message)  # type: ignore[method-assign]
