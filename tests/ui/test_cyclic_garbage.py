"""Key presses at the table leave no reference cycles of ours or
of the strips Textual draws.

On a server every session shares one interpreter: garbage in reference
cycles is freed only by the collector, whose young collections stop every
player at once (31-68 ms of CPU with 64 players). A line drawn as wide as
its widget used to hold itself through its own cache (``Strip.divide``,
``momiji_tui/textual_fence``, defect 1): ~190 objects of cyclic garbage per
key, 95 % of all of it. The rest was the engine's recursive closure in
``kind_subsets``.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from helpers import scripted_bot, sit, situation
from textual.strip import Strip

from momiji_tui.engine.legal import kind_subsets
from momiji_tui.ui.app import MomijiApp


@contextmanager
def cyclic_garbage() -> Iterator[list[object]]:
    """The objects that only the garbage collector would free, made in the block."""
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    found: list[object] = []
    try:
        yield found
    finally:
        gc.collect()
        found.extend(gc.garbage)
        gc.garbage.clear()
        gc.set_debug(0)
        if enabled:
            gc.enable()


def ours_or_strips(garbage: list[object]) -> list[str]:
    """What in ``garbage`` is a strip, or a function, frame or object of momiji_tui."""
    found = []
    for o in garbage:
        module = getattr(o, "__module__", None) if callable(o) and not isinstance(o, type) else type(o).__module__
        code = getattr(o, "f_code", None)
        if code is not None:
            module = code.co_filename
        if isinstance(o, Strip) or "momiji_tui" in str(module):
            found.append(f"{type(o).__name__} {getattr(o, '__qualname__', '')} {module}")
    return found


def test_kind_subsets_leaves_no_cyclic_garbage():
    with cyclic_garbage() as garbage:
        subsets = kind_subsets([0, 1, 5, 9, 13], 1, 3)
    assert len(subsets) > 5
    assert ours_or_strips(garbage) == []  # (the old closure: 41 objects, its function among them)


@pytest.mark.parametrize("cuts", [[5], [2, 5], [0, 5], [5, 7], [7], [], [1, 2, 3, 4, 5], (5,)])
def test_the_patched_divide_cuts_as_textuals_does(cuts):
    """``textual_fence`` defect 1 changes what is cached, never the strips:
    re-check against Textual's own ``divide`` when its pin moves."""
    from rich.segment import Segment

    from momiji_tui.textual_fence import _divide, _textual_divide

    def strips() -> Strip:
        return Strip([Segment("ab"), Segment("cde")], 5)

    ours = _divide(strips(), list(cuts) if isinstance(cuts, list) else cuts)
    theirs = _textual_divide(strips(), cuts)
    assert [(s.text, s.cell_length) for s in ours] == [(s.text, s.cell_length) for s in theirs]


@pytest.fixture
def app(isolated_dirs):
    return MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)


@pytest.mark.parametrize("size", [(80, 24), (200, 60)])
async def test_keys_at_the_table_leave_no_strip_or_object_of_ours_in_reference_cycles(app, size):
    async with app.run_test(size=size) as pilot:
        await sit(pilot, situation(hand="M0a C1a", display="O1b"))
        await pilot.pause()
        with cyclic_garbage() as garbage:
            for _ in range(3):
                await pilot.press("1", "right", "left", "1", "1", "enter")
                await pilot.pause()
                assert app.table.state.turn.main_done  # the play was made
                await pilot.press("u")
                await pilot.pause()
        assert not app.table.state.turn.main_done  # and undone
        assert ours_or_strips(garbage) == []
