"""No untrusted text reaches a terminal raw (ARCHITECTURE "Saves"): a name
holding every control code point (C0, DEL, C1, bidi controls, line
separators) and a real attack (set the title, wipe the screen, write a
spoofed line, OSC 8 and 52, a C1 CSI) is shown escaped everywhere a name
appears: list, the delete question, the table, replay, saved games, the
score sheet, the review, the lobby; ``--name`` passes the same rule."""

from __future__ import annotations

import io
import json

import pytest

from momiji_tui import cli, engine
from momiji_tui.bots import make_bot
from momiji_tui.safe_text import UNSAFE, safe_lines, safe_text
from momiji_tui.session.names import player_label
from momiji_tui.session.replay import Replay
from momiji_tui.session.review_saved import review_events
from momiji_tui.session.saves import describe_saved_games
from momiji_tui.session.table import BOT, HUMAN, SeatConfig, Table
from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.models.review_text import review_text
from momiji_tui.ui.screens.replay import ReplayScreen
from momiji_tui.ui.screens.saved import SavedGamesScreen

from helpers import on_frames, settle

CONTROLS = "".join(chr(c) for c in [*range(0x20), *range(0x7F, 0xA0), 0x061C, 0x200E, 0x200F, 0x2028, 0x2029,
                                    *range(0x202A, 0x202F), *range(0x2066, 0x206A)])
ATTACK = ("\x1b]2;PWNED-TITLE\x07\x1b[2J\x1b[HSPOOFED LINE\x1b]8;;http://x\x07link\x1b]8;;\x07"
          "\x1b]52;c;cHduZWQ=\x07\x9b31m")
NAME = "Eve" + ATTACK + CONTROLS


def _raw(text: str) -> list[str]:
    """The unsafe code points ``text`` holds (a line break is allowed between lines)."""
    return [c for c in UNSAFE.findall(text) if c != "\n"]


def _hostile_save(data_dir, *, finish: bool = False):
    """A real game whose first seat's name (header and events) is ``NAME``."""
    table = Table.new([SeatConfig("Ada", HUMAN), SeatConfig("Bo", BOT, "easy")], seed=4, data_dir=data_dir)
    step = 0
    while not table.finished and (finish or step < 6):
        table.submit(make_bot("easy", seed=step).choose(table.view(table.current)))
        step += 1
    table.close()
    path = table.log.path
    lines = [json.loads(line) for line in path.read_bytes().split(b"\n") if line]
    lines[0]["seats"][0]["name"] = NAME
    lines[1]["seat_names"][0] = NAME
    path.write_bytes(b"".join(json.dumps(o).encode() + b"\n" for o in lines))
    return path


def test_safe_text_escapes_every_control_code_point_and_keeps_the_rest():
    for code in range(0x110000):
        char = chr(code)
        shown = safe_text(char)
        if UNSAFE.fullmatch(char):
            assert shown.startswith("\\") and not UNSAFE.search(shown), hex(code)
        else:
            assert shown == char, hex(code)
    assert safe_text(safe_text(NAME)) == safe_text(NAME)
    assert safe_lines("a\nb\x1b") == "a\nb\\x1b"


def test_names_from_saves_the_table_replay_score_sheet_and_list_are_shown_escaped(isolated_dirs):
    path = _hostile_save(isolated_dirs)
    table = Table.resume(path)
    assert table.seats[0].name == safe_text(NAME) and table.view(0).seats[0].name == safe_text(NAME)
    for seat in engine.score(table.state).seats:
        assert not _raw(str(seat))
    table.close()
    replay = Replay.from_dicts([engine.to_dict(e) for e in table.events])
    assert not _raw(" ".join(replay.names)) and not _raw(replay.narrate(None, 0))
    rows = describe_saved_games(isolated_dirs)
    assert rows and not _raw(rows[0].seats) and "\\x1b]2;PWNED-TITLE" in rows[0].seats


def test_the_review_shows_names_escaped(isolated_dirs):
    path = _hostile_save(isolated_dirs, finish=True)
    table = Table.replay(path)
    review = review_events(table.events, 0, iterations=4).review
    assert not _raw(review_text(review).plain)


def test_list_and_the_delete_question_print_no_control_character(isolated_dirs, capsys, monkeypatch):
    path = _hostile_save(isolated_dirs)
    assert cli.main(["list"]) == 0
    listed = capsys.readouterr()
    assert not _raw(listed.out + listed.err) and "SPOOFED LINE" in listed.out
    monkeypatch.setattr("sys.stdin", io.StringIO("n\n"))
    cli.main(["delete", path.name.split(".")[0]])
    asked = capsys.readouterr()
    assert "Delete saved game" in asked.out and not _raw(asked.out + asked.err)


def test_a_name_given_with_name_passes_the_same_rule():
    args = cli.build_parser().parse_args(["play", "--name", NAME])
    assert args.name == safe_text(NAME)


def test_the_lobby_label_of_a_player_is_escaped():
    class P:
        account_id, name, is_guest, key_hint, bound = "a1", NAME, True, "", False

    assert not _raw(player_label(P()))


@pytest.mark.parametrize("where", ["table", "replay", "saved games"])
async def test_no_frame_of_the_app_carries_a_name_raw(isolated_dirs, monkeypatch, where):
    path = _hostile_save(isolated_dirs)
    frames: list[str] = []
    app = MomijiApp(isolated_dirs, resume_path=path if where == "table" else None, bot_delay=0)
    on_frames(monkeypatch, lambda frame: frames.append(str(getattr(frame, "render_segments", lambda c: frame)(
        app.console))))
    async with app.run_test(size=(120, 40)) as pilot:
        if where == "replay":
            app.push_screen(ReplayScreen(path))
        elif where == "saved games":
            app.push_screen(SavedGamesScreen())
        await settle(pilot, 5)
        shown = "".join(frames)
    assert "\\x1b]2;PWNED-TITLE" in shown
    for bad in ("\x07", "\x1b]", "\x9b", "\u202e", "\x1b[2J"):
        assert bad not in shown
