"""DESIGN "Layers": the engine and the bots stay pure, imports point down."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_import_contracts_hold():
    """import-linter contracts in pyproject.toml (engine/bots: no textual,
    asyncssh, platformdirs, files, clocks or network; layers point down)."""
    result = subprocess.run(
        [sys.executable, "-c", "from importlinter.cli import lint_imports_command; lint_imports_command()"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "0 broken" in result.stdout


def test_engine_and_bots_import_without_textual():
    """At run time too: importing the engine and bots loads no UI or SSH code."""
    code = (
        "import sys, momiji_tui.engine, momiji_tui.bots, momiji_tui.engine.narrate\n"
        "bad = [m for m in ('textual', 'rich', 'asyncssh', 'platformdirs') if m in sys.modules]\n"
        "print(bad); sys.exit(1 if bad else 0)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def test_cli_help_does_not_import_textual():
    """``momiji --help`` stays fast: the CLI imports the app lazily."""
    code = (
        "import sys\nfrom momiji_tui import cli\n"
        "try:\n    cli.main(['--help'])\nexcept SystemExit:\n    pass\n"
        "sys.exit(1 if 'textual' in sys.modules else 0)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "momiji" in result.stdout
