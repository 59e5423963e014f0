"""The rules' sections and the citations that name them (no Textual).

Messages and forms cite the rules of record as ``RULES §4.2``; the in-app
rules (docs/RULES.md, ``paths.rules_text``) are headed ``### 4.2 Play
leaf cards`` or ``## 3. The turn``. ``cited_section`` finds the section a
text names, ``section_of`` the section a heading starts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_CITATION = re.compile(r"RULES\s+§\s*(\d+(?:\.\d+)*)")
_MORE = re.compile(r"^(?:\s*(?:,|and|–|-)\s*§\s*(\d+(?:\.\d+)*))")
_HEADING = re.compile(r"^(\d+(?:\.\d+)*)\.?(?:\s|$)")


def cited_sections(text: str) -> list[str]:
    """Every section ``text`` cites, in order: ``"(RULES §3, §4.4)"`` →
    ``["3", "4.4"]`` (a ``§`` following a citation belongs to it)."""
    out: list[str] = []
    for match in _CITATION.finditer(text):
        out.append(match.group(1))
        rest = text[match.end():]
        while (more := _MORE.match(rest)) is not None:
            out.append(more.group(1))
            rest = rest[more.end():]
    return out


def cited_section(text: str) -> str | None:
    """The first section ``text`` cites (``"4.2"``), or None."""
    found = cited_sections(text)
    return found[0] if found else None


def section_of(heading: str) -> str | None:
    """The section number a heading starts with (``"4.2 Play leaf cards"`` →
    ``"4.2"``, ``"3. The turn"`` → ``"3"``), or None (``"Rules versions"``)."""
    match = _HEADING.match(heading.strip())
    return match.group(1) if match else None


def section_headings(markdown: str) -> dict[str, str]:
    """Each numbered section of a Markdown document and its heading's text
    (without the ``#`` marks): ``{"4.2": "4.2 Play leaf cards **[house]**", …}``."""
    out: dict[str, str] = {}
    for line in markdown.splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip()
            number = section_of(title)
            if number is not None and number not in out:
                out[number] = title
    return out


def shown_section(numbers: Iterable[str], section: str) -> str | None:
    """The section that shows ``section`` among the headed ``numbers``: itself,
    else its nearest headed parent (RULES §5 numbers its steps "1. Hand
    limit" without a heading of their own: §5.1 is shown as §5), else None."""
    have = set(numbers)
    parts = section.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in have:
            return candidate
        parts.pop()
    return None


def find_heading(headings: Iterable[tuple[str, str]], section: str) -> tuple[str, str] | None:
    """The id of the heading of ``(title, id)`` pairs that shows ``section``
    (``shown_section``), and the section it starts; None when none does."""
    ids: dict[str, str] = {}
    for title, block_id in headings:
        number = section_of(title)
        if number is not None:
            ids.setdefault(number, block_id)
    shown = shown_section(ids, section)
    return (ids[shown], shown) if shown is not None else None


__all__ = ["cited_section", "cited_sections", "find_heading", "section_headings", "section_of", "shown_section"]
