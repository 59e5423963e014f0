"""Help: the rules in brief with RULES section numbers, every landscape
power, every objective, and the keys (the text is ``models/help_text.py``)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import Footer, Markdown, MarkdownViewer

from ...engine.rules_data import CURRENT_RULES, HouseRules
from ..models.help_text import KeyNamer, help_text
from ..models.host import host
from .table import TableScreen


def help_markdown(app: KeyNamer | None = None, rules: HouseRules = CURRENT_RULES) -> str:
    """The whole help text, keys as remapped in ``app`` (if given), the table
    screen's binding ids in the keys table, landscape costs under ``rules``."""
    return help_text(app, {b.id for b in TableScreen.BINDINGS if isinstance(b, Binding) and b.id}, rules)


class HelpScreen(ModalScreen[None]):
    """The rules summary, powers, objectives and keys; Esc closes. Letters
    jump to a section; wide windows show the table of contents."""

    BINDINGS = [
        Binding("escape,q,question_mark,f1", "close", "Close", id="help.close"),
        Binding("r", "jump('Momiji')", "Rules", id="help.rules"),
        Binding("k", "jump('Keys')", "Keys", id="help.keys"),
        Binding("l", "jump('Landscapes')", "Landscapes", id="help.landscapes"),
        Binding("o", "jump('Objective tokens')", "Objectives", id="help.objectives"),
        Binding("f2", "app.help('rules')", "Full rules", id="help.full_rules"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._jump_to: str | None = None  # a section asked for before the contents were laid out

    def compose(self) -> ComposeResult:
        game = host(self)  # RULES §4.5: the costs of the game at the table (its rules version), if any
        rules = game.table.view(None).rules if game.table is not None else CURRENT_RULES
        yield MarkdownViewer(help_markdown(game, rules), show_table_of_contents=self.app.size.width >= 110,
                             id="help")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        # A section letter pressed before the contents were laid out jumps when they are.
        for viewer in self.query(MarkdownViewer):  # none if the help closed as it opened
            self.watch(viewer.table_of_contents, "table_of_contents", lambda _contents: self._jump(), init=True)

    def action_jump(self, title: str) -> None:
        """Scroll to the first heading that starts with ``title``. Pressed
        before the help's contents are laid out (the help key and a letter
        in one burst of keys), the jump waits for them; once the help is
        closed, it does nothing."""
        self._jump_to = title
        self._jump()

    def _jump(self) -> None:
        title = self._jump_to
        document = self.query(Markdown).first() if self.is_active and self.query(Markdown) else None
        if title is None or document is None:
            return  # not composed yet (the jump waits), or closed
        for _level, heading, block_id in document.table_of_contents:
            if heading.startswith(title) and block_id:
                self._jump_to = None
                document.query_one(f"#{block_id}").scroll_visible(top=True, animate=False)
                return

    def action_close(self) -> None:
        """Close the help."""
        self.dismiss(None)
