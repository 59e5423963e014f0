"""Note 8 of ``_textual_private`` (kept in its own module for its size):
``DirtyLinesCompositor`` draws a repaint from the changed lines only, and
``QuickChopsUpdate`` writes it with the same bytes as Textual's
``ChopsUpdate`` (issue 13, seventh, ninth and tenth rounds). The note in
``_textual_private`` says which Textual internals it relies on;
``tests/ui/test_dirty_lines.py`` and ``tests/ui/test_dirty_lines_fuzz.py``
compare every update with Textual's compositor.
"""

from __future__ import annotations

import functools
from bisect import bisect_left, bisect_right
from typing import ClassVar

from rich.console import Console
from rich.control import Control
from textual._compositor import ChopsUpdate, Compositor
from textual.geometry import Region
from textual.strip import Strip

__all__ = ["DirtyLinesCompositor", "QuickChopsUpdate"]


class DirtyLinesCompositor(Compositor):
    """Textual's compositor, but a partial update renders only the lines of
    each widget that a dirty span reaches (note 8)."""

    SKIP_COVERED: ClassVar[bool] = True
    """Leave out a widget's line where every chop it would fill that has
    cells written is filled already by widgets in front (off: render it and
    throw its pieces away, as Textual does; for ``bench/key_parts.py covered``)."""

    def render_partial_update(self) -> ChopsUpdate | None:
        """The changed spans drawn: an update that writes the same bytes as
        Textual's for the same dirty regions (its chops that write no cells
        may differ: left empty, or an empty strip); None when nothing is
        dirty. Never raises for a composed screen."""
        update_regions = self._dirty_regions.copy()  # private, note 8
        self._dirty_regions.clear()
        if not update_regions:
            return None
        spans = list(self._regions_to_spans(update_regions))  # private, note 8
        cuts = self.cuts
        line_spans: dict[int, list[tuple[int, int]]] = {}
        for y, x1, x2 in spans:
            if 0 <= y < len(cuts):
                line_spans.setdefault(y, []).append((x1, x2))
        dirty_ys = sorted(line_spans)
        chops: list[dict[int, Strip | None]] = [dict.fromkeys(cut_set[:-1]) for cut_set in cuts]
        skip_covered = self.SKIP_COVERED
        open_cuts = _cuts_to_fill(cuts, line_spans, chops) if skip_covered else {}
        for widget, (region, clip) in self.visible_widgets.items():
            x, y, width, height = region.intersection(clip)
            if not (width and height):
                continue
            right = x + width
            lines = dirty_ys[bisect_left(dirty_ys, y):bisect_left(dirty_ys, y + height)]
            if skip_covered:
                # Drawn where a chop whose cells are written, in [x, right), is not yet filled by
                # a widget in front; else its pieces would be thrown away (the containers behind).
                ys = [line for line in lines
                      if (at := bisect_left(to_fill := open_cuts[line], x)) < len(to_fill) and to_fill[at] < right]
            else:
                # ChopsUpdate.render_segments writes a chop [cut, end) of a span (x1, x2) when
                # cut <= x2 and end > x1: a widget has such a chop when x <= x2 and right > x1.
                ys = [line for line in lines if any(x <= x2 and right > x1 for x1, x2 in line_spans[line])]
            for first, last in _runs(ys):
                strips = widget.render_lines(Region(x - region.x, first - region.y, width, last - first + 1))
                for line, strip in zip(range(first, last + 1), strips, strict=False):
                    chops_line = chops[line]
                    final_cuts = [cut for cut in cuts[line] if right >= cut >= x]
                    for cut, piece in zip(final_cuts, strip.divide([cut - x for cut in final_cuts[1:]]),
                                          strict=False):
                        if chops_line.get(cut) is None:  # front to back: the first widget wins
                            chops_line[cut] = piece
                    if skip_covered:
                        open_cuts[line] = [cut for cut in open_cuts[line] if chops_line[cut] is None]
        return QuickChopsUpdate(chops, spans, [cut_set[1:] for cut_set in cuts])


@functools.lru_cache(maxsize=1 << 16)
def _cursor_to(x: int, y: int) -> str:
    """The bytes that move the cursor to column ``x``, row ``y`` (as Rich's
    ``Control.move_to`` writes them), made once per cell."""
    return Control.move_to(x, y).segment.text


class QuickChopsUpdate(ChopsUpdate):
    """Textual's ``ChopsUpdate`` with the same bytes, each cursor move made
    once per cell instead of once per chop written (note 8)."""

    def render_segments(self, console: Console) -> str:
        """The update as terminal bytes: ``ChopsUpdate.render_segments``."""
        sequences: list[str] = []
        append = sequences.append
        chops, chop_ends = self.chops, self.chop_ends
        last_y = self.spans[-1][0]
        for y, x1, x2 in self.spans:
            for end, (x, strip) in zip(chop_ends[y], chops[y].items()):  # noqa: B905 (as Textual's)
                if strip is None or x > x2 or end <= x1:
                    continue
                append(_cursor_to(x, y))
                append(strip.render(console) if x2 > x >= x1 and end <= x2
                       else strip.crop(0, min(end, x2) - x).render(console))
            if y != last_y:
                append("\n")
        return "".join(sequences)


_NO_CELLS = Strip([], 0)


def _cuts_to_fill(cuts: list[list[int]], line_spans: dict[int, list[tuple[int, int]]],
                  chops: list[dict[int, Strip | None]]) -> dict[int, list[int]]:
    """For each dirty line, the cuts (sorted) whose chop [cut, end) has cells
    written by ``ChopsUpdate.render_segments``: it writes a chop of a span
    (x1, x2) cropped to ``min(end, x2) - cut`` when ``cut <= x2`` and
    ``end > x1``, so cells when also ``cut < x2``. A chop that starts where
    a span ends is written with no cells: its strip does not matter, so it
    is filled here with an empty one (the same bytes) and needs no widget."""
    to_fill: dict[int, list[int]] = {}
    for line, spans in line_spans.items():
        line_cuts = cuts[line]
        last = len(line_cuts) - 1  # the screen's width: it starts no chop
        drawn: set[int] = set()
        empty: list[int] = []
        for x1, x2 in spans:
            start = bisect_right(line_cuts, x1) - 1  # the chop holding x1 (the first cut is 0)
            stop = bisect_left(line_cuts, x2)  # chops from here start at x2 or after
            drawn.update(line_cuts[start:min(stop, last)])
            if stop < last and line_cuts[stop] == x2:
                empty.append(x2)
        chops_line = chops[line]
        for cut in empty:
            if cut not in drawn:
                chops_line[cut] = _NO_CELLS
        to_fill[line] = sorted(drawn)
    return to_fill


def _runs(lines: list[int]) -> list[tuple[int, int]]:
    """Sorted line numbers as runs of consecutive lines, (first, last) each."""
    runs: list[tuple[int, int]] = []
    for line in lines:
        if runs and runs[-1][1] == line - 1:
            runs[-1] = (runs[-1][0], line)
        else:
            runs.append((line, line))
    return runs
