"""Files the app ships inside its package: the stylesheets and the rules.

Both are package data of ``momiji_tui`` (``momiji_tui/styles/*.tcss`` and
``momiji_tui/RULES.md``, links in a source checkout to the top-level
``styles/`` and ``docs/RULES.md``), found through :mod:`importlib.resources`,
so a wheel, ``pip install .`` and ``pip install -e .`` find the same files.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

STYLESHEETS = ("momiji.tcss",)
_PACKAGE = "momiji_tui"


def _packaged(*parts: str) -> Path:
    """The file system path of a file shipped in the package (raises
    ``FileNotFoundError`` if this installation lacks it, e.g. a zip import)."""
    resource = files(_PACKAGE).joinpath(*parts)
    path = Path(str(resource))
    if not isinstance(resource, Path) or not path.exists():
        raise FileNotFoundError(f"momiji-tui's {'/'.join(parts)} is missing from this installation ({path})")
    return path


def styles_dir() -> Path:
    """The folder holding the ``.tcss`` files (raises ``FileNotFoundError``)."""
    return _packaged("styles")


def stylesheets() -> list[Path]:
    """The stylesheets, in load order (raises ``FileNotFoundError``)."""
    folder = styles_dir()
    return [folder / name for name in STYLESHEETS]


def rules_path() -> Path:
    """The rules of record (``docs/RULES.md``, Markdown, UTF-8) as shipped
    in the package (raises ``FileNotFoundError``)."""
    return _packaged("RULES.md")


def rules_text() -> str:
    """The text of the rules of record (see :func:`rules_path`)."""
    return rules_path().read_text(encoding="utf-8")
