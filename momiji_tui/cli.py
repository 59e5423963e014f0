"""``momiji``: play, learn, resume, list, simulate, tournament, serve.

Imports are lazy so ``momiji --help`` starts fast (no Textual import).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from collections.abc import Mapping
from pathlib import Path

from .safe_text import safe_text


REVIEW_CANCELLED = "Review cancelled; nothing was saved."
CACHE_IGNORED = ("the review kept beside the game did not hold up against the game as it is now (edited, "
                 "damaged or for other settings): it was not used; the review was computed again.")
FROM_CACHE = "read from the review kept beside the game (no new search)."
NOT_CACHED = ("the review could not be saved beside the game (read-only folder or disk full): "
              "it is computed again next time.")
NO_TERMINAL = ("momiji needs an interactive terminal: stdin and stdout are not one "
               "(in scripts: momiji list, replay ID --review, export, simulate).")
NO_TERMINAL_STATUS = 2
"""Exit status of a full-screen command refused for want of a terminal (a usage error)."""
BROKEN_PIPE_STATUS = 141
"""Exit status when the reader of stdout went away: 128 + SIGPIPE, what the
shell reports for ``git log | head -1`` or ``ls | head -1`` (so ``set -o
pipefail`` scripts see momiji as they see git)."""


def _data_dir(args: argparse.Namespace) -> Path:
    from .store import data_dir

    return data_dir(args.data_dir)


def _add_common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data-dir", help="where games are saved (default: the platform data directory, "
                                       "or $MOMIJI_DATA_DIR)")


def terminal_refusal(env: Mapping[str, str], stdin_tty: bool, stdout_tty: bool) -> str | None:
    """Why a full-screen command cannot start here, as one line, or None.

    It needs a terminal on stdin and stdout (else :data:`NO_TERMINAL`), and
    one with cursor control: ``TERM`` unset, empty, ``dumb`` or ``unknown``
    gets the SSH server's message (``ssh.terminal.no_cursor_message``).
    On Windows, whose consoles set no ``TERM``, only the first is checked."""
    from .ssh.terminal import NO_CURSOR_TERMS, no_cursor_message

    if not (stdin_tty and stdout_tty):
        return NO_TERMINAL
    term = env.get("TERM", "").strip()
    if sys.platform != "win32" and term.lower() in NO_CURSOR_TERMS:
        return no_cursor_message(term)
    return None


def _refuse_without_terminal() -> bool:
    """Print why the full-screen app cannot start here (then True), or False."""
    why = terminal_refusal(os.environ, sys.stdin.isatty(), sys.stdout.isatty())
    if why:
        print(why, file=sys.stderr)
    return why is not None


def cmd_play(args: argparse.Namespace) -> int:
    """Start the app: the menu (with 'Continue'), or a new game at once."""
    if _refuse_without_terminal():
        return NO_TERMINAL_STATUS
    from .ui.app import MomijiApp
    from .ui.models.new_game import NewGameOptions

    new = None
    if args.seats or args.seed is not None or args.draft or args.bots:
        levels = args.bots or ("normal",)
        seats = args.seats or (len(levels) + 1 if len(levels) > 1 else 2)
        new = NewGameOptions(name=args.name, seats=seats, bot_level=levels[0],
                             bot_levels=levels if len(levels) > 1 else (),
                             landscape_mode="draft" if args.draft else "starter", seed=args.seed)
    return _run_app(MomijiApp(_data_dir(args), new_game=new))


def cmd_learn(args: argparse.Namespace) -> int:
    """Start the guided first game ("Learn to play") at once."""
    if _refuse_without_terminal():
        return NO_TERMINAL_STATUS
    from .ui.app import MomijiApp

    return _run_app(MomijiApp(_data_dir(args), learn=True))


def _run_app(app) -> int:
    """Run the app; if it could not open the game it was asked for (disk
    full, read-only, open elsewhere…), print why and return 1."""
    app.run()
    if app.return_code:
        print(app.start_error or "momiji stopped with an error.", file=sys.stderr)
        return app.return_code
    return 0


def _saved_path(args: argparse.Namespace, data: Path) -> Path | None:
    """The file of ``args.game_id`` (checked), or None after printing why not."""
    from .session.saves import find_game
    from .store.errors import StoreError

    try:
        return find_game(data, args.game_id)
    except StoreError as exc:
        print(exc, file=sys.stderr)
        return None


def _check_saved(path: Path) -> bool:
    """Load and check a save before a screen opens it; print why it cannot be opened."""
    from .session.saves import open_saved
    from .store.errors import StoreError

    try:
        loaded = open_saved(path)
    except (StoreError, OSError) as exc:
        print(exc, file=sys.stderr)
        return False
    for warning in loaded.warnings:
        print(f"Note: {warning}", file=sys.stderr)
    return True


def cmd_resume(args: argparse.Namespace) -> int:
    """Continue a saved game (the latest unfinished one by default)."""
    if _refuse_without_terminal():
        return NO_TERMINAL_STATUS
    from .session.saves import latest_unfinished_game
    from .ui.app import MomijiApp

    data = _data_dir(args)
    if args.game_id:
        path = _saved_path(args, data)
        if path is None:
            return 1
    else:
        try:
            latest = latest_unfinished_game(data)
        except OSError as exc:
            print(f"The saved games cannot be listed: {exc}", file=sys.stderr)
            return 1
        if latest is None:
            print("There is no unfinished game to resume. Start one with: momiji", file=sys.stderr)
            return 1
        path = latest.path
    if not _check_saved(path):
        return 1
    return _run_app(MomijiApp(data, resume_path=path))


def cmd_replay(args: argparse.Namespace) -> int:
    """Step through a saved game, event by event or turn by turn (or, with
    ``--review``, print its post-game review)."""
    if not args.review and _refuse_without_terminal():
        return NO_TERMINAL_STATUS
    from .ui.app import MomijiApp

    data = _data_dir(args)
    path = _saved_path(args, data)
    if path is None or not _check_saved(path):
        return 1
    if args.review:
        return _print_review(path)
    return _run_app(MomijiApp(data, replay_path=path, replay_watch=args.watch))


def _print_review(path: Path) -> int:
    """Print a finished game's post-game review; progress on stderr.
    Ctrl-C cancels: a message, exit 130, nothing cached."""
    from .session.review_saved import ReviewRefused, review_saved_game
    from .store.errors import StoreError
    from .ui.models.review_text import review_text

    live = sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        if live or done in (0, total):
            end = "\n" if done == total or not live else ""
            print(f"\rReviewing with the Hard bot: {done} of {total} decisions", end=end, file=sys.stderr,
                  flush=True)

    try:
        outcome = review_saved_game(path, progress=progress)
    except KeyboardInterrupt:
        print(f"\n{REVIEW_CANCELLED}", file=sys.stderr)
        return 130
    except (ReviewRefused, StoreError, OSError, ValueError) as exc:
        print(f"No review: {exc}", file=sys.stderr)
        return 1
    print(review_text(outcome.review, events=outcome.events).plain)
    if outcome.cache_ignored:
        print(f"Note: {CACHE_IGNORED}", file=sys.stderr)
    if outcome.from_cache:
        print(f"Note: {FROM_CACHE}", file=sys.stderr)
    elif not outcome.cached:
        print(f"Note: {NOT_CACHED}", file=sys.stderr)
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    """Print the saved games, last played first (damaged files are moved
    aside when the data dir allows it, and explained). Never needs a lock."""
    from . import cli_database
    from .session.saves import describe_saved_games
    from .ui.models.saved_columns import list_lines

    if url := cli_database.database_url(args):
        args.width = _terminal_width()
        return cli_database.cmd_list(args, url)
    try:
        rows = describe_saved_games(_data_dir(args))
    except OSError as exc:  # e.g. the games folder cannot be read
        print(f"The saved games cannot be listed: {exc}", file=sys.stderr)
        return 1
    if not rows:
        print("No saved games.")
        return 0
    for line in list_lines(rows, _terminal_width()):
        print(line)
    return 0


def _terminal_width() -> int | None:
    """The terminal's width in columns (``$COLUMNS`` first), or None when the
    output is not a terminal (then ``list`` prints one line per game, for
    scripts)."""
    if not sys.stdout.isatty():
        return None
    columns = shutil.get_terminal_size((0, 0)).columns
    return columns if columns > 0 else None


def cmd_delete(args: argparse.Namespace) -> int:
    """Delete a saved game for good, after asking (``--yes`` skips the question)."""
    from .session.saves import describe_file
    from .store import check_deletable, delete_game
    from .store.errors import StoreError

    data = _data_dir(args)
    path = _saved_path(args, data)
    if path is None:
        return 1
    try:
        check_deletable(data, args.game_id)  # refused (open for play…) before the question
    except StoreError as exc:
        print(exc, file=sys.stderr)
        return 1
    if not args.yes:
        row = describe_file(path)
        what = f"{row.status}, {row.seats}" if row.seats else row.status
        print(f"Delete saved game {args.game_id} ({what})? This cannot be undone. [y/N] ", end="", flush=True)
        answer = sys.stdin.readline()
        if answer.strip().lower() not in ("y", "yes"):
            print("Nothing was deleted.")
            return 1
    try:
        delete_game(data, args.game_id)
    except StoreError as exc:
        print(exc, file=sys.stderr)
        return 1
    print(f"Deleted {args.game_id}.")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    """Copy a saved game's file, byte for byte, to PATH (never overwriting)."""
    from . import cli_database
    from .store import export_game

    if url := cli_database.database_url(args):
        return cli_database.cmd_export(args, url)
    data = _data_dir(args)
    if _saved_path(args, data) is None:
        return 1
    return cli_database.report_export(lambda: export_game(data, args.game_id, args.path), args.game_id)


