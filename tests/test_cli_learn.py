"""``momiji learn``: the app opens straight into the guided first game."""

from __future__ import annotations

from momiji_tui import cli


def test_momiji_learn_opens_the_app_on_the_tutorial(monkeypatch, isolated_dirs, a_terminal):
    opened = []
    monkeypatch.setattr(cli, "_run_app", lambda app: opened.append(app) or 0)
    assert cli.main(["learn"]) == 0
    (app,) = opened
    assert app._start_learn and app._start_new is None and app.data_dir == isolated_dirs


def test_momiji_learn_without_a_terminal_refuses_like_play(capsys):
    assert cli.main(["learn"]) == cli.main(["play"]) != 0
