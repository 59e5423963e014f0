"""Installing the ordinary way: a built wheel in a fresh venv outside the
checkout starts the game (the stylesheets and the rules are package data).

The wheel is built from a copy of the source tree and installed with pip's
own configuration (its dependencies come from the package index pip is set
up with, as for any user); the venv has no access to the test venv's
packages. Measured on this machine: about 15 s in all (wheel ~5 s, venv and
install ~8 s, the app ~2 s), so it is marked slow and runs first.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Run by the installed venv's python, from a folder outside the checkout:
# opens a new game headless (Pilot) and checks the table is drawn with the
# packaged stylesheet.
START_SCRIPT = textwrap.dedent("""
    import asyncio, sys
    from pathlib import Path

    import momiji_tui
    from momiji_tui.ui.app import MomijiApp
    from momiji_tui.ui.models.new_game import NewGameOptions
    from momiji_tui.ui.models.paths import rules_text, stylesheets
    from momiji_tui.ui.screens.table import TableScreen

    prefix = Path(sys.prefix).resolve()
    assert Path(momiji_tui.__file__).resolve().is_relative_to(prefix), momiji_tui.__file__
    assert all(p.resolve().is_relative_to(prefix) for p in stylesheets()), stylesheets()
    assert "## 4" in rules_text()

    async def main():
        app = MomijiApp(Path(sys.argv[1]), new_game=NewGameOptions(seats=2, bot_level="easy", seed=1))
        async with app.run_test(size=(100, 32)) as pilot:
            for _ in range(100):
                if isinstance(app.screen, TableScreen):
                    break
                await pilot.pause()
            assert isinstance(app.screen, TableScreen), app.screen
            await pilot.pause()
            assert app.stylesheet.rules, "no stylesheet rules loaded"
            print("TABLE", app.table.game_id)

    asyncio.run(main())
""")


def _copy_source(dest: Path) -> Path:
    """The checkout as a fresh clone holds it (links kept: the package's
    styles/ and RULES.md link to the top-level files)."""
    ignore = shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".*_cache",
                                    ".hypothesis", "tests", "bench", "__snapshots__")
    shutil.copytree(ROOT, dest, symlinks=True, ignore=ignore)
    return dest


def _run(args: list[str], **kwargs) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(args, capture_output=True, text=True, timeout=600, **kwargs)
    assert result.returncode == 0, f"{args[:2]} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}"
    return result


@pytest.mark.slow
def test_wheel_installed_in_a_fresh_venv_starts_the_game(tmp_path, isolated_dirs):
    source = _copy_source(tmp_path / "source")
    wheels = tmp_path / "wheels"
    _run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), str(source)])
    (wheel,) = wheels.glob("momiji_tui-*.whl")
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)])  # no --system-site-packages: nothing of the test venv
    bin_dir = venv / "bin"
    _run([str(bin_dir / "python"), "-m", "pip", "install", "-q", str(wheel)])
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    started = _run([str(bin_dir / "python"), "-c", START_SCRIPT, str(isolated_dirs)], cwd=elsewhere, env=env)
    assert started.stdout.startswith("TABLE ")
    game_id = started.stdout.split()[1]
    # The console script is installed and finds the game just saved.
    listed = _run([str(bin_dir / "momiji"), "list"], cwd=elsewhere, env=env)
    assert game_id in listed.stdout
