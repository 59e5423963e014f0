"""The Textual defects ``momiji_tui/textual_fence.py`` works around
(docs/TEXTUAL_DEFECTS.md): each test here shows the defect in Textual's own
code and FAILS once upstream has fixed it (then delete the workaround and
its test); each workaround is also shown to work."""

from __future__ import annotations

import contextlib
import gc
import inspect
import weakref

import textual.app
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from textual._xterm_parser import XTermParser as TextualXTermParser
from textual.reactive import Reactive
from textual.strip import Strip
from textual.widget import Widget

from momiji_tui import textual_fence
from momiji_tui.textual_fence import XTermParser, print_capture_disabled, session_colors_enabled, still_virtual_size


def strip() -> Strip:
    return Strip([Segment("abc", Style(bold=True)), Segment("def")])


def test_defect_1_textual_s_divide_keeps_a_strip_in_its_own_cache():
    line = strip()
    textual_fence._textual_divide(line, [line.cell_length])
    cached = line._divide_cache.get((line.cell_length,))
    assert cached is not None and cached[0] is line, "fixed upstream: drop defect 1"


def test_defect_1_worked_around_a_strip_cut_at_its_length_holds_no_cycle():
    line = strip()
    assert textual_fence._divide(line, [line.cell_length]) == [line]
    assert line._divide_cache.get((line.cell_length,)) is None  # nothing holds the strip but its owner
    assert textual_fence._divide(line, [2, 6]) == textual_fence._textual_divide(strip(), [2, 6])


def test_defect_2_textual_s_parser_cache_keeps_an_ended_parser_alive():
    parser = TextualXTermParser()
    parser._parse_extended_key("\x1b[13;5u")  # a kitty-protocol key: the cached path
    ref = weakref.ref(parser)
    del parser
    gc.collect()
    assert ref() is not None, "fixed upstream: drop defect 2"
    TextualXTermParser._parse_extended_key.cache_clear()


def test_defect_2_worked_around_an_ended_parser_is_freed():
    parser = XTermParser()
    parser._parse_extended_key("\x1b[13;5u")
    ref = weakref.ref(parser)
    del parser
    gc.collect()
    assert ref() is None


def test_defect_3_textual_swaps_the_process_wide_stdout_for_every_app():
    source = inspect.getsource(textual.app.App._process_messages)
    assert "redirect_stdout" in source and textual.app.redirect_stdout is contextlib.redirect_stdout, (
        "fixed upstream: drop defect 3")


def test_defect_3_worked_around_apps_leave_stdout_alone_while_served():
    with print_capture_disabled(), print_capture_disabled():  # re-entrant
        assert textual.app.redirect_stdout is contextlib.nullcontext
    assert textual.app.redirect_stdout is contextlib.redirect_stdout


def test_defect_4_textual_s_virtual_size_asks_for_a_layout():
    assert Widget.virtual_size._layout, "fixed upstream: drop defect 4"


def test_defect_4_worked_around_a_still_virtual_size_asks_for_nothing():
    size = still_virtual_size()
    assert isinstance(size, Reactive) and not size._layout and not size._repaint


def test_defect_5_textual_renders_a_strip_once_whatever_the_colour_system():
    line = Strip([Segment("x", Style(color="#123456"))])
    truecolor = line.render(Console(color_system="truecolor", force_terminal=True))
    standard = line.render(Console(color_system="standard", force_terminal=True))
    assert truecolor == standard, "fixed upstream: drop defect 5 (Strip.render)"
    assert "color_system" not in inspect.signature(textual.app.App.__init__).parameters, (
        "fixed upstream: drop set_session_colors")


def test_defect_5_worked_around_each_console_gets_its_own_colours():
    line = Strip([Segment("x", Style(color="#123456"))])
    with session_colors_enabled():
        truecolor = line.render(Console(color_system="truecolor", force_terminal=True))
        standard = line.render(Console(color_system="standard", force_terminal=True))
    assert truecolor != standard and "38;2;18;52;86" in truecolor
