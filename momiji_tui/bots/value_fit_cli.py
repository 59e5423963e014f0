"""``python -m momiji_tui.bots.value_fit_cli``: make the self-play positions
that ``learned_value`` is fitted on, or fit and report on them.

    python -m momiji_tui.bots.value_fit_cli --seats 2 --games 400 --seed 35 > v2.jsonl
    python -m momiji_tui.bots.value_fit_cli --fit < v2.jsonl

The first streams one JSON line per position (``value_fit.Position``) to
stdout; the second reads such lines from stdin and prints the held-out
comparison and the fitted constants (``value_fit.holdout_report``).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict

from .learned_value import FEATURES
from .value_fit import Position, game_positions, holdout_report


def main(argv: list[str] | None = None) -> int:
    """Run the CLI on ``argv``; 0 on success."""
    parser = argparse.ArgumentParser(prog="python -m momiji_tui.bots.value_fit_cli")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--first", type=int, default=0, help="the first game number (to extend a run)")
    parser.add_argument("--seed", type=int, default=35)
    parser.add_argument("--ridge", type=float, default=1.0)
    parser.add_argument("--fit", action="store_true", help="read positions from stdin, fit and report")
    args = parser.parse_args(argv)
    if args.fit:
        positions = [Position(**json.loads(line)) for line in sys.stdin if line.strip()]
        k, text = holdout_report(positions, ridge=args.ridge)
        print(text)
        print("(" + ", ".join(f"{c:.4g}" for c in k) + ")")
        for name, c in zip(FEATURES, k, strict=True):
            print(f"  {name:>16} {c:+.4f}")
        return 0
    for game in range(args.first, args.first + args.games):
        for p in game_positions(args.seats, game, args.seed):
            print(json.dumps(asdict(p)), flush=True)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
