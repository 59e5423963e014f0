"""Compare two streamed tournaments of one bot game by game.

    python -m bench.paired OLD.jsonl NEW.jsonl [--bot hard]

Both files are ``momiji tournament --stream`` output on the same seed (the
same games: deal, seating and opponents' seeds), with a bot whose spec starts
with ``--bot`` (default ``hard``) in one seat of each game. For the games
present in both, it prints each run's mean win share and margin (the bot's
score minus the best other seat's, RULES §7) and the mean of the paired
differences NEW − OLD, each with ±1.96 standard errors. A paired difference
removes the deal's luck, which both runs share; docs/BOTS.md uses it for
every screen. Lines that are not JSON (a run stopped mid-line) are skipped.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Sequence


def load(path: str, bot: str) -> dict[int, tuple[float, float]]:
    """Game number → (the bot's win share, its margin) in one stream."""
    out: dict[int, tuple[float, float]] = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            try:
                record = json.loads(line)
            except ValueError:
                continue
            game = record.get("game") if isinstance(record, dict) else None
            if not isinstance(game, dict):
                continue
            seat = next(i for i, spec in enumerate(game["lineup"]) if spec.startswith(bot))
            others = [s for j, s in enumerate(game["scores"]) if j != seat]
            out.setdefault(game["game"], (game["win_share"][seat], game["scores"][seat] - max(others)))
    return out


def mean_and_half_width(xs: Sequence[float]) -> tuple[float, float]:
    """The mean of ``xs`` and 1.96 standard errors of it (0 for one value)."""
    m = sum(xs) / len(xs)
    var = sum((x - m) ** 2 for x in xs) / max(1, len(xs) - 1)
    return m, 1.96 * math.sqrt(var / len(xs))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("old")
    p.add_argument("new")
    p.add_argument("--bot", default="hard")
    a = p.parse_args(argv)
    old, new = load(a.old, a.bot), load(a.new, a.bot)
    games = sorted(set(old) & set(new))
    if not games:
        print("no game is in both streams")
        return 1
    for name, run in (("old", old), ("new", new)):
        w, dw = mean_and_half_width([run[g][0] for g in games])
        m, dm = mean_and_half_width([run[g][1] for g in games])
        print(f"{name}: {len(games)} games, wins {100 * w:.1f}% ± {100 * dw:.1f}, margin {m:+.2f} ± {dm:.2f}")
    w, dw = mean_and_half_width([new[g][0] - old[g][0] for g in games])
    m, dm = mean_and_half_width([new[g][1] - old[g][1] for g in games])
    print(f"new − old: wins {100 * w:+.1f} ± {100 * dw:.1f} points, margin {m:+.2f} ± {dm:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
