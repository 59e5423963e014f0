"""The table's footer: Textual's ``Footer``, built once with every key the
table may offer, then shown and hidden key by key.

Textual's footer rebuilds all its key widgets whenever the keys that apply
change, which at the table is at most key presses (select a card: ⏎, Play,
Exchange appear) and cost about 30 ms of CPU each (issue 13, bench_keys).
Here the key widgets are made once, with every action the screen may offer
(``all_shown``: the screen answers ``check_action`` with True while the
footer composes), and a change only sets which are displayed. When a key
appears that was not built (another screen's bindings, a key map change),
the footer rebuilds as Textual's does.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey  # private path; the class is the footer's own


class TableFooter(Footer):
    """A ``Footer`` whose keys are shown and hidden, not rebuilt."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.all_shown = False  # True while composing: the screen offers every action
        self._built: set[str] = set()  # actions with a key widget

    def compose(self) -> ComposeResult:
        self.all_shown = True
        try:
            children = list(super().compose())
        finally:
            self.all_shown = False
        self._built = {c.action for c in children if isinstance(c, FooterKey)}
        yield from children

    def _shown_actions(self) -> set[str]:
        return {b.action for (_, b, _enabled, _tip) in self.screen.active_bindings.values() if b.show}

    def bindings_changed(self, screen: Screen[Any]) -> None:
        self._bindings_ready = True
        if not screen.app.app_focus or not self.is_attached or screen is not self.screen:
            return
        if self._built and self._shown_actions() <= self._built:
            self._show_applicable()
        else:  # the first time, or a key never built: rebuild
            self.call_after_refresh(self._rebuild)

    async def _rebuild(self) -> None:
        await self.recompose()
        self._show_applicable()

    def _show_applicable(self) -> None:
        """Display exactly the keys that apply now."""
        shown = self._shown_actions()
        visible = 0
        for key in self.query_children(FooterKey):
            on = key.action in shown or key.has_class("-command-palette")
            if key.display != on:
                key.display = on
            visible += on and not key.has_class("-command-palette")
        self.styles.grid_size_columns = visible
