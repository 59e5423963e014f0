"""``momiji list/export/import`` on the database, and moving games between the
file store and the database both ways."""

from __future__ import annotations

import sys

import pytest
from db_helpers import fold_dicts, play_file_game
from pg_server import free_port

from momiji_tui import cli, engine
from momiji_tui.session.table import BOT, SeatConfig, Table, validate_log
from momiji_tui.store import load
from momiji_tui.store.database import SCHEMA_VERSION


def momiji(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_import_list_export_one_game_against_the_database(pg_url, isolated_dirs, tmp_path, capsys):
    table = play_file_game(isolated_dirs, seed=21)
    code, out, err = momiji(capsys, "import", str(table.log.path), "--database", pg_url)
    assert (code, err) == (0, "") and out == f"Imported {table.game_id} into the database.\n"
    code, out, _ = momiji(capsys, "list", "--database", pg_url)
    assert code == 0 and table.game_id in out and "finished" in out and "Ada (easy)" in out
    code, out, err = momiji(capsys, "export", table.game_id, str(tmp_path), "--database", pg_url)
    dest = tmp_path / f"{table.game_id}.jsonl"
    assert (code, err, out) == (0, "", f"Exported {table.game_id} to {dest}.\n")
    assert fold_dicts(load(dest, validate_log).events) == table.state
    code, _, err = momiji(capsys, "export", table.game_id, str(dest), "--database", pg_url)  # never overwritten
    assert code == 1 and "already exists; choose another name" in err
    code, _, err = momiji(capsys, "import", str(table.log.path), "--database", pg_url)
    assert code == 1 and f"a saved game {table.game_id} already exists in the database" in err


def test_the_environment_names_the_database(pg_url, monkeypatch, capsys):
    monkeypatch.setenv("MOMIJI_DATABASE_URL", pg_url)
    assert momiji(capsys, "list") == (0, "No saved games in the database.\n", "")


def test_games_moved_to_the_database_and_back_fold_to_the_same_state_and_score(pg_url, tmp_path, capsys):
    source, back = tmp_path / "source", tmp_path / "back"
    finished = play_file_game(source, seed=31)
    unfinished = play_file_game(source, seed=32, moves=40)
    code, out, err = momiji(capsys, "import", "--all-from", str(source), "--database", pg_url)
    assert (code, err) == (0, "") and out == f"Imported 2 games from {source} into the database.\n"
    code, out, _ = momiji(capsys, "import", "--all-from", str(source), "--database", pg_url)
    assert code == 0 and "Imported 0 games" in out and "2 already there (left as they were)" in out
    code, out, err = momiji(capsys, "export", "--all", "--to", str(back), "--database", pg_url)
    assert (code, err) == (0, "") and out == f"Exported 2 games from the database to {back}.\n"
    for table in (finished, unfinished):
        moved = load(back / "games" / f"{table.game_id}.jsonl", validate_log)
        original = load(table.log.path, validate_log)
        assert moved.events == original.events and moved.last_played == original.last_played
        assert fold_dicts(moved.events) == table.state
        assert engine.score(fold_dicts(moved.events)) == engine.score(table.state)
    code, out, _ = momiji(capsys, "export", "--all", "--to", str(back), "--database", pg_url)
    assert code == 0 and "2 already there" in out


def test_a_damaged_game_is_not_moved_and_is_named(pg_url, pg_admin, tmp_path, capsys):
    table = play_file_game(tmp_path / "source", seed=5, moves=3)
    momiji(capsys, "import", "--all-from", str(tmp_path / "source"), "--database", pg_url)
    pg_admin.execute("UPDATE events SET event = '7'::jsonb WHERE position = 3")
    code, out, err = momiji(capsys, "export", "--all", "--to", str(tmp_path / "back"), "--database", pg_url)
    assert code == 1 and "Exported 0 games" in out
    assert err == f"Not moved: {table.game_id}: damaged: The event at position 3 is not an event object.\n"
    assert not (tmp_path / "back" / "games" / f"{table.game_id}.jsonl").exists()


@pytest.mark.parametrize("case", ["closed port", "wrong password", "not a url", "newer schema"])
def test_a_database_that_cannot_be_used_is_one_clear_line_and_exit_2(pg_cluster, pg_url, pg_admin, case, capsys):
    port = free_port()
    url, expected = {
        "closed port": (f"postgresql://postgres@127.0.0.1:{port}/momiji",
                        f"Could not connect to the database at 127.0.0.1:{port}/momiji: "),
        "wrong password": (pg_url.replace(":momiji-test-password@", ":wrong@"),
                           "password authentication failed for user \"postgres\""),
        "not a url": ("mysql://root@localhost/momiji",
                      "The database URL must look like postgresql://USER@HOST:PORT/DBNAME (it begins with 'mysql')."),
        "newer schema": (pg_url, f"(schema {SCHEMA_VERSION + 1}; this version knows up to {SCHEMA_VERSION})"),
    }[case]
    if case == "newer schema":
        momiji(capsys, "list", "--database", pg_url)
        pg_admin.execute("UPDATE momiji_schema SET version = version + 1")
    for argv in (["list"], ["export", "20261201-070000-00000a", "x.jsonl"], ["import", "x.jsonl"]):
        code, out, err = momiji(capsys, *argv, "--database", url)
        assert (code, out) == (2, "")
        assert err.count("\n") == 1 and expected in err and "Traceback" not in err
        assert "wrong" not in err and "momiji-test-password" not in err  # never the password


def test_moving_all_needs_a_database_and_one_or_all_not_both(capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main(["import", "--all-from", "somewhere"])
    assert stop.value.code == 2 and "--all-from: give --database URL" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        cli.main(["export", "20261201-070000-00000a", "x.jsonl", "--all", "--to", "d", "--database", "postgresql://x"])
    assert stop.value.code == 2 and "not both" in capsys.readouterr().err


def test_a_game_the_database_cannot_hold_is_named_and_the_others_still_move(pg_url, tmp_path, capsys):
    """jsonb refuses a NUL character in text, which a save file holds: that
    game is skipped with the reason, the rest are moved, nothing is lost."""
    source = tmp_path / "source"
    fine = play_file_game(source, seed=7, moves=2)
    odd = Table.new([SeatConfig("Ada\x00", BOT, "easy"), SeatConfig("Kaede", BOT, "easy")], seed=8, data_dir=source)
    odd.close()
    code, out, err = momiji(capsys, "import", "--all-from", str(source), "--database", pg_url)
    assert code == 1 and out == f"Imported 1 game from {source} into the database.\n"
    assert err == (f"Not moved: {odd.game_id}: it cannot be stored in the database: it holds text PostgreSQL "
                   "cannot store (a NUL character, \\u0000).\n")
    code, out, _ = momiji(capsys, "list", "--database", pg_url)
    assert fine.game_id in out and odd.game_id not in out
    code, _, err = momiji(capsys, "import", str(odd.log.path), "--database", pg_url)
    assert code == 1 and err.startswith(f"Could not import {odd.log.path}: The game {odd.game_id} cannot be stored")


def test_without_the_driver_a_database_is_one_line_saying_how_to_install_it(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "psycopg", None)  # as if the postgres extra were not installed
    for argv in (["list"], ["import", "x.jsonl"], ["export", "20261201-070000-00000a", "x.jsonl"]):
        code, out, err = momiji(capsys, *argv, "--database", "postgresql://postgres@127.0.0.1:1/momiji")
        assert (code, out) == (2, "")
        assert err == ("PostgreSQL support is not installed: pip install 'momiji-tui[postgres]' "
                       "(or use the file store: leave out --database and MOMIJI_DATABASE_URL).\n")


def test_import_all_from_a_games_folder_or_a_wrong_path_says_what_it_expects_and_fails(pg_url, tmp_path, capsys):
    """Found by a new-player trial: ``--all-from <datadir>/games`` said
    "Imported 0 games" with no hint and exit status 0."""
    table = play_file_game(tmp_path / "data", seed=5, moves=1)
    games = tmp_path / "data" / "games"
    code, out, err = momiji(capsys, "import", "--all-from", str(games), "--database", pg_url)
    assert (code, out) == (1, "")
    assert err == f"No games found in {games}: give the data folder (the one that holds games/).\n"
    code, out, err = momiji(capsys, "import", "--all-from", str(tmp_path / "nowhere"), "--database", pg_url)
    assert (code, out, err) == (1, "", f"There is no folder {tmp_path / 'nowhere'}.\n")
    code, out, _ = momiji(capsys, "import", "--all-from", str(tmp_path / "data"), "--database", pg_url)
    assert code == 0 and out.startswith("Imported 1 game from") and table.game_id
