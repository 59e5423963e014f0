"""Ratings in the database (``momiji serve --database``): the tables and
the one transaction that rates a game.

- ``ratings``: one row per rated account: ``mu``, ``sigma``, ``games``.
- ``rated_games``: one row per game whose ratings were applied, with each
  account's rating before and after it (``changes``, jsonb, as the ratings
  file writes them: ``store/ratings.py``).

:func:`apply_once` rates a game in one transaction: it first inserts the
game's ``rated_games`` row (``ON CONFLICT DO NOTHING``): of two hosts that
both saw the game end, the second waits on that primary key until the
first commits and then finds the row, so a game is applied exactly once;
if the first rolls back, the second applies it. The accounts' rows are
created if missing and locked (``FOR UPDATE``, in account order, so two
games sharing players never deadlock) before they are read, so two games
ending at once on two hosts each see the other's result.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from ..ratings import Rating, RatingChange, Update, apply_update, changes_from_json, changes_to_json

Connection = psycopg.AsyncConnection[tuple[Any, ...]]

SCHEMA = (
    """CREATE TABLE ratings (
        account_id text PRIMARY KEY,
        mu double precision NOT NULL,
        sigma double precision NOT NULL CHECK (sigma > 0),
        games integer NOT NULL DEFAULT 0 CHECK (games >= 0),
        updated timestamptz NOT NULL DEFAULT now()
    )""",
    """CREATE TABLE rated_games (
        game_id text PRIMARY KEY CHECK (game_id ~ '^[0-9]{8}-[0-9]{6}-[0-9a-f]{6}$'),
        rated timestamptz NOT NULL DEFAULT now(),
        changes jsonb NOT NULL
    )""",
)
"""The statements that add the ratings' tables (a step of ``schema.STEPS``)."""


async def read_ratings(conn: Connection, accounts: Iterable[str]) -> dict[str, Rating]:
    """The ratings of those of ``accounts`` that have one. Raises ``psycopg.Error``."""
    cur = await conn.execute("SELECT account_id, mu, sigma, games FROM ratings WHERE account_id = ANY(%s)",
                             (list(accounts),))
    return {str(a): Rating(float(mu), float(sigma), int(games)) for a, mu, sigma, games in await cur.fetchall()}


async def changes_of(conn: Connection, game_id: str) -> dict[str, RatingChange] | None:
    """What rating ``game_id`` changed, or None if it was not rated. Raises
    ``psycopg.Error``, ``ValueError`` (a row that is not rating changes)."""
    cur = await conn.execute("SELECT changes FROM rated_games WHERE game_id = %s", (game_id,))
    row = await cur.fetchone()
    return None if row is None else changes_from_json(row[0])


async def apply_once(conn: Connection, game_id: str, accounts: Sequence[str], new: Rating,
                     update: Update) -> tuple[dict[str, RatingChange], bool]:
    """Rate ``game_id`` for ``accounts`` unless it is rated already (see the
    module docstring); ``new``: an unrated account's rating. Returns the
    game's changes and True when this call applied them. Raises
    ``psycopg.Error`` (nothing changed), ``ValueError`` from ``update``
    (nothing changed)."""
    async with conn.transaction():
        cur = await conn.execute("INSERT INTO rated_games (game_id, changes) VALUES (%s, '{}') "
                                 "ON CONFLICT (game_id) DO NOTHING RETURNING game_id", (game_id,))
        if await cur.fetchone() is None:
            done = await changes_of(conn, game_id)
            return done or {}, False
        ordered = sorted(set(accounts))
        for account in ordered:
            await conn.execute("INSERT INTO ratings (account_id, mu, sigma, games) VALUES (%s, %s, %s, 0) "
                               "ON CONFLICT (account_id) DO NOTHING", (account, new.mu, new.sigma))
        cur = await conn.execute("SELECT account_id, mu, sigma, games FROM ratings WHERE account_id = ANY(%s) "
                                 "ORDER BY account_id FOR UPDATE", (ordered,))
        before = {str(a): Rating(float(mu), float(sigma), int(games)) for a, mu, sigma, games in await cur.fetchall()}
        changes = apply_update(accounts, before, update)
        for account, change in changes.items():
            await conn.execute("UPDATE ratings SET mu = %s, sigma = %s, games = %s, updated = now() "
                               "WHERE account_id = %s",
                               (change.after.mu, change.after.sigma, change.after.games, account))
        await conn.execute("UPDATE rated_games SET changes = %s WHERE game_id = %s",
                           (Jsonb(changes_to_json(changes)), game_id))
    return changes, True


__all__ = ["SCHEMA", "apply_once", "changes_of", "read_ratings"]
