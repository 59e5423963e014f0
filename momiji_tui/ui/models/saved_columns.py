"""Saved games as columns that fit a width: the saved-games screen's table
and ``momiji list``. Pure: plain strings, no Textual.

A column that does not fit is left out of the table (the scores never are)
and told under it instead: on the screen for the highlighted game, in
``momiji list`` on an indented line under each game, wrapped to the width.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from ...session.saves import SavedGameRow

#: Every column, in the order shown: key → heading.
COLUMNS: dict[str, str] = {"game": "Game", "started": "Started", "played": "Played", "status": "Status",
                           "turn": "Turn", "scores": "Scores", "seats": "Seats"}
#: Which columns stay first when the width is short (the scores come second).
KEEP_ORDER = ("game", "scores", "status", "turn", "played", "started", "seats")
#: Columns between which ``momiji list`` puts two spaces; the screen's table
#: pads each cell by one on either side.
GAP = 2


def cells(row: SavedGameRow) -> dict[str, str]:
    """The row's text by column key."""
    return {"game": row.game_id, "started": row.started, "played": row.played, "status": row.status,
            "turn": row.turn, "scores": row.scores,
            "seats": f"{row.seats} · {row.hints}" if row.hints else row.seats}


def column_widths(rows: Sequence[SavedGameRow]) -> dict[str, int]:
    """Each column's width: its widest cell or its heading."""
    table = [cells(r) for r in rows]
    return {key: max([len(heading), *(len(c[key]) for c in table)]) for key, heading in COLUMNS.items()}


def fit_columns(rows: Sequence[SavedGameRow], width: int, gap: int = GAP) -> list[str]:
    """The column keys that fit in ``width`` characters (each column takes
    its width plus ``gap``), in display order. The game and its scores are
    always in; the others join by ``KEEP_ORDER`` while they fit."""
    widths = column_widths(rows)
    chosen = ["game", "scores"]
    used = sum(widths[k] + gap for k in chosen)
    for key in KEEP_ORDER:
        if key not in chosen and used + widths[key] + gap <= width:
            chosen.append(key)
            used += widths[key] + gap
    return [key for key in COLUMNS if key in chosen]


def hidden_text(row: SavedGameRow, shown: Sequence[str]) -> str:
    """What the table leaves out of ``row``, in words (``seats You, Kaede
    (hard) · started 2026-12-01 04:40``), or ""."""
    values = cells(row)
    return " · ".join(f"{COLUMNS[k].lower()} {values[k]}" for k in COLUMNS if k not in shown and values[k])


def _wrapped(text: str, width: int, indent: str) -> list[str]:
    """``text`` wrapped to ``width`` (words and paths are never split)."""
    return textwrap.wrap(text, max(width, len(indent) + 20), initial_indent=indent, subsequent_indent=indent,
                         break_long_words=False, break_on_hyphens=False)


def list_lines(rows: Sequence[SavedGameRow], width: int | None) -> list[str]:
    """``momiji list``'s lines for ``width`` columns (None: no limit, one line
    per game). Columns that do not fit go on indented lines under their
    game; a damaged file's problem and the notes follow, wrapped too."""
    widths = column_widths(rows)
    shown = list(COLUMNS) if width is None else fit_columns(rows, width)
    last = shown[-1]
    lines = ["  ".join(COLUMNS[k].lower().ljust(0 if k == last else widths[k]) for k in shown).rstrip()]
    for row in rows:
        values = cells(row)
        line = "  ".join(values[k].ljust(0 if k == last else widths[k]) for k in shown).rstrip()
        lines.extend(_wrapped(line, width, "") if width is not None and len(line) > width else [line])
        rest = hidden_text(row, shown)
        if rest:
            lines.extend(_wrapped(rest, width or len(rest) + 4, "    "))
        extra = [row.problem] if row.problem else []
        if row.problem and row.path.name != f"{row.game_id}.jsonl":
            extra.append(f"The file was kept as {row.path}.")
        extra.extend(f"Note: {note}" for note in row.notes)
        for text in extra:
            lines.extend(_wrapped(text, width, "    ") if width is not None else [f"{'':24}{text}"])
    return lines
