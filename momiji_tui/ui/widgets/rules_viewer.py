"""A Markdown viewer that can open at a numbered section of the rules.

Textual's ``MarkdownViewer`` fills its document after it mounts (the
document's ``update`` runs in a worker); a jump asked for before then has
no heading to scroll to. ``RulesViewer.goto_section`` remembers the section
and scrolls to it when the document's table of contents arrives
(``Markdown.TableOfContentsUpdated``, public API), so a key pressed early
waits instead of failing.
"""

from __future__ import annotations

from textual.widgets import Markdown, MarkdownViewer

from ..models.rules_sections import find_heading


class RulesViewer(MarkdownViewer):
    """A ``MarkdownViewer`` with ``goto_section("4.2")``."""

    def __init__(self, markdown: str, *, section: str | None = None, **kwargs: object) -> None:
        """``section``: the numbered section (``"4.2"``) to open at, if any."""
        super().__init__(markdown, **kwargs)  # type: ignore[arg-type]
        self.pending: str | None = section
        self.shown: str | None = None  # the section last scrolled to

    def on_markdown_table_of_contents_updated(self, message: Markdown.TableOfContentsUpdated) -> None:
        """The document has its headings: go to the section asked for before."""
        if self.pending is not None:
            self.call_after_refresh(self.goto_section, self.pending)

    def goto_section(self, section: str) -> bool:
        """Scroll so the heading of ``section`` (``"4.2"``; a section without
        a heading of its own: its parent's, ``shown_section``) is at the top;
        ``shown`` says which.
        Before the document is filled, the section is kept and gone to when
        it is (returns False then, as for a section the rules do not have)."""
        if not self.is_mounted:
            self.pending = section
            return False
        toc = [(title, block_id) for _level, title, block_id in self.document.table_of_contents if block_id]
        found = find_heading(toc, section)
        if found is None:
            self.pending = section if not toc else None
            return False
        block_id, self.shown = found
        self.pending = None
        self.document.query_one(f"#{block_id}").scroll_visible(top=True, animate=False)
        return True
