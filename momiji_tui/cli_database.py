"""``momiji list/export/import`` on a PostgreSQL database:
``--database URL`` or ``$MOMIJI_DATABASE_URL``, and moving every game between
the file store and the database (``import --all-from DIR``, ``export --all
--to DIR``).

A database that cannot be used (a bad URL, no answer, a refused login, a
newer schema, the driver not installed) is one line on stderr and exit
status 2, never a traceback. Imports are lazy, as in ``cli``: psycopg loads
only when a database is named.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

ENV_VAR = "MOMIJI_DATABASE_URL"
NOT_INSTALLED = ("PostgreSQL support is not installed: pip install 'momiji-tui[postgres]' "
                 "(or use the file store: leave out --database and MOMIJI_DATABASE_URL).")
UNUSABLE = 2  # exit status when the database cannot be used at all

T = TypeVar("T")


class _Unusable(Exception):
    """The database cannot be used: ``str()`` is the one line to print."""


def add_database_option(p: argparse.ArgumentParser) -> None:
    """``--database URL`` on a command that reads or writes saves."""
    p.add_argument("--database", metavar="URL",
                   help="use the games in this PostgreSQL database (postgresql://USER@HOST:PORT/DBNAME) "
                        "instead of the data dir (default: $MOMIJI_DATABASE_URL if set)")


def database_url(args: argparse.Namespace) -> str | None:
    """The database named by ``--database`` or ``$MOMIJI_DATABASE_URL``, or None (the file store)."""
    return getattr(args, "database", None) or os.environ.get(ENV_VAR) or None


@contextmanager
def _store(url: str) -> Iterator[Any]:
    """An open ``SyncGameStore``; raises :class:`_Unusable` when it cannot be had."""
    try:
        from .store.database import SyncGameStore
    except ImportError:
        raise _Unusable(NOT_INSTALLED) from None
    from .store.errors import DatabaseUnavailable, NewerSchema

    try:
        store = SyncGameStore(url)
    except (DatabaseUnavailable, NewerSchema) as exc:
        raise _Unusable(str(exc)) from None
    try:
        yield store
    finally:
        try:
            store.close()
        except Exception:
            pass


def run(action: Callable[[Any], int], url: str) -> int:
    """Run ``action(store)`` on the database at ``url``; a database that
    cannot be used, or that fails midway, is one line on stderr."""
    import psycopg

    try:
        with _store(url) as store:
            return action(store)
    except _Unusable as exc:
        print(exc, file=sys.stderr)
        return UNUSABLE
    except psycopg.Error as exc:  # e.g. the connection lost midway: nothing half done (one transaction a game)
        from .store.database.connect import one_line, where

        print(f"The database at {where(url)} failed: {one_line(str(exc))}.", file=sys.stderr)
        return 1


def _driver_present(url: str) -> int | None:
    """None if psycopg can be imported, else the exit status after saying so."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        print(NOT_INSTALLED, file=sys.stderr)
        return UNUSABLE
    return None


def cmd_list(args: argparse.Namespace, url: str) -> int:
    """``momiji list --database URL``: the database's games as ``list`` shows files."""
    from .session.saves import describe
    from .session.table import validate_log
    from .ui.models.saved_columns import list_lines

    def action(store: Any) -> int:
        rows = [describe(g) for g in store.list_games(validate_log)]
        if not rows:
            print("No saved games in the database.")
            return 0
        for line in list_lines(rows, args.width):
            print(line)
        return 0

    return _driver_present(url) or run(action, url)


def cmd_export(args: argparse.Namespace, url: str) -> int:
    """``momiji export GAME_ID PATH --database URL``, or ``export --all --to DIR``."""
    from .session.table import validate_log
    from .store.database.transfer import export_all_to, export_file
    from .store.errors import WriteFailed

    def one(store: Any) -> int:
        return report_export(lambda: export_file(store, args.game_id, args.path, validate_log), args.game_id)

    def every(store: Any) -> int:
        try:
            moved = export_all_to(store, args.to, validate_log)
        except WriteFailed as exc:
            print(exc, file=sys.stderr)
            return 1
        return _report(moved, f"Exported {{n}} from the database to {Path(args.to)}", "already there")

    return _driver_present(url) or run(every if args.all else one, url)


def cmd_verify(game_id: str, url: str) -> int:
    """``momiji verify GAME_ID --database URL``: the game's deal and
    commitment checked (exit 0, 1) or why it cannot be (exit 2)."""
    from .session.verify import CANNOT_CHECK, verify_game
    from .store.errors import StoreError

    def action(store: Any) -> int:
        try:
            loaded = store.load_game(game_id).loaded
        except StoreError as exc:
            print(exc, file=sys.stderr)
            return CANNOT_CHECK
        return print_verdict(verify_game(loaded.header, loaded.events))

    return _driver_present(url) or run(action, url)


def run_on_database(action: Callable[[Any], int], url: str) -> int:
    """``action(store)`` on the database at ``url`` (a ``SyncGameStore``),
    or the one line saying why it cannot be used (exit 2)."""
    return _driver_present(url) or run(action, url)