def cmd_import(args: argparse.Namespace) -> int:
    """Add a game file (e.g. from ``momiji export``) to the saved games, after checking it."""
    from . import cli_database
    from .session.table import validate_log
    from .store import import_game

    if url := cli_database.database_url(args):
        return cli_database.cmd_import(args, url)
    data = _data_dir(args)
    return cli_database.report_import(lambda: import_game(data, args.path, validate_log), args.path,
                                      "Imported {game_id}. Resume it with: momiji resume {game_id}")


def cmd_verify(args: argparse.Namespace) -> int:
    """Check a game's deal against its seed and its commitment
    (:mod:`.session.verify`): one line per check; exit 0 (verified), 1 (a
    check failed) or 2 (nothing could be checked)."""
    from . import cli_database
    from .session.verify import CANNOT_CHECK, verify_game
    from .store import is_game_id, load
    from .store.errors import StoreError

    url = cli_database.database_url(args)
    if url and is_game_id(args.game):
        return cli_database.cmd_verify(args.game, url)
    data = _data_dir(args)
    path = Path(args.game)
    if is_game_id(args.game) and not path.is_file():  # the player's saves, then a server's shared tables
        found = [p / f"{args.game}.jsonl" for p in (data / "games", data / "tables" / "games")]
        path = next((p for p in found if p.is_file()), found[0])
    try:
        loaded = load(path)
    except (StoreError, OSError) as exc:
        print(exc if isinstance(exc, StoreError) else f"No saved game {args.game} ({exc.strerror}).",
              file=sys.stderr)
        return CANNOT_CHECK
    return cli_database.print_verdict(verify_game(loaded.header, loaded.events))



