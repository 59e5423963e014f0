"""Comparing rules versions (``engine.rules_data.RULES_VERSION``, e.g. ``"2026.11-1"``).

A rules version is ``YEAR.MONTH-REVISION``; versions compare as numbers,
part by part (``2026.11-10`` is after ``2026.11-9``), never as text.
"""

from __future__ import annotations

import re

_RULES_VERSION_RE = re.compile(r"([0-9]+)\.([0-9]+)-([0-9]+)")


def rules_version_key(text: object) -> tuple[int, int, int] | None:
    """``(year, month, revision)`` of a rules version, or None if ``text`` is not one."""
    if not isinstance(text, str):
        return None
    match = _RULES_VERSION_RE.fullmatch(text.strip())
    if match is None:
        return None
    return int(match[1]), int(match[2]), int(match[3])


def is_newer_rules(theirs: object, ours: str) -> bool:
    """True if rules version ``theirs`` is later than ``ours``. A version that
    is not of the form ``YEAR.MONTH-REVISION`` is never newer (the rules then
    decide whether the save is readable)."""
    a, b = rules_version_key(theirs), rules_version_key(ours)
    return a is not None and b is not None and a > b
