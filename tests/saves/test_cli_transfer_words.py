"""``momiji import`` and ``export`` say why a game could not be moved, in
the same words as before the handling of one game became one function for
the file store and the database (``cli_database.report_import`` and
``report_export``)."""

from __future__ import annotations

import errno

from saves_helpers import saved_game

from momiji_tui import cli
from momiji_tui.store import _fs


def test_import_that_the_disk_refuses_says_so_and_adds_nothing(isolated_dirs, tmp_path, monkeypatch, capsys):
    source = saved_game(isolated_dirs, seed=1)
    other = tmp_path / "other-data"

    def disk_full(path, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(_fs, "write_file", disk_full)
    assert cli.main(["import", str(source), "--data-dir", str(other)]) == 1
    out, err = capsys.readouterr()
    target = other / "games" / source.name
    assert (out, err) == ("", f"Could not import {source.stem}: disk full ({target}).\n")
    assert not target.exists()


def test_import_of_a_missing_file_and_of_a_damaged_file(tmp_path, capsys):
    missing = tmp_path / "missing.jsonl"
    assert cli.main(["import", str(missing)]) == 1
    assert capsys.readouterr() == ("", f"There is no file {missing}.\n")
    damaged = tmp_path / "damaged.jsonl"
    damaged.write_text("not json\n")
    assert cli.main(["import", str(damaged)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"Could not import {damaged}: ")


def test_export_that_the_disk_refuses_or_that_would_overwrite_says_so(isolated_dirs, tmp_path, monkeypatch, capsys):
    game = saved_game(isolated_dirs, seed=1)
    dest = tmp_path / "copy.jsonl"
    dest.write_bytes(b"keep me")
    assert cli.main(["export", game.stem, str(dest)]) == 1
    assert capsys.readouterr() == ("", f"Could not export {game.stem}: {dest} already exists; choose another name\n")

    def disk_full(path, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(_fs, "write_file", disk_full)
    other = tmp_path / "other.jsonl"
    assert cli.main(["export", game.stem, str(other)]) == 1
    assert capsys.readouterr() == ("", f"Could not export {game.stem}: disk full ({other}).\n")
    assert dest.read_bytes() == b"keep me" and not other.exists()
