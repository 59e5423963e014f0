"""Where the app's stylesheets are: ``styles/`` at the top of a source checkout,
or the copy installed as package data ``momiji_tui/styles``."""

from __future__ import annotations

from pathlib import Path

STYLESHEETS = ("momiji.tcss",)


def styles_dir() -> Path:
    """The folder holding the ``.tcss`` files (raises ``FileNotFoundError``)."""
    here = Path(__file__).resolve()
    for candidate in (here.parents[3] / "styles", here.parents[2] / "styles"):
        if (candidate / STYLESHEETS[0]).is_file():
            return candidate
    raise FileNotFoundError("momiji-tui's styles/ folder is missing from this installation")


def stylesheets() -> list[Path]:
    """The stylesheets, in load order."""
    folder = styles_dir()
    return [folder / name for name in STYLESHEETS]


RULES_FILE = "RULES.md"


def rules_markdown() -> str:
    """The whole of docs/RULES.md (the rules of record) as Markdown text:
    ``docs/`` at the top of a source checkout, or the copy installed as
    package data ``momiji_tui/docs``. Raises ``FileNotFoundError`` when
    neither is there."""
    here = Path(__file__).resolve()
    for candidate in (here.parents[3] / "docs", here.parents[2] / "docs"):
        path = candidate / RULES_FILE
        if path.is_file():
            return path.read_text(encoding="utf-8")
    raise FileNotFoundError("momiji-tui's docs/RULES.md is missing from this installation")
