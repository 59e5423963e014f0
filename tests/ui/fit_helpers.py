"""Helpers for the fitting tests: finished games with 4 seats and
the longest names allowed, and what the terminal shows.

(A plain module, not a conftest, so its name is unique across the test tree.)
"""

from __future__ import annotations

from pathlib import Path

from momiji_tui.bots import make_bot
from momiji_tui.session.table import BOT, HUMAN, SeatConfig, Table

#: 4 seats, the longest names the new-game form allows (16 characters) and a
#: bot named as the lobby names them ("Kaede (normal)").
LONG_SEATS = [SeatConfig("Wwwwwwwwwwwwwwww", HUMAN), SeatConfig("Kaede (normal)", BOT, "normal"),
              SeatConfig("Mmmmmmmmmmmmmmmm", BOT, "hard"), SeatConfig("Ginnan-Momijigar", BOT, "easy")]


def long_game(data_dir: Path, seed: int = 5, commands: int | None = None) -> Path:
    """A 4-seat game with LONG_SEATS saved in ``data_dir``, played by easy
    bots for ``commands`` moves (None: to the end); its path."""
    table = Table.new(list(LONG_SEATS), seed=seed, data_dir=data_dir)
    step = 0
    while not table.finished and (commands is None or step < commands):
        table.submit(make_bot("easy", seed=seed * 7919 + step).choose(table.view(table.current)))
        step += 1
    table.close()
    return table.log.path


def screen_lines(app) -> list[str]:
    """What the terminal shows now, line by line, as plain text."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def words_shown(app, text: str) -> bool:
    """True when every word of ``text`` is on screen whole."""
    shown = " ".join(screen_lines(app))
    return all(word in shown for word in text.split())



def cut_widgets(app) -> list[str]:
    """The widgets of the screen shown now that are cut at the right: a
    widget reaching past the terminal's edge, or one that scrolls sideways
    (content wider than it, e.g. a table's columns)."""
    width = app.size.width
    problems = []
    for widget in app.screen.walk_children(with_self=False):
        if not widget.display or not widget.visible or widget.region.area == 0:
            continue  # hidden, not laid out, or scrolled away
        if widget.region.right > width:
            problems.append(f"{widget!r} reaches column {widget.region.right} of {width}")
        if widget.is_scrollable and widget.max_scroll_x > 0:
            problems.append(f"{widget!r} scrolls {widget.max_scroll_x} columns sideways")
    return problems


def cut_words(app, texts) -> list[str]:
    """Which of ``texts`` is not on screen whole (each may wrap between words)."""
    return [text for text in texts if not words_shown(app, text)]
