"""The PostgreSQL store: schema, append/read, optimistic
concurrency, damaged rows. Against the throw-away cluster (tests/pg_server.py)."""

from __future__ import annotations

import asyncio

import psycopg
import pytest
from db_helpers import fold_dicts, play_file_game
from pg_server import free_port

from momiji_tui import engine
from momiji_tui.session.table import validate_log
from momiji_tui.store import load
from momiji_tui.store.database import SCHEMA_VERSION, open_store, schema, schema_version
from momiji_tui.store.database.connect import open_connection
from momiji_tui.store.errors import Conflict, DamagedLog, DatabaseUnavailable, GameExists, NewerSchema

GAME = "20261201-070000-00000a"
HEADER = {"game_id": GAME, "rules_version": "2026.11-2", "seats": [{"name": "Ada"}], "seed": 1,
          "created": "2026-12-01T07:00:00+00:00"}


async def test_the_schema_is_created_then_reopening_changes_nothing(pg_url, pg_admin):
    store = await open_store(pg_url)
    await store.close()
    tables = {r[0] for r in pg_admin.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}
    assert tables == {"momiji_schema", "games", "events", "lobby_processes", "lobby_members", "lobby_tables",
                      "lobby_seats", "ratings", "rated_games", "player_names", "name_keys", "name_codes",
                      "daily_secret", "daily_plays"}
    assert pg_admin.execute("SELECT version FROM momiji_schema").fetchone() == (SCHEMA_VERSION,)
    changed = pg_admin.execute("SELECT changed FROM momiji_schema").fetchone()
    store = await open_store(pg_url)  # a no-op: same version, same row, nothing created twice
    assert await schema_version(store.conn) == SCHEMA_VERSION
    await store.close()
    assert pg_admin.execute("SELECT changed FROM momiji_schema").fetchone() == changed


async def test_a_newer_schema_is_refused_and_left_as_it_is(pg_url, pg_admin):
    await (await open_store(pg_url)).close()
    pg_admin.execute("UPDATE momiji_schema SET version = %s", (SCHEMA_VERSION + 1,))
    with pytest.raises(NewerSchema, match=rf"newer momiji-tui \(schema {SCHEMA_VERSION + 1}; "
                                          rf"this version knows up to {SCHEMA_VERSION}\)"):
        await open_store(pg_url)
    assert pg_admin.execute("SELECT version FROM momiji_schema").fetchone() == (SCHEMA_VERSION + 1,)


async def test_a_version_1_database_is_migrated_to_2_keeping_its_games(pg_url, pg_admin):
    """A database set up by an older momiji (schema 1: games and events
    only) gets the lobby's tables (version 2) and every later version's at
    the next start; its games stay."""
    conn = await open_connection(pg_url, autocommit=True)
    try:
        saved = dict(schema.STEPS)
        for later in range(2, schema.SCHEMA_VERSION + 1):
            schema.STEPS.pop(later)
        real, schema.SCHEMA_VERSION = schema.SCHEMA_VERSION, 1
        try:
            await schema.ensure_schema(conn)  # what momiji with schema 1 made
        finally:
            schema.SCHEMA_VERSION = real
            schema.STEPS.update(saved)
        assert await schema_version(conn) == 1
        await conn.execute("INSERT INTO games (game_id, header, rules_version, save_format, created, last_played)"
                           " VALUES (%s, '{}', '2026.11-2', 5, now(), now())", (GAME,))
    finally:
        await conn.close()
    store = await open_store(pg_url)
    await store.close()
    assert pg_admin.execute("SELECT version FROM momiji_schema").fetchone() == (SCHEMA_VERSION,)
    assert pg_admin.execute("SELECT game_id FROM games").fetchall() == [(GAME,)]
    assert pg_admin.execute("SELECT count(*) FROM lobby_seats").fetchone() == (0,)
    assert pg_admin.execute("SELECT count(*) FROM player_names").fetchone() == (0,)


async def test_a_whole_seeded_game_reads_back_as_its_save_file_does(pg_url, isolated_dirs):
    table = play_file_game(isolated_dirs, seed=11)
    from_file = load(table.log.path, validate_log)
    store = await open_store(pg_url)
    try:
        await store.import_loaded(from_file)
        stored = await store.load_game(table.game_id, validate_log)
    finally:
        await store.close()
    assert stored.loaded.events == from_file.events
    assert stored.position == len(from_file.events)
    assert stored.loaded.last_played == from_file.last_played
    assert fold_dicts(stored.loaded.events) == table.state
    assert engine.score(fold_dicts(stored.loaded.events)) == engine.score(table.state)


async def test_appended_moves_read_back_in_order_and_a_taken_id_is_refused(pg_url):
    store = await open_store(pg_url)
    try:
        await store.create_game(HEADER, [{"type": "A"}])
        assert await store.append(GAME, 1, [{"type": "B"}, {"type": "C"}]) == 3
        assert [e["type"] for _, e in await store.read(GAME, after=1)] == ["B", "C"]
        assert (await store.read(GAME))[1][1]["move_continues"] is True  # the save file's line, marks and all
        with pytest.raises(GameExists):
            await store.create_game(HEADER, [{"type": "A"}])
    finally:
        await store.close()


