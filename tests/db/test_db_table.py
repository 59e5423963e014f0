"""A table saving every move to the database and resumed from it:
``DatabaseGameLog``, the database's implementation of the table's writer."""

from __future__ import annotations

import dataclasses

import psycopg
import pytest
from db_helpers import SEATS, fold_dicts

from momiji_tui import engine
from momiji_tui.session.table import Table, validate_log
from momiji_tui.store.database import SyncGameStore
from momiji_tui.store.database.writer import DatabaseGameLog
from momiji_tui.store.errors import Conflict, WriteFailed


def on_database(store: SyncGameStore):
    return lambda header, events: DatabaseGameLog.create(store, header, events=events)


def play(table: Table, moves: int | None = None) -> None:
    done = 0
    while (seat := table.bot_to_move()) is not None and (moves is None or done < moves):
        table.submit(table.bot_command(seat))
        done += 1


@pytest.fixture
def store(pg_url):
    with SyncGameStore(pg_url) as opened:
        yield opened


def test_a_game_saved_move_by_move_resumes_from_the_database_and_ends_as_if_never_stopped(store):
    straight = Table.new(SEATS, seed=41)
    play(straight)
    table = Table.new(SEATS, seed=41, create_log=on_database(store))
    play(table, moves=30)
    table.close()
    resumed = Table.from_log(DatabaseGameLog.open_for_append(store, table.game_id, validate_log))
    assert resumed.state == table.state and resumed.log.position == len(table.events)
    play(resumed)
    same = dataclasses.replace(straight.state, game_id=table.game_id)  # ids are new for each game
    assert resumed.finished and resumed.state == same
    stored = store.load_game(table.game_id, validate_log)
    assert fold_dicts(stored.loaded.events) == same
    assert engine.score(fold_dicts(stored.loaded.events)) == engine.score(straight.state)
    [listed] = store.list_games(validate_log)
    assert listed.status == "finished"


def test_a_second_table_on_the_same_game_is_told_and_changes_nothing(store):
    first = Table.new(SEATS, seed=42, create_log=on_database(store))
    second = Table.from_log(DatabaseGameLog.open_for_append(store, first.game_id, validate_log))
    first.submit(first.bot_command(first.bot_to_move()))
    before = second.state.clone()
    with pytest.raises(Conflict) as caught:
        second.submit(second.bot_command(second.bot_to_move()))
    assert caught.value.position == first.log.position
    assert second.state == before
    assert fold_dicts(store.load_game(first.game_id, validate_log).loaded.events) == first.state


def test_a_move_the_database_refuses_is_not_made(store, monkeypatch):
    table = Table.new(SEATS, seed=43, create_log=on_database(store))
    before, position = table.state.clone(), table.log.position

    def lost(*args, **kwargs):
        raise psycopg.OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(store, "append", lost)
    with pytest.raises(WriteFailed) as caught:
        table.submit(table.bot_command(table.bot_to_move()))
    assert caught.value.reason == "the database failed: server closed the connection unexpectedly"
    assert table.state == before and table.log.position == position
    monkeypatch.undo()
    table.submit(table.bot_command(table.bot_to_move()))  # the same move may simply be sent again
    assert table.log.position > position


async def test_the_commands_store_works_inside_a_running_event_loop(pg_url):
    """A Table of the app saves from Textual's event loop: the sync store runs
    its own loop in its own thread (asyncio.Runner would refuse here)."""
    with SyncGameStore(pg_url) as opened:
        table = Table.new(SEATS, seed=44, create_log=on_database(opened))
        table.submit(table.bot_command(table.bot_to_move()))
        assert opened.load_game(table.game_id, validate_log).position == len(table.events)
