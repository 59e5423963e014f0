"""Damaged saves, end to end: each kind of damage is explained in plain
words, the file is kept aside byte for byte (never overwritten), and the other
games are still listed — by ``describe_saved_games``, ``momiji list``,
``Table.resume`` and the saved-games screen."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from saves_helpers import event_line, lines, play, saved_game

from momiji_tui import cli
from momiji_tui.session.saves import describe_file, describe_saved_games
from momiji_tui.session.table import Table, validate_log
from momiji_tui.store import DAMAGED, FINISHED, IN_PROGRESS, NEWER, DamagedLog, NewerFormat, load
from momiji_tui.store.log import CURRENT_FORMAT_VERSION, TORN_TAIL_WARNING


def torn_tail(path: Path) -> bytes:
    return path.read_bytes() + b'{"type":"CardsDrawn","seat":0,"ca'


def bad_json(path: Path) -> bytes:
    ls = lines(path)
    ls[4] = ls[4][:10] + b"\x00garbage\n"
    return b"".join(ls)


def rules_reject(path: Path) -> bytes:
    return path.read_bytes() + event_line({"type": "AcornsPaid", "seat": 0, "amount": 99, "reason": "objective"})


def wrong_header(path: Path) -> bytes:
    ls = lines(path)
    return event_line({"format": "some-other-game", "version": 3}) + b"".join(ls[1:])


def newer_format(path: Path) -> bytes:
    ls = lines(path)
    header = json.loads(ls[0]) | {"format_version": CURRENT_FORMAT_VERSION + 1}
    return event_line(header) + b"".join(ls[1:])


def empty(path: Path) -> bytes:
    return b""


UNREADABLE = "unreadable"
CASES = {
    # kind: (make the bytes, status, the message a player reads)
    "torn last line": (torn_tail, IN_PROGRESS, TORN_TAIL_WARNING),
    "bad JSON": (bad_json, DAMAGED, "Line 5 is not valid JSON."),
    "rules reject an event": (rules_reject, DAMAGED,
                              "The rules reject this save: event pays more acorns than the seat holds"),
    "wrong header": (wrong_header, DAMAGED,
                     'This is not a momiji-tui save (the first line lacks "format": "momiji-log").'),
    "newer format": (newer_format, NEWER, f"was made by a newer momiji-tui (format {CURRENT_FORMAT_VERSION + 1}); "
                     f"this version reads up to {CURRENT_FORMAT_VERSION}."),
    "empty file": (empty, DAMAGED, "The file is empty."),
    UNREADABLE: (None, DAMAGED, "The file could not be read (permission denied)."),
}


@pytest.fixture
def library(isolated_dirs):
    """Two good games (one finished, one in progress) and a third to damage."""
    finished = saved_game(isolated_dirs, seed=1)
    ongoing = saved_game(isolated_dirs, seed=2, commands=12)
    victim = saved_game(isolated_dirs, seed=3, commands=8)
    return isolated_dirs, finished, ongoing, victim


def damage(kind: str, victim: Path, monkeypatch) -> bytes:
    """Damage ``victim`` as ``kind`` says; returns its bytes now."""
    make = CASES[kind][0]
    if make is not None:
        victim.write_bytes(make(victim))
    else:  # root ignores file permissions: make reading this one file fail as chmod 000 would
        real = Path.read_bytes

        def read_bytes(self):
            if self.name == victim.name:
                raise PermissionError(13, "Permission denied", str(self))
            return real(self)

        monkeypatch.setattr(Path, "read_bytes", read_bytes)
    return victim.read_bytes() if make is not None else real(victim)


def kept_aside(games: Path, victim: Path) -> list[Path]:
    return sorted(p for p in games.iterdir() if p.name.startswith(victim.name + ".damaged-")
                  and not p.name.endswith(".txt"))


@pytest.mark.parametrize("kind", list(CASES))
def test_each_kind_of_damage_is_explained_kept_and_never_hides_the_other_games(kind, library, monkeypatch):
    data, finished, ongoing, victim = library
    game_id = victim.name.removesuffix(".jsonl")
    before = damage(kind, victim, monkeypatch)
    _, status, message = CASES[kind]

    rows = {r.game_id: r for r in describe_saved_games(data)}
    assert rows[finished.stem].status == FINISHED and rows[finished.stem].seats == "Ada, Bo (easy)"
    assert rows[ongoing.stem].status == IN_PROGRESS and rows[ongoing.stem].scores
    row = rows[game_id]
    assert row.status == status
    assert message in (row.problem or "") + " ".join(row.notes)

    games = data / "games"
    if status == DAMAGED:
        (aside,) = kept_aside(games, victim)
        assert row.path == aside and not victim.exists()
        if kind != UNREADABLE:
            assert aside.read_bytes() == before
        assert message in Path(f"{aside}.txt").read_text()
        # Listing again neither moves nor rewrites it, and the good games stay put.
        describe_saved_games(data)
        assert kept_aside(games, victim) == [aside] and (kind == UNREADABLE or aside.read_bytes() == before)
    else:  # a torn tail or a newer format is not damage: the file stays where it is, untouched
        assert row.path == victim and victim.read_bytes() == before and kept_aside(games, victim) == []
    assert finished.exists() and ongoing.exists()


@pytest.mark.parametrize("kind", list(CASES))
def test_momiji_list_shows_the_message_and_the_other_games(kind, library, monkeypatch, capsys):
    data, finished, ongoing, victim = library
    damage(kind, victim, monkeypatch)
    assert cli.main(["list", "--data-dir", str(data)]) == 0
    out = capsys.readouterr().out
    assert finished.stem in out and ongoing.stem in out and victim.stem in out
    assert CASES[kind][1] in out and CASES[kind][2] in out
    assert "finished" in out and "in progress" in out and "Ada, Bo" in out
    if CASES[kind][1] == DAMAGED:
        assert ".damaged-" in out  # where the file was kept


@pytest.mark.parametrize("kind", [k for k in CASES if CASES[k][1] != IN_PROGRESS])
def test_resume_of_a_damaged_file_raises_a_clear_error_and_writes_nothing(kind, library, monkeypatch):
    _, _, _, victim = library
    before = damage(kind, victim, monkeypatch)
    expected = NewerFormat if CASES[kind][1] == NEWER else DamagedLog
    with pytest.raises(expected) as caught:
        Table.resume(victim)
    assert CASES[kind][2] in str(caught.value)
    assert victim.name in str(caught.value)
    if kind != UNREADABLE:
        assert victim.read_bytes() == before
    with pytest.raises(expected):
        Table.replay(victim)
    assert describe_file(victim).problem  # described without being moved
    assert victim.exists()


def test_resume_drops_a_torn_tail_then_cuts_it_before_the_next_move(library, monkeypatch):
    _, _, _, victim = library
    good = victim.read_bytes()
    damage("torn last line", victim, monkeypatch)
    table = Table.resume(victim)
    assert table.log.loaded.warnings == [TORN_TAIL_WARNING]
    n = len(table.events)
    play(table, commands=1)
    table.close()
    after = victim.read_bytes()
    assert after.startswith(good)  # the torn piece is gone: only whole new lines follow
    assert all(json.loads(line) for line in after[len(good):].splitlines()) and after.endswith(b"\n")
    loaded = load(victim, validate_log)
    assert loaded.warnings == [] and len(loaded.events) > n


def test_a_second_damaged_copy_of_the_same_game_never_overwrites_the_first(library, monkeypatch):
    data, _, _, victim = library
    good = victim.read_bytes()
    first = damage("bad JSON", victim, monkeypatch)
    describe_saved_games(data)
    victim.write_bytes(good[:-1] + b"]\n")  # the same game, damaged again in another way
    second = victim.read_bytes()
    describe_saved_games(data)
    copies = kept_aside(data / "games", victim)
    assert len(copies) == 2
    assert sorted(p.read_bytes() for p in copies) == sorted([first, second])
