"""``momiji``: play, resume, list, simulate, tournament, serve.

Imports are lazy so ``momiji --help`` starts fast (no Textual import).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path


def _data_dir(args: argparse.Namespace) -> Path:
    from .store import data_dir

    return data_dir(args.data_dir)


def _add_common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data-dir", help="where games are saved (default: the platform data directory, "
                                       "or $MOMIJI_DATA_DIR)")


def cmd_play(args: argparse.Namespace) -> int:
    """Start the app: the menu (with 'Continue'), or a new game at once."""
    from .ui.app import MomijiApp, NewGameOptions

    new = None
    if args.seats or args.seed is not None or args.draft or args.bots:
        new = NewGameOptions(name=args.name, seats=args.seats or 2, bot_level=args.bots or "normal",
                             landscape_mode="draft" if args.draft else "starter", seed=args.seed)
    MomijiApp(_data_dir(args), new_game=new).run()
    return 0


def cmd_resume(args: argparse.Namespace) -> int:
    """Continue a saved game (the latest unfinished one by default)."""
    from .store import game_path, latest_unfinished
    from .store.errors import StoreError
    from .ui.app import MomijiApp

    data = _data_dir(args)
    try:
        if args.game_id:
            path = game_path(data, args.game_id)
            if not path.exists():
                print(f"No saved game {args.game_id} in {data}.", file=sys.stderr)
                return 1
        else:
            latest = latest_unfinished(data)
            if latest is None:
                print("There is no unfinished game to resume. Start one with: momiji", file=sys.stderr)
                return 1
            path = latest.path
    except StoreError as exc:
        print(exc, file=sys.stderr)
        return 1
    MomijiApp(data, resume_path=path).run()
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    """Print the saved games."""
    from .session.saves import describe_saved_games

    rows = describe_saved_games(_data_dir(args))
    if not rows:
        print("No saved games.")
        return 0
    print(f"{'game':22} {'status':12} {'turn':9} {'scores':12} seats / problem")
    for r in rows:
        print(f"{r.game_id:22} {r.status:12} {r.turn:9} {r.scores:12} {r.problem or r.seats}")
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    """Play bot-only games without the UI and print a summary."""
    from .session.simulate import format_summary, simulate

    summary = simulate(games=args.games, seats=args.seats, seed=args.seed, level=args.bots,
                       landscape_mode="draft" if args.draft else "starter")
    print(format_summary(summary))
    return 0


def cmd_tournament(argv: list[str]) -> int:
    """Delegate to the bots' tournament runner."""
    from .bots.tournament import main_tournament

    return main_tournament(argv)


def cmd_serve(argv: list[str]) -> int:
    """Host the game over SSH."""
    from .ssh.cli import main_serve

    return main_serve(argv)


def build_parser() -> argparse.ArgumentParser:
    """The command line."""
    parser = argparse.ArgumentParser(prog="momiji", description="Momiji, the autumn-leaves card game, "
                                     "in the terminal.")
    sub = parser.add_subparsers(dest="command")
    play = sub.add_parser("play", help="start the game (the default)")
    _add_common(play)
    play.add_argument("--name", default="You", help="your name at the table")
    play.add_argument("--seats", type=int, choices=(2, 3, 4), help="start a new game at once with this many seats")
    play.add_argument("--bots", choices=("easy", "normal", "hard"), help="bot level for a new game")
    play.add_argument("--draft", action="store_true", help="draft landscapes (RULES §2.1)")
    play.add_argument("--seed", type=int, help="seed for a reproducible deal")
    play.set_defaults(func=cmd_play)
    resume = sub.add_parser("resume", help="continue a saved game")
    _add_common(resume)
    resume.add_argument("game_id", nargs="?", help="the game (default: the latest unfinished)")
    resume.set_defaults(func=cmd_resume)
    lst = sub.add_parser("list", help="list saved games")
    _add_common(lst)
    lst.set_defaults(func=cmd_list)
    sim = sub.add_parser("simulate", help="play bot-only games headless and print a summary")
    sim.add_argument("--games", type=int, default=10)
    sim.add_argument("--seats", type=int, choices=(2, 3, 4), default=2)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--bots", choices=("easy", "normal", "hard"), default="normal")
    sim.add_argument("--draft", action="store_true")
    sim.set_defaults(func=cmd_simulate)
    sub.add_parser("tournament", help="bot tournament with win rates (see: momiji tournament --help)",
                   add_help=False)
    sub.add_parser("serve", help="host games over SSH (see: momiji serve --help)", add_help=False)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``momiji`` console script."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "tournament":
        return cmd_tournament(argv[1:])
    if argv and argv[0] == "serve":
        return cmd_serve(argv[1:])
    parser = build_parser()
    if not argv or argv[0].startswith("-") and argv[0] not in ("-h", "--help"):
        argv = ["play", *argv]
    args = parser.parse_args(argv)
    if args.command is None:
        args = parser.parse_args(["play"])
    return args.func(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
