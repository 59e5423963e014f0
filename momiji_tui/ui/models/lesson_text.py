"""The tutorial's step panel as text (no Textual): which step, what to do
now and why (``session/tutorial.py`` holds the words; RULES sections cited
there)."""

from __future__ import annotations

from rich.text import Text

from ...session.tutorial_table import Lesson

#: The table regions a step may highlight (their widget ids).
HIGHLIGHTABLE = ("display", "objectives", "opponents", "you", "hand")


def lesson_title(lesson: Lesson, skip_key: str, menu_key: str, width: int = 0) -> str:
    """The panel's title: "Lesson 2/7 · Start a pile · N do it for me · q leave"
    (the leave key left out when the title would not fit in ``width``
    cells; 0: no limit; the footer names that key too); past the last
    step, the way to the score sheet."""
    step = lesson.step
    if step is None:
        return "Learn to play · the score sheet"
    title = f"Lesson {lesson.number}/{lesson.total} · {step.title} · {skip_key} do it for me"
    leave = f" · {menu_key} leave"
    return title + leave if not width or len(title + leave) <= width else title


def lesson_text(lesson: Lesson) -> Text:
    """The panel's text: what to do now (bold, after ▶), then why, then
    how to read the table's marks (dim) when the step has that line."""
    text = Text()
    if lesson.step is None:
        return text
    if lesson.beat_text:
        text.append("▶ " + lesson.beat_text + "\n", style="bold")
    text.append(lesson.step.text)
    if lesson.step.reading:
        text.append("\n" + lesson.step.reading, style="dim")
    return text


def highlighted(lesson: Lesson) -> frozenset[str]:
    """The ids of the regions the step talks about."""
    return frozenset(lesson.step.highlight) if lesson.step is not None else frozenset()