async def test_two_writers_racing_on_one_game_exactly_one_move_lands(pg_url, pg_admin):
    """Two connections append at the same expected position: one wins, the
    other gets Conflict with the position now, whichever is first. The first
    holds its transaction open until the second is seen waiting on it (no sleep)."""
    first, second = await open_store(pg_url), await open_store(pg_url)
    try:
        await first.create_game(HEADER, [{"type": "A"}])
        hold = asyncio.Event()
        in_insert = asyncio.Event()
        second_pid = second.conn.info.backend_pid

        async def first_writer() -> int:
            async with first.conn.transaction():
                await first.conn.execute("INSERT INTO events (game_id, position, event) VALUES (%s, 2, %s)",
                                         (GAME, psycopg.types.json.Jsonb({"type": "First"})))
                in_insert.set()
                await hold.wait()
            return 2

        async def until_second_waits() -> None:
            await in_insert.wait()
            for _ in range(2000):  # the second writer blocks on the first's row at once; ~20 s on a busy machine
                row = pg_admin.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s",
                                       (second_pid,)).fetchone()
                if row and row[0] == "Lock":
                    break
                await asyncio.sleep(0.01)
            else:
                raise AssertionError("the second writer never waited for the first")
            hold.set()

        async def second_writer() -> int:
            await in_insert.wait()
            return await second.append(GAME, 1, [{"type": "Second"}])

        results = await asyncio.gather(first_writer(), second_writer(), until_second_waits(),
                                       return_exceptions=True)
        assert results[0] == 2
        assert isinstance(results[1], Conflict) and results[1].position == 2 and results[1].expected == 1
        assert [e["type"] for _, e in await first.read(GAME)] == ["A", "First"]
    finally:
        await first.close()
        await second.close()


async def test_of_two_appends_at_one_position_one_wins_either_order(pg_url):
    first, second = await open_store(pg_url), await open_store(pg_url)
    try:
        await first.create_game(HEADER, [{"type": "A"}])
        results = await asyncio.gather(first.append(GAME, 1, [{"type": "X"}, {"type": "Y"}]),
                                       second.append(GAME, 1, [{"type": "Z"}]), return_exceptions=True)
        wins = [r for r in results if isinstance(r, int)]
        lost = [r for r in results if isinstance(r, Conflict)]
        assert len(wins) == 1 and len(lost) == 1
        assert lost[0].position == wins[0]
        assert len(await first.read(GAME)) == wins[0]
        with pytest.raises(Conflict, match="changed meanwhile"):  # a gap is refused too
            await first.append(GAME, wins[0] + 5, [{"type": "W"}])
    finally:
        await first.close()
        await second.close()


@pytest.mark.parametrize(("damage", "reason"), [
    ("'5'", "The event at position 2 is not an event object."),
    ("'{\"seat\": 1}'", 'The event at position 2 has no "type".'),
    ("'{\"type\": \"CardsPlayed\", \"cards\": \"nonsense\"}'", "The rules reject this"),
])
async def test_a_damaged_row_is_reported_never_dropped(pg_url, pg_admin, isolated_dirs, damage, reason):
    table = play_file_game(isolated_dirs, seed=3, moves=4)
    store = await open_store(pg_url)
    try:
        await store.import_loaded(load(table.log.path, validate_log))
        pg_admin.execute(f"UPDATE events SET event = {damage}::jsonb WHERE game_id = %s AND position = 2",
                         (table.game_id,))
        with pytest.raises(DamagedLog) as caught:
            await store.load_game(table.game_id, validate_log)
        assert reason in caught.value.reason
        assert table.game_id in str(caught.value)
        [listed] = await store.list_games(validate_log)
        assert (listed.status, listed.problem) == ("damaged", caught.value.reason)
    finally:
        await store.close()


async def test_a_missing_row_is_reported(pg_url, pg_admin):
    store = await open_store(pg_url)
    try:
        await store.create_game(HEADER, [{"type": "A"}, {"type": "B"}, {"type": "C"}])
        pg_admin.execute("DELETE FROM events WHERE position = 2")
        with pytest.raises(DamagedLog, match="position 2 is missing"):
            await store.load_game(GAME)
    finally:
        await store.close()


async def test_a_connection_to_a_closed_port_is_one_clear_line(pg_cluster):
    url = f"postgresql://postgres@127.0.0.1:{free_port()}/momiji"
    with pytest.raises(DatabaseUnavailable) as caught:
        await open_connection(url)
    text = str(caught.value)
    assert "\n" not in text
    assert text.startswith(f"Could not connect to the database at 127.0.0.1:{url.split(':')[-1]}")
    assert "refused" in text.lower()


async def test_an_older_schema_is_migrated_step_by_step_once(pg_url, pg_admin, monkeypatch):
    await (await open_store(pg_url)).close()
    monkeypatch.setattr(schema, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    monkeypatch.setitem(schema.STEPS, SCHEMA_VERSION + 1, ("ALTER TABLE games ADD COLUMN table_name text",))
    store = await open_store(pg_url)  # migrates 1 -> 2
    assert await schema_version(store.conn) == SCHEMA_VERSION + 1
    assert await schema.ensure_schema(store.conn) == SCHEMA_VERSION + 1  # again: nothing to do (no duplicate column)
    await store.close()
    assert pg_admin.execute("SELECT count(*) FROM information_schema.columns"
                            " WHERE table_name = 'games' AND column_name = 'table_name'").fetchone() == (1,)


async def test_a_players_games_are_listed_by_owner(pg_url):
    store = await open_store(pg_url)
    try:
        other = {**HEADER, "game_id": "20261201-080000-00000c"}
        await store.create_game(HEADER, [{"type": "A"}], owners=["key-alice"])
        await store.create_game(other, [{"type": "A"}], owners=["key-alice", "key-bob"])
        assert await store.game_ids("key-bob") == [other["game_id"]]
        assert set(await store.game_ids("key-alice")) == {GAME, other["game_id"]}
        assert await store.game_ids("key-carol") == []
        assert [g.game_id for g in await store.list_games(owner="key-bob")] == [other["game_id"]]
    finally:
        await store.close()