def print_verdict(verdict: Any) -> int:
    """Print a ``session.verify.Verdict``'s lines; return its status."""
    for line in verdict.lines:
        print(line)
    return int(verdict.status)


def report_export(export: Callable[[], Path], game_id: str) -> int:
    """Run ``export()`` (it returns the file written) for ``momiji export``,
    from the file store or the database, and say what happened: exit status
    0, or 1 with the reason on stderr (a ``WriteFailed`` in its own words; any
    other ``StoreError`` or ``OSError`` as "Could not export ID: …")."""
    return _report_one(export, f"Could not export {game_id}", lambda dest: f"Exported {game_id} to {dest}.")


def cmd_import(args: argparse.Namespace, url: str) -> int:
    """``momiji import FILE --database URL``, or ``import --all-from DIR``."""
    from .session.table import validate_log
    from .store.database.transfer import import_all_from, import_file

    def one(store: Any) -> int:
        return report_import(lambda: import_file(store, args.path, validate_log), args.path,
                             "Imported {game_id} into the database.")

    def every(store: Any) -> int:
        if (wrong := all_from_problem(Path(args.all_from))) is not None:
            print(wrong, file=sys.stderr)
            return 1
        try:
            moved = import_all_from(store, args.all_from, validate_log)
        except OSError as exc:
            print(f"The saved games in {args.all_from} cannot be listed: {exc}", file=sys.stderr)
            return 1
        return _report(moved, f"Imported {{n}} from {Path(args.all_from)} into the database", "already there")

    return _driver_present(url) or run(every if args.all_from else one, url)


def all_from_problem(folder: Path) -> str | None:
    """Why ``import --all-from FOLDER`` would find nothing because of a wrong
    path (None when ``FOLDER`` holds a ``games/`` folder, the data dir
    layout): there is no such folder, or it is not a data folder (often its
    ``games/`` folder itself). Raises nothing."""
    if not folder.is_dir():
        return f"There is no folder {folder}."
    if not (folder / "games").is_dir():
        return f"No games found in {folder}: give the data folder (the one that holds games/)."
    return None


def report_import(add: Callable[[], str], path: str, done: str) -> int:
    """Run ``add()`` (it returns the id of the game added) for ``momiji
    import``, into the file store or the database, and say what happened:
    ``done`` with ``{game_id}`` filled in and exit status 0, or 1 with the
    reason on stderr ("There is no file PATH." for a ``FileNotFoundError``; a
    ``WriteFailed`` in its own words; any other ``StoreError`` or ``OSError``
    as "Could not import PATH: …")."""
    return _report_one(add, f"Could not import {path}", lambda game_id: done.format(game_id=game_id),
                       missing=f"There is no file {path}.")


def _report_one(call: Callable[[], T], failed: str, done: Callable[[T], str], *, missing: str | None = None) -> int:
    """Run ``call()`` (one game exported or imported) and print ``done(its
    result)``: 0; or, on stderr, ``missing`` for a ``FileNotFoundError`` (when
    given), a ``WriteFailed`` in its own words, any other ``StoreError`` or
    ``OSError`` after ``failed``: 1."""
    from .store.errors import StoreError, WriteFailed

    try:
        result = call()
    except WriteFailed as exc:
        print(exc, file=sys.stderr)
        return 1
    except (StoreError, OSError) as exc:
        missing_file = missing is not None and isinstance(exc, FileNotFoundError)
        print(missing if missing_file else f"{failed}: {exc}", file=sys.stderr)
        return 1
    print(done(result))
    return 0


def _report(moved: Any, done: str, already: str) -> int:
    """Print what a bulk move did; 1 if a game could not go (damaged, newer…)."""
    n = len(moved.moved)
    line = done.format(n=f"{n} game{'s' if n != 1 else ''}")
    if moved.already:
        line += f"; {len(moved.already)} {already} (left as they were)"
    print(line + ".")
    for game_id, why in moved.skipped:
        print(f"Not moved: {game_id}: {why}", file=sys.stderr)
    return 1 if moved.skipped else 0


def check_transfer_args(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Usage errors (exit 2) of ``export``/``import``: one game or all, and
    moving all needs a database."""
    url = database_url(args)
    if args.command == "export":
        if args.all or args.to:
            if not (args.all and args.to) or args.game_id or args.path:
                parser.error("export: give GAME_ID PATH, or --all --to DIR (not both)")
            if not url:
                parser.error("export --all: give --database URL (or set MOMIJI_DATABASE_URL)")
        elif not (args.game_id and args.path):
            parser.error("export: give GAME_ID PATH, or --all --to DIR")
    elif args.command == "import":
        if bool(args.all_from) == bool(args.path):
            parser.error("import: give a FILE, or --all-from DIR (not both)")
        if args.all_from and not url:
            parser.error("import --all-from: give --database URL (or set MOMIJI_DATABASE_URL)")
