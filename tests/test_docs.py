"""The rules the code cites ship with it: docs/RULES.md is the rules of record."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED_RULES = ROOT.parent / "shared" / "RULES.md"


def _section_headings(text: str) -> list[str]:
    import re

    return re.findall(r"^##+ (\d+(?:\.\d+)?)", text, flags=re.M)


def test_docs_rules_keeps_every_section_of_the_rules_it_began_from():
    """docs/RULES.md is the rules of record: it began as shared/RULES.md and may
    change [house] values by measurement, but it never drops a section."""
    if not SHARED_RULES.is_file():
        pytest.skip("the team's shared/RULES.md is not beside this checkout")
    ours = _section_headings((ROOT / "docs" / "RULES.md").read_text())
    theirs = _section_headings(SHARED_RULES.read_text())
    assert theirs, "shared/RULES.md has no numbered sections"
    assert [s for s in theirs if s not in ours] == [], "docs/RULES.md lost sections of the rules it began from"


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


# ------------------------------------------------------------- the documents
DOCS = ROOT / "docs"
README = ROOT / "README.md"


def _headings(path: Path) -> list[str]:
    import re

    return [h.strip() for h in re.findall(r"^#+ (.+)$", path.read_text(), flags=re.M)]


def _section(path: Path, heading: str) -> str:
    """The text under ``## heading`` up to the next heading of any level."""
    import re

    text = path.read_text()
    match = re.search(rf"^##+ {re.escape(heading)}\n(.*?)(?=^#)", text + "\n#", flags=re.M | re.S)
    assert match, f"{path.name} has no section {heading!r}"
    return match.group(1)


def test_readme_is_a_players_page_of_at_most_200_lines():
    """README: what it is, the two commands, a turn, the keys, the commands, links."""
    text = README.read_text()
    assert len(text.splitlines()) <= 200
    for heading in ("Play", "Test", "How a turn goes", "Keys at the table", "Commands"):
        assert heading in _headings(README), heading
    for operator_word in ("fail2ban", "systemd", "pg_dump", "--max-startups", "LISTEN"):
        assert operator_word not in text, f"{operator_word!r} is for operators: docs/SERVER.md"


def test_readme_links_point_at_files_in_the_repository():
    import re

    links = re.findall(r"\]\(([^)#]+)\)", README.read_text())
    assert {"docs/RULES.md", "docs/SERVER.md", "docs/ARCHITECTURE.md", "docs/PERFORMANCE.md"} <= set(links)
    assert [link for link in links if not (ROOT / link).is_file()] == []


def test_readme_commands_are_the_ones_ci_runs():
    """The README's install-and-test command is the one `.ci/run` runs (`-q` aside),
    and its play command installs the package and starts the `momiji` script."""
    import re
    import tomllib

    blocks = re.findall(r"```sh\n(.*?)\n```", README.read_text(), flags=re.S)
    play = _section(README, "Play")
    test = _section(README, "Test")
    play_command = next(b for b in blocks if b in play)
    test_command = next(b for b in blocks if b in test)
    assert play_command == "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/momiji"
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert "momiji" in scripts
    ci = (ROOT / ".ci" / "run").read_text().replace("pip install -q ", "pip install ")
    assert test_command in ci.splitlines(), "README's test command and .ci/run are out of step"


def test_server_doc_holds_what_operators_need():
    """Hosting moved out of the README: SERVER.md has every operator's section, once."""
    headings = _headings(DOCS / "SERVER.md")
    for heading in (
        "Connecting", "Running a server", "Every core", "The data dir", "Algorithms", "The server's log",
        "Running it as a service", "Playing on a database (PostgreSQL)", "Several hosts",
        "What an operator must know", "The shared lobby on a database",
    ):
        assert headings.count(heading) == 1, heading
    assert "failregex = momiji:" in _section(DOCS / "SERVER.md", "The server's log")
    assert "[Service]" in _section(DOCS / "SERVER.md", "Running it as a service")


CITED_DOCS = {"README": README, "SERVER": DOCS / "SERVER.md", "ARCHITECTURE": DOCS / "ARCHITECTURE.md",
              "PERFORMANCE": DOCS / "PERFORMANCE.md"}


def _sources() -> list[Path]:
    return sorted(p for folder in ("momiji_tui", "tests", "bench") for p in (ROOT / folder).rglob("*.py"))


def test_every_document_section_cited_in_code_and_tests_exists():
    """``ARCHITECTURE "The engine"``, ``SERVER "Several hosts"``, ``README "…"`` and
    ``PERFORMANCE "…"`` name a heading of that document (a comment may break the
    name over two lines)."""
    import re

    cited = 0
    missing = []
    for path in _sources():
        text = path.read_text()
        for doc, name in re.findall(r"\b(README|SERVER|ARCHITECTURE|PERFORMANCE) \"([^\"]+)\"", text):
            name = " ".join(name.split())
            if name == "…":  # how a citation is written, as in this docstring
                continue
            cited += 1
            if name not in _headings(CITED_DOCS[doc]):
                missing.append(f"{path.relative_to(ROOT)}: {doc} {name!r}")
    assert missing == []
    assert cited > 25


def test_code_and_tests_cite_only_documents_in_the_repository():
    """No citation of the team's DESIGN or STYLE notes: they are not in a clone."""
    import re

    outside = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in _sources()
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if re.search(r"\b(DESIGN|STYLE) [\"]", line)
    ]
    assert outside == []


def test_architecture_has_a_section_per_layer():
    headings = _headings(DOCS / "ARCHITECTURE.md")
    for heading in ("Layers", "Module sizes", "The engine", "Saves", "Bots", "Sessions", "SSH", "The UI"):
        assert heading in headings, heading


def test_performance_is_the_current_contract_in_at_most_300_lines():
    """PERFORMANCE.md: the targets, the bench commands, the current figures and
    what the fast paths rely on, before a last "Measurements" section where
    new figures are appended (the history is in git)."""
    path = DOCS / "PERFORMANCE.md"
    text = path.read_text()
    contract, _, _ = text.partition("\n## Measurements\n")
    assert len(contract.splitlines()) <= 300
    headings = _headings(path)
    for heading in ("Targets", "Running the benchmarks", "What the fast paths rely on"):
        assert heading in headings, heading
    assert [h for h in headings if text.count(f"\n## {h}\n")][-1] == "Measurements", "Measurements is the last section"
    assert "python -m bench" in _section(path, "Running the benchmarks")


# Files being rewritten on other branches when the notes were swept; each is
# cleaned as it is rewritten, then taken off this list.


def test_docstrings_and_comments_say_what_the_code_is_not_which_issue_made_it():
    """No "issue N" or "k-th round" in code, tests or bench: history belongs in
    commit messages."""
    import re

    note = re.compile(r"\bissue \d+|\b(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth"
                      r"|eleventh|twelfth|thirteenth) round\b", re.I)
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in _sources()
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if note.search(line)
    ]
    assert found == []
