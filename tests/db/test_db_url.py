"""Database URLs with odd characters: no message ever shows the password
(SERVER "Playing on a database (PostgreSQL)"; store/database/connect.py). Pure: no
PostgreSQL, no connection is opened."""

from __future__ import annotations

import asyncio

import pytest

from momiji_tui.store.errors import DatabaseUnavailable
from momiji_tui.store.database import connect

SECRET_URLS = [
    # a password the driver cannot parse: its message quotes the password
    ("postgresql://kaede:hush%zzsecret@db.example/momiji", "hush%zzsecret"),
    ("postgresql://kaede:hush secret@db.example/momiji", "hush secret"),
    ("postgresql://kaede:hushsecret@[::1:5432/momiji", "hushsecret"),
    # an unencoded @ or / in the password: the driver takes part of it as the host, port or database
    ("postgresql://kaede:p@hushsecret@db.example:5432/momiji", "hushsecret"),
    ("postgresql://kaede:hush/secret@db.example/momiji", "hush/secret"),
    ("postgresql://kaede:4242/9999@db.example/momiji", "4242/9999"),
]


@pytest.mark.parametrize(("url", "password"), SECRET_URLS)
def test_a_url_with_odd_characters_never_shows_its_password(url, password, monkeypatch):
    async def no_connection(*args, **kwargs):
        raise AssertionError("the URL was refused before any connection")

    monkeypatch.setattr(connect.psycopg.AsyncConnection, "connect", no_connection)
    with pytest.raises(DatabaseUnavailable) as info:
        asyncio.run(connect.open_connection(url))
    message = str(info.value)
    assert password not in message
    assert "secret" not in message and "9999" not in message
    assert "%40" in message  # says how to write such a character


def test_a_plain_url_names_host_port_and_database_only():
    assert connect.where("postgresql://kaede:s3cret@db.example:5433/momiji") == "db.example:5433/momiji"
    assert connect.where("postgresql://kaede:p%40ss%2Fw@db.example/momiji") == "db.example:5432/momiji"
