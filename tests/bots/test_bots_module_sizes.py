"""ARCHITECTURE "Module sizes" in bots/: a module holds one concept and stays under 400
lines (the playout module had grown to 440: sampler, policies and prefilter
in one file)."""

from __future__ import annotations

from pathlib import Path

import momiji_tui.bots

BOTS = Path(momiji_tui.bots.__file__).parent


def test_no_bots_module_over_400_lines():
    big = {path.name: n for path in sorted(BOTS.glob("*.py"))
           if (n := len(path.read_text().splitlines())) > 400}
    assert big == {}
