"""``python -m momiji_tui.bots.calibration_cli``: make the win-chance
calibration's positions, or report on them (docs/BOTS.md, "Win chance
calibration").

    python -m momiji_tui.bots.calibration_cli --seats 2 --games 410 --seed 3402 >> cal.jsonl
    python -m momiji_tui.bots.calibration_cli --report < cal.jsonl

The first streams one JSON line per position (``calibration_games.Position``)
to stdout; the second reads such lines from stdin and prints the tables of
docs/BOTS.md and the fitted constants (``calibration.fit``).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict

from .calibration import report
from .calibration_games import Position, game_positions


def main(argv: list[str] | None = None) -> int:
    """Run the CLI on ``argv``; 0 on success."""
    parser = argparse.ArgumentParser(prog="python -m momiji_tui.bots.calibration_cli")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--games", type=int, default=410)
    parser.add_argument("--first", type=int, default=0, help="the first game number (to extend a run)")
    parser.add_argument("--seed", type=int, default=3402)
    parser.add_argument("--per-game", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--noise-every", type=int, default=5)
    parser.add_argument("--report", action="store_true", help="read positions from stdin, print the tables")
    args = parser.parse_args(argv)
    if args.report:
        positions = [Position(**json.loads(line)) for line in sys.stdin if line.strip()]
        print(report(positions))
        return 0
    for game in range(args.first, args.first + args.games):
        for p in game_positions(args.seats, game, args.seed, per_game=args.per_game, iterations=args.iterations,
                                noise_every=args.noise_every):
            print(json.dumps(asdict(p)), flush=True)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
