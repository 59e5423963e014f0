"""The table's news line: the last-round banner and a one-line
summary of each other seat's latest turn, between your hand and the message
line. Takes its slice (``ui/models/turn_news.NewsSlice``), never the app."""

from __future__ import annotations

from rich.text import Text
from textual import events

from ..models.turn_news import NewsSlice, cut_lines, news_text
from .table_regions import Region


class NewsLine(Region[NewsSlice]):
    """The banner and the latest turn summaries, each on one line (cut with
    an ellipsis at the region's width, never wrapped): as tall as its lines."""

    def render_slice(self, data: NewsSlice) -> Text:
        return news_text(data, self.content_size.width)

    def show(self, text: Text) -> None:
        """Show ``text`` with each line cut to the region's width."""
        super().show(cut_lines(text, self.content_size.width))

    def on_resize(self, event: events.Resize) -> None:
        """Cut the lines again at the new width."""
        if self.data is not None:
            self.show(self.render_slice(self.data))
