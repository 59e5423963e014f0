"""The PostgreSQL store: games and their events in a database, for
hosts whose players and tables outgrow one process (ARCHITECTURE "SSH").

``games`` holds each game's save header, ``events`` its events keyed by
``(game_id, position)``: of two writers at one position exactly one wins
(:class:`~momiji_tui.store.errors.Conflict` for the other); every append
NOTIFYs ``momiji_events`` and a :class:`Listener` reads from its last
position on each wake-up and reconnection. Events are the save file's event
objects, checked on read exactly as a file is. :class:`GameStore` is the
asyncio API (the server), :class:`SyncGameStore` the commands' (the CLI);
``transfer`` moves games between the file store and the database.

Needs the ``postgres`` extra (``pip install 'momiji-tui[postgres]'``):
importing this package without psycopg raises ``ImportError``.
"""

from __future__ import annotations

from .connect import ENV_VAR, database_url, open_connection, where
from .games import CHANNEL, GameStore, StoredGame
from .listener import Delivered, Listener
from .open import open_store
from .schema import SCHEMA_VERSION, ensure_schema, schema_version
from .sync import SyncGameStore

__all__ = [
    "CHANNEL", "ENV_VAR", "SCHEMA_VERSION", "Delivered", "GameStore", "Listener", "StoredGame", "SyncGameStore",
    "database_url", "ensure_schema", "open_connection", "open_store", "schema_version", "where",
]