def cmd_daily(args: argparse.Namespace) -> int:
    """Today's daily deal, or its board (``cli_daily``)."""
    if not args.board and not args.database and _refuse_without_terminal():
        return NO_TERMINAL_STATUS
    from .cli_daily import cmd_daily as run_daily

    return run_daily(args, _data_dir(args))


def cmd_simulate(args: argparse.Namespace) -> int:
    """Play bot-only games without the UI and print a summary."""
    from .session.simulate import format_summary, simulate

    summary = simulate(games=args.games, seats=args.seats, seed=args.seed, level=args.bots,
                       landscape_mode="draft" if args.draft else "starter")
    print(format_summary(summary))
    return 0


def cmd_tournament(argv: list[str]) -> int:
    """Delegate to the bots' tournament runner."""
    from .bots.tournament_cli import main_tournament

    return main_tournament(argv)


def cmd_serve(argv: list[str]) -> int:
    """Host the game over SSH."""
    from .ssh.cli import main_serve

    return main_serve(argv)


def build_parser() -> argparse.ArgumentParser:
    """The command line. Values out of range are usage errors (exit 2)."""
    from . import argtypes, cli_database

    parser = argparse.ArgumentParser(prog="momiji", description="Momiji, the autumn-leaves card game, "
                                     "in the terminal.")
    sub = parser.add_subparsers(dest="command")
    play = sub.add_parser("play", help="start the game (the default)")
    _add_common(play)
    play.add_argument("--name", default="You", type=safe_text, help="your name at the table")
    play.add_argument("--seats", type=int, choices=(2, 3, 4), help="start a new game at once with this many seats")
    play.add_argument("--bots", type=argtypes.bot_levels, metavar="LEVEL[,LEVEL…]",
                      help="bot level for a new game (easy, normal, hard): one for every bot, or one per "
                           "bot seat, e.g. hard,normal (then --seats may be left out)")
    play.add_argument("--draft", action="store_true", help="draft landscapes (RULES §2.1)")
    play.add_argument("--seed", type=argtypes.seed, help="seed for a reproducible deal (0 or more)")
    play.set_defaults(func=cmd_play, command_parser=play)
    learn = sub.add_parser("learn", help="learn to play: a guided first game against Easy")
    _add_common(learn)
    learn.set_defaults(func=cmd_learn)
    resume = sub.add_parser("resume", help="continue a saved game")
    _add_common(resume)
    resume.add_argument("game_id", nargs="?", help="the game (default: the latest unfinished)")
    resume.set_defaults(func=cmd_resume)
    replay = sub.add_parser("replay", help="step through a saved game")
    _add_common(replay)
    replay.add_argument("game_id", help="the game (see: momiji list)")
    replay.add_argument("--review", action="store_true",
                        help="print the post-game review: your moves against the Hard bot's (a finished game)")
    replay.add_argument("--watch", action="store_true",
                        help="watch it as a spectator: only what every seat saw, no hand before the end "
                             "(RULES §8)")
    replay.set_defaults(func=cmd_replay)
    lst = sub.add_parser("list", help="list saved games")
    _add_common(lst)
    lst.set_defaults(func=cmd_list)
    delete = sub.add_parser("delete", help="delete a saved game for good")
    _add_common(delete)
    delete.add_argument("game_id", help="the game (see: momiji list)")
    delete.add_argument("--yes", "-y", action="store_true", help="do not ask for confirmation")
    delete.set_defaults(func=cmd_delete)
    export = sub.add_parser("export", help="copy a saved game to a file")
    _add_common(export)
    export.add_argument("game_id", nargs="?", help="the game (see: momiji list)")
    export.add_argument("path", nargs="?", help="the file to write (or a folder); never overwritten")
    export.add_argument("--all", action="store_true", help="every game of the database (with --to)")
    export.add_argument("--to", metavar="DIR", help="the data dir to export every game to (as with --data-dir)")
    export.set_defaults(func=cmd_export, command_parser=export)
    imp = sub.add_parser("import", help="add a game file to the saved games")
    _add_common(imp)
    imp.add_argument("path", nargs="?", help="a file written by momiji export")
    imp.add_argument("--all-from", metavar="DIR", help="every game of this data dir into the database")
    imp.set_defaults(func=cmd_import, command_parser=imp)
    verify = sub.add_parser("verify", help="check a game's deal against its seed and commitment")
    _add_common(verify)
    verify.add_argument("game", metavar="GAME_ID_OR_FILE", help="a game id (see: momiji list) or a save file")
    verify.set_defaults(func=cmd_verify)
    daily = sub.add_parser("daily", help="play the daily deal (one a day, the same for everyone)")
    _add_common(daily)
    daily.add_argument("--board", action="store_true",
                       help="print today's commitment, yesterday's seed and your daily scores (with "
                            "--database: a server's boards of the day and of the week)")
    daily.set_defaults(func=cmd_daily)
    for p in (lst, export, imp, verify, daily):
        cli_database.add_database_option(p)
    sim = sub.add_parser("simulate", help="play bot-only games headless and print a summary")
    sim.add_argument("--games", type=argtypes.whole_number(1), default=10, help="games to play (1 or more)")
    sim.add_argument("--seats", type=int, choices=(2, 3, 4), default=2)
    sim.add_argument("--seed", type=argtypes.seed, default=0, help="seed of the first deal (0 or more)")
    sim.add_argument("--bots", choices=("easy", "normal", "hard"), default="normal")
    sim.add_argument("--draft", action="store_true")
    sim.set_defaults(func=cmd_simulate)
    sub.add_parser("tournament", help="bot tournament with win rates (see: momiji tournament --help)",
                   add_help=False)
    sub.add_parser("serve", help="host games over SSH (see: momiji serve --help)", add_help=False)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``momiji`` console script: the command's exit
    status; :data:`BROKEN_PIPE_STATUS`, quietly, when stdout's reader went
    away (``momiji list | head -1``). Whatever a command prints passes
    ``safe_text``'s rule (``SafeStream``): no name or file-borne text
    reaches the terminal raw."""
    from .safe_text import guard_std_streams

    before = guard_std_streams()
    try:
        status = _dispatch(argv)
        sys.stdout.flush()  # inside the try: a late EPIPE surfaces here, not at exit
    except BrokenPipeError:
        # Python's recommended pattern (docs: signal, "Note on SIGPIPE"):
        # stdout now points at devnull so the flush at exit is quiet too.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, before[0].fileno())
        return BROKEN_PIPE_STATUS
    finally:
        sys.stdout, sys.stderr = before
    return status


def _dispatch(argv: list[str] | None) -> int:
    """Parse ``argv`` (default: ``sys.argv[1:]``) and run the command."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "tournament":
        return cmd_tournament(argv[1:])
    if argv and argv[0] == "serve":
        return cmd_serve(argv[1:])
    parser = build_parser()
    if not argv or (argv[0].startswith("-") and argv[0] not in ("-h", "--help")):
        argv = ["play", *argv]
    args = parser.parse_args(argv)
    if args.command is None:
        args = parser.parse_args(["play"])
    # Checks across options are usage errors of the command (its usage line).
    if args.command == "play":
        _check_bot_count(args.command_parser, args)
    if args.command in ("export", "import"):
        from .cli_database import check_transfer_args

        check_transfer_args(args.command_parser, args)
    return args.func(args)


def _check_bot_count(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """``--bots`` with several levels needs one per bot seat: else a usage
    error (exit 2) naming the count and the choices."""
    from .argtypes import BOT_LEVEL_NAMES

    levels = args.bots or ()
    bot_seats = args.seats - 1 if args.seats else min(len(levels), 3)
    if len(levels) > 1 and len(levels) != bot_seats:
        counts = "1 to 3 bot seats" if args.seats is None else f"{bot_seats} bot seat(s) for --seats {args.seats}"
        parser.error(f"argument --bots: give one level for every bot or one per bot seat ({counts}), "
                     f"not {len(levels)}; each of {', '.join(BOT_LEVEL_NAMES)}")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
