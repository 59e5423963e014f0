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
