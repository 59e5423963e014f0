"""A text's lines, as Rich's ``Text.split("\\n", allow_blank=True)`` gives
them, worked out in one pass. Pure: no Textual.

A region of the table compares its new text with the one shown line by
line, so every text it is handed is split into lines; Rich's ``split``
divides the text at both ends of every newline (``Text.divide``: each span
found by a binary search and cut to every piece it covers) and drops the
newline pieces: 60-100 µs for the hand, your row or the objectives at
200×60, on every key that changes them. ``split_lines`` gives the same lines
(characters, spans in the same order, base style, justify and overflow) by
walking each span once over the lines it covers. ``tests/ui/test_text_lines``
holds it equal to Rich's on random texts.
"""

from __future__ import annotations

from bisect import bisect_right

from rich.text import Span, Text


def split_lines(text: Text) -> tuple[Text, ...]:
    """The lines of ``text`` (split at each ``\\n``, the newline dropped, a
    blank line kept, a trailing newline giving a last blank line), each a
    new ``Text`` as ``text.split("\\n", allow_blank=True)`` makes it.
    ``text`` is not changed. Raises nothing."""
    plain = text.plain
    if "\n" not in plain:
        return (text.copy(),)
    parts = plain.split("\n")
    starts: list[int] = []  # each line's first offset in ``text``
    ends: list[int] = []  # each line's newline (or the text's end)
    offset = 0
    for part in parts:
        starts.append(offset)
        offset += len(part)
        ends.append(offset)
        offset += 1
    spans: list[list[Span]] = [[] for _ in parts]
    for span in text.spans:
        start, end, style = span
        first = bisect_right(starts, start) - 1  # the line the span starts on (starts[0] is 0)
        line_start, line_end = starts[first], ends[first]
        if end <= line_end:  # on one line (most spans)
            if end > start:
                spans[first].append(Span(start - line_start, end - line_start, style))
            continue
        for number in range(first, len(parts)):
            line_start, line_end = starts[number], ends[number]
            if line_start >= end:
                break
            left, right = max(start, line_start), min(end, line_end)
            if right > left:  # a span's empty remains are dropped, as ``Text.divide`` drops them
                spans[number].append(Span(left - line_start, right - line_start, style))
    style, justify, overflow = text.style, text.justify, text.overflow
    return tuple(Text(part, style=style, justify=justify, overflow=overflow, spans=line_spans)
                 for part, line_spans in zip(parts, spans, strict=True))
