"""The end-scoring sheet as text (RULES §7): rows of points per seat, the
winner in words, and the pace of its reveal. Pure: rich renderables, no Textual."""

from __future__ import annotations

from rich.table import Table as RichTable
from rich.text import Text

from ...engine.rules_data import OBJECTIVE_NAMES
from ...engine.scoring import ScoreSheet
from .render import TORII, TYPE_INK


def reveal_interval(bot_delay: float) -> float | None:
    """Seconds between two rows of the reveal at the app's bot pace (0.4 to
    1.2 s), or None to show the sheet whole (no pacing)."""
    return min(max(bot_delay, 0.4), 1.2) if bot_delay > 0 else None


def winner_sentence(sheet: ScoreSheet, names: list[str], me: int | None) -> str:
    """The result in words, naming the tiebreak when it decided (RULES §7).
    ``me``: the seat shown as "You" (None: none, as in a replay); a winner
    named "You" takes "win" either way."""
    def who(i: int) -> str:
        return "You" if i == me else names[i]

    total = sheet.seats[sheet.winners[0]].total
    if len(sheet.winners) > 1:
        tied = " and ".join(who(i) for i in sheet.winners)
        acorns = sheet.seats[sheet.winners[0]].acorns
        return (f"{tied} share the victory with {total} points: tied on points, and on acorns "
                f"({acorns} each) (RULES §7).")
    w = sheet.winners[0]
    second_person = who(w) == "You"
    verb = "win" if second_person else "wins"
    if sheet.tiebreak_used:
        others = [i for i, s in enumerate(sheet.seats) if s.total == total and i != w]
        rivals = " and ".join(who(i) for i in others)
        return (f"{who(w)} {verb} on the tiebreak: tied with {rivals} on {total} points, "
                f"{'you hold' if second_person else 'holding'} more acorns ({sheet.seats[w].acorns}) (RULES §7).")
    return f"{who(w)} {verb} with {total} points."


def score_steps(sheet: ScoreSheet, objectives_owned: dict[str, int]) -> int:
    """How many rows the sheet reveals: piles, acorns, each objective, total."""
    return 3 + len(objectives_owned)


#: Marks the owner's cell of an objective row on a narrow sheet (its label then has no owner).
OWNER_MARK = "◆"


def _row_groups(sheet: ScoreSheet, names: list[str], objectives_owned: dict[str, int],
                owner_in_cell: bool = False) -> list[list[tuple]]:
    """The sheet's rows in reveal order: piles, acorns, each objective, total.
    Each group is a list of ``(label, cells, end_section)``. An objective's
    owner is named in its label, or (``owner_in_cell``) marked in its cell."""
    groups: list[list[tuple]] = []
    piles = []
    longest = max((len(s.piles) for s in sheet.seats), default=0)
    for k in range(max(longest, 1)):
        cells = []
        for s in sheet.seats:
            if k < len(s.piles):
                p = s.piles[k]
                cell = Text(p.leaf_type, style=TYPE_INK[p.leaf_type])
                cell.append(f" {p.top_value}×{p.cards}={p.points}" + (f" {TORII}" if p.closed else ""))
                cells.append(cell)
            else:
                cells.append(Text("—" if k == 0 else "", style="dim"))
        piles.append((Text("Piles" if k == 0 else ""), cells, False))
    piles.append((Text("  piles total", style="dim"),
                  [Text(str(sum(p.points for p in s.piles)), style="dim") for s in sheet.seats], True))
    groups.append(piles)
    groups.append([(Text("Acorns"), [Text(str(s.acorns)) for s in sheet.seats], False)])
    for objective, owner in objectives_owned.items():
        cells = []
        for i, s in enumerate(sheet.seats):
            o = next(x for x in s.objectives if x.objective == objective)
            cell = Text(f"{o.points} {'✓' if o.met else '✗'}") + Text(f" ({o.measure})", style="dim")
            if owner_in_cell:
                cell.append(f" {OWNER_MARK}" if i == owner else "  ", style="bold")
            cells.append(cell)
        label = OBJECTIVE_NAMES[objective] + ("" if owner_in_cell else f" [{names[owner]}]")
        groups.append([(Text(label), cells, False)])
    groups.append([(Text("Total", style="bold"), [Text(str(s.total), style="bold") for s in sheet.seats], True)])
    return groups


def score_table(sheet: ScoreSheet, names: list[str], objectives_owned: dict[str, int],
                shown: int | None = None, width: int | None = None) -> RichTable:
    """Rows = sources of points, columns = seats (RULES §7); only the first
    ``shown`` steps (see ``score_steps``) are filled in. Column widths are
    those of the whole sheet, so the table does not jump as rows appear.
    When the sheet is wider than ``width`` columns, an objective's owner is
    marked ``OWNER_MARK`` in its cell instead of named in the label, and the
    seats' names and the labels wrap (never a score cell), so every seat's
    column stays in view."""
    groups = _row_groups(sheet, names, objectives_owned)
    shown = len(groups) if shown is None else shown
    done = shown >= len(groups)
    headers = [name + (" ★" if i in sheet.winners else "") for i, name in enumerate(names)]
    label_width = max(r[0].cell_len for g in groups for r in g)
    cell_widths = [max(r[1][i].cell_len for g in groups for r in g) for i in range(len(names))]
    widths = [label_width] + [max(len(h), c) for h, c in zip(headers, cell_widths, strict=True)]
    narrow = width is not None and sum(widths) + 3 * len(widths) + 1 > width
    if narrow:  # owners marked in their cells, names and labels wrap
        groups = _row_groups(sheet, names, objectives_owned, owner_in_cell=True)
        widths = _narrow_widths(groups, headers, (width or 0) - 3 * len(widths) - 1)
    table = RichTable(expand=False, show_lines=False, header_style="bold", pad_edge=True)
    table.add_column("", min_width=widths[0], max_width=widths[0] if narrow else None, overflow="fold")
    for i, name in enumerate(names):
        table.add_column(Text(headers[i] if done else name), justify="right", min_width=widths[i + 1],  # never markup
                         max_width=widths[i + 1] if narrow else None, overflow="fold")
    for group in groups[:shown]:
        for label, cells, end in group:
            table.add_row(label, *cells, end_section=end)
    return table


def _narrow_widths(groups: list[list[tuple]], headers: list[str], room: int) -> list[int]:
    """Column widths that share ``room`` (the width less the borders): each
    seat's cells whole, the labels what is left (at least 8), then the
    seats' names as far as the room goes."""
    cells = [max(r[1][i].cell_len for g in groups for r in g) for i in range(len(headers))]
    label = max(r[0].cell_len for g in groups for r in g)
    label = max(8, min(label, room - sum(cells)))
    left = room - label - sum(cells)
    for i, header in enumerate(headers):
        grow = max(0, min(len(header) - cells[i], left))
        cells[i] += grow
        left -= grow
    return [label, *cells]
