"""The full-screen commands (the menu, play, resume, replay) need a terminal
on stdin and stdout, with cursor control: without one they say so in one
line and exit 2 at once, before the app starts (no busy loop, no screenful of
escape codes). The words for a terminal without cursor control are the SSH
server's."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys

import pytest

from momiji_tui import cli
from momiji_tui.session.table import BOT, HUMAN, SeatConfig, Table
from momiji_tui.ssh.terminal import DUMB_MESSAGE

MOMIJI = [sys.executable, "-m", "momiji_tui.cli"]


@pytest.fixture
def game_id(isolated_dirs) -> str:
    table = Table.new([SeatConfig("Ada", HUMAN), SeatConfig("Bo", BOT, "easy")], seed=4, data_dir=isolated_dirs)
    table.close()
    return table.game_id


@pytest.mark.parametrize("command", [["resume", "GAME"], ["resume"], ["replay", "GAME"], ["play"], [],
                                     ["play", "--seats", "2", "--seed", "1"]])
def test_without_a_terminal_one_line_and_exit_2(game_id, command):
    argv = [game_id if word == "GAME" else word for word in command]
    result = subprocess.run([*MOMIJI, *argv], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                            timeout=60)  # the bound a busy loop would hit; it ends at once
    assert result.returncode == 2
    assert result.stdout == "" and result.stderr == cli.NO_TERMINAL + "\n"


def test_stdout_redirected_from_a_terminal_is_refused_too(game_id):
    controller, terminal = pty.openpty()
    try:
        result = subprocess.run([*MOMIJI, "resume", game_id], stdin=terminal, capture_output=True, text=True,
                                timeout=60)
    finally:
        os.close(controller)
        os.close(terminal)
    assert result.returncode == 2 and result.stderr == cli.NO_TERMINAL + "\n"


@pytest.mark.parametrize("term", ["dumb", "unknown", ""])
def test_a_terminal_without_cursor_control_gets_the_servers_words(game_id, term):
    controller, terminal = pty.openpty()
    env = {**os.environ, "TERM": term}
    try:
        result = subprocess.run([*MOMIJI, "resume", game_id], stdin=terminal, stdout=terminal,
                                stderr=subprocess.PIPE, text=True, env=env, timeout=60)
        readable, _, _ = select.select([controller], [], [], 0)
        shown = os.read(controller, 65536) if readable else b""
    finally:
        os.close(controller)
        os.close(terminal)
    assert result.returncode == 2
    line = f"momiji needs a terminal with cursor control; TERM={term or '(unset)'} cannot show the game.\n"
    assert result.stderr == line
    assert b"\x1b" not in shown  # not one escape code reached the terminal


def test_the_local_words_for_dumb_are_the_ssh_servers():
    assert cli.terminal_refusal({"TERM": "dumb"}, True, True) == DUMB_MESSAGE.decode().rstrip("\r\n")
    assert cli.terminal_refusal({"TERM": "xterm-256color"}, True, True) is None
    assert cli.terminal_refusal({"TERM": "xterm-256color"}, False, True) == cli.NO_TERMINAL
    assert cli.terminal_refusal({}, True, True) is not None


def test_the_review_and_list_need_no_terminal(game_id, capsys):
    assert cli.main(["list"]) == 0  # captured stdout: not a terminal
    assert game_id in capsys.readouterr().out


def test_windows_consoles_set_no_term_and_are_not_refused_for_it(monkeypatch):
    monkeypatch.setattr(sys, "platform", "win32")
    assert cli.terminal_refusal({}, True, True) is None
    assert cli.terminal_refusal({}, False, True) == cli.NO_TERMINAL
