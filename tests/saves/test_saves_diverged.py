"""The writer follows the file it owns (ARCHITECTURE "Saves"): a save
replaced by a copy renamed over it, removed, or changed by someone else
while the game is open is never written past silently. The move is not
made, the player is told what happened and what to do, and the game can go
on into a recovered copy (the other file kept aside)."""

from __future__ import annotations

import os
import shutil

import pytest

from momiji_tui.bots import make_bot
from momiji_tui.session.table import Table
from momiji_tui.store import WriteFailed, load
from momiji_tui.store.errors import SaveDiverged
from momiji_tui.ui.models.new_game import not_saved_text

from saves_helpers import SEATS, play


def _open_table(data_dir):
    table = play(Table.new(list(SEATS), seed=5, data_dir=data_dir), 3)
    return table, table.log.path


def _next(table):
    return make_bot("easy", seed=11).choose(table.view(table.current))


def _replace_by_identical_copy(path):
    copy = path.with_name("copy.tmp")
    shutil.copy2(path, copy)
    os.replace(copy, path)  # what rsync, Syncthing or a backup restore do


def _remove(path):
    path.unlink()


def _append(path):
    with open(path, "ab") as f:
        f.write(b'{"type":"CardsPlayed","seat":0,"cards":[1]}\n')


@pytest.mark.parametrize("inject, what", [(_replace_by_identical_copy, "replaced"), (_remove, "removed"),
                                          (_append, "changed")])
def test_a_move_into_a_file_that_is_no_longer_ours_is_not_made(isolated_dirs, inject, what):
    table, path = _open_table(isolated_dirs)
    before_events = list(table.events)
    before_bytes = path.read_bytes() if path.exists() else None
    inject(path)
    on_disk = path.read_bytes() if path.exists() else None
    command = _next(table)
    with pytest.raises(SaveDiverged) as caught:
        table.submit(command)
    assert caught.value.what == what and isinstance(caught.value, WriteFailed)
    assert table.events == before_events  # the move was not made
    assert (path.read_bytes() if path.exists() else None) == on_disk  # and the other file untouched
    with pytest.raises(SaveDiverged):  # never silently later either
        table.submit(command)
    assert table.save_diverged
    text = not_saved_text(caught.value)
    assert what in text and "resume" in text and "recovered copy" in text and "Try again" not in text
    table.close()
    assert before_bytes is not None


def test_keep_playing_into_a_recovered_copy_keeps_the_other_file_aside(isolated_dirs):
    table, path = _open_table(isolated_dirs)
    _append(path)
    other = path.read_bytes()
    with pytest.raises(SaveDiverged):
        table.submit(_next(table))
    aside = table.keep_in_recovered_copy()
    assert aside is not None and aside.read_bytes() == other and aside.name.startswith(path.name + ".other-copy-")
    table.submit(_next(table))  # saved again, into the recovered copy
    assert not table.save_diverged
    table.close()
    assert len(load(path).events) == len(table.events)
    assert Table.resume(path).events == table.events


def test_a_removed_save_is_written_anew_by_the_recovered_copy(isolated_dirs):
    table, path = _open_table(isolated_dirs)
    path.unlink()
    with pytest.raises(SaveDiverged):
        table.submit(_next(table))
    assert table.keep_in_recovered_copy() is None
    table.submit(_next(table))
    table.close()
    assert len(load(path).events) == len(table.events)


def test_the_writer_still_appends_to_its_own_file_across_close_and_reopen(isolated_dirs):
    table, path = _open_table(isolated_dirs)
    table.log.close()  # appending again reopens the same file: still ours
    table.submit(_next(table))
    table.close()
    assert len(load(path).events) == len(table.events)
