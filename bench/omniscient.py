"""A ceiling diagnostic, not a bot: Hard that sees the true state.

    python -m bench.omniscient --games 80 [--first-game 0] [--seed 1] [--hard SPEC] > omni.jsonl
    python -m bench.paired hard_vs_normal_seed1.jsonl omni.jsonl

Plays the games of ``momiji tournament --bots SPEC,normal --seats 2 --seed S``
(SPEC: ``--hard``, default ``hard``; the same deals, seatings and bot seeds,
which depend on the spec's text) but Hard's search, instead of
dealing worlds from its view, is handed the true state every time: every
hand and the deck's order (what RULES §8 hides). If even this Hard is no
stronger, what limits Hard is not what it cannot see, and better
determinization (sampling hands by what opponents did) cannot help much
(docs/BOTS.md, "Toward 70%"). Prints ``--stream`` game lines (no header).

The bots never see the state in play: this swaps the names ``determinize``
and ``world_and_legal`` of ``bots.hard`` for the run's duration only.
"""

from __future__ import annotations

import argparse
import json
import random
from typing import Any

from momiji_tui.bots import hard, tournament
from momiji_tui.engine import GameState, legal_commands
from momiji_tui.engine.commands import Command
from momiji_tui.engine.view import PlayerView


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=80)
    p.add_argument("--first-game", type=int, default=0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--hard", default="hard", help="Hard's spec, as in the tournament's --bots")
    a = p.parse_args(argv)
    true: dict[str, GameState] = {}

    def seen_view(state: GameState, seat: int) -> PlayerView:
        true["state"] = state
        return real_view(state, seat)

    def the_truth(v: PlayerView, rng: random.Random) -> GameState:
        return true["state"].clone()

    def truth_and_legal(v: PlayerView, rng: random.Random) -> tuple[GameState, list[Command]]:
        world = true["state"].clone()
        return world, legal_commands(world, v.seat)

    real_view = tournament.view
    saved: dict[str, Any] = {"determinize": hard.determinize, "world_and_legal": hard.world_and_legal}
    tournament.view = seen_view  # type: ignore[assignment]
    hard.determinize = the_truth  # type: ignore[assignment]
    hard.world_and_legal = truth_and_legal  # type: ignore[assignment]
    try:
        lineups = tournament.lineups([a.hard, "normal"], 2)
        deals = tournament.deal_seeds(a.seed, a.games, 2, a.first_game)
        for deal, g in zip(deals, range(a.first_game, a.first_game + a.games), strict=True):
            r = tournament.play_game(lineups[g % 2], deal, g, a.seed)
            print(json.dumps({"game": {"game": g, "deal_seed": deal, "lineup": r.lineup, "scores": r.scores,
                                       "win_share": r.win_share}}), flush=True)
    finally:
        tournament.view = real_view
        hard.determinize = saved["determinize"]
        hard.world_and_legal = saved["world_and_legal"]
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
