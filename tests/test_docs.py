"""The rules the code cites ship with it: docs/RULES.md is the rules of record."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED_RULES = ROOT.parent / "shared" / "RULES.md"


def test_docs_rules_is_the_rules_of_record():
    if not SHARED_RULES.is_file():
        pytest.skip("the team's shared/RULES.md is not beside this checkout")
    assert (ROOT / "docs" / "RULES.md").read_text() == SHARED_RULES.read_text(), (
        "docs/RULES.md differs from shared/RULES.md: copy the rules of record again")


def test_every_rules_section_cited_in_the_code_exists():
    import re

    rules = (ROOT / "docs" / "RULES.md").read_text()
    sections = set(re.findall(r"^##+ (\d+(?:\.\d+)?)", rules, flags=re.M))
    cited = set()
    for path in (ROOT / "momiji_tui").rglob("*.py"):
        cited |= set(re.findall(r"RULES §(\d+(?:\.\d+)?)", path.read_text()))
    missing = {c for c in cited if c not in sections and c.split(".")[0] not in sections}
    assert not missing, f"the code cites sections RULES.md does not have: {sorted(missing)}"
    assert len(cited) > 20
