"""Loading and folding saved games: a 2,000-event log, and the saved-games list.

    python -m bench.bench_load_fold [--quick]

The 2,000-event log is a real 4-seat bot game (easy bots, seed 7) padded in
mid-game with pairs of real card events (a seat discards a card and takes it
back from the discard pile) until it holds 2,000 events: every line is parsed,
decoded and applied like any other, and the rules accept the whole log. A
real game is about 150–250 events, so this is some ten games' worth.

Target (project issue "Saved games you can trust"): load that log and fold
it (read, check every line, decode every event, apply it) in ≤ 20 ms on
this machine. Values are medians of repeated runs. ``Table.replay``/``resume``
are shown too: they check the log by folding it once, then decode and fold
it again for the table.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from momiji_tui import engine
from momiji_tui.bots import make_bot
from momiji_tui.engine import events as ev
from momiji_tui.session.replay import Replay
from momiji_tui.session.saves import describe_saved_games
from momiji_tui.session.table import BOT, SeatConfig, Table, validate_log
from momiji_tui.store import GameLog, load

from .common import median_time, row

TARGET_EVENTS = 2000
TARGET_MS = 20.0


def bot_game(seats: int, seed: int) -> list[ev.Event]:
    """A whole easy-bot game (engine only)."""
    table = Table.new([SeatConfig(f"Bot {i + 1}", BOT, "easy") for i in range(seats)], seed=seed)
    step = 0
    while not table.finished:
        table.submit(make_bot("easy", seed=seed * 7919 + step).choose(table.view(table.current)))
        step += 1
    return table.events


def padded_log(n: int = TARGET_EVENTS, seed: int = 7) -> list[ev.Event]:
    """A real 4-seat game, padded in mid-game to ``n`` events with
    discard/take-back pairs of a card in the current seat's hand."""
    events = bot_game(4, seed)
    middle = next(i for i, e in enumerate(events) if isinstance(e, ev.TurnEnded) and i > len(events) // 2) + 1
    state = engine.fold(events[:middle])
    seat = state.current
    card = state.seats[seat].hand[0]
    pairs = (n - len(events)) // 2
    filler: list[ev.Event] = []
    for _ in range(pairs):
        filler += [ev.CardsDiscarded(seat, (card,), "limit"), ev.CardTaken(seat, card, "discard")]
    out = events[:middle] + filler + events[middle:]
    if len(out) < n:  # an odd remainder: one more harmless event
        out.insert(middle, ev.AcornsGained(seat, 0, "padding"))
    assert len(out) == n
    return out


def write_log(folder: Path, events: list[ev.Event], seats: int = 4) -> Path:
    header = {"rules_version": "bench", "seed": None, "seats": [
        {"name": f"Bot {i + 1}", "kind": "bot", "level": "easy"} for i in range(seats)]}
    with GameLog.create(folder, header, events=[engine.to_dict(e) for e in events]) as log:
        return log.path


def run(quick: bool) -> list[dict]:
    repeat = 7 if quick else 31
    events = padded_log()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        path = write_log(Path(tmp) / "one", events)
        validate_log({}, load(path).events)  # the rules accept the padded log
        dicts = [engine.to_dict(e) for e in events]
        n = len(events)
        def load_and_fold() -> engine.GameState:
            return engine.fold(engine.from_dict(e) for e in load(path).events)

        rows += [
            row(f"load + fold a {n}-event log (store.load, from_dict, fold)",
                median_time(load_and_fold, repeat) * 1e3, "ms", TARGET_MS, False),
            row(f"  load (read, parse, checks), {n} events",
                median_time(lambda: load(path), repeat) * 1e3, "ms", None, False),
            row(f"  load + rules check (one fold), {n} events",
                median_time(lambda: load(path, validate_log), repeat) * 1e3, "ms", None, False),
            row(f"  decode (from_dict), {n} events",
                median_time(lambda: [engine.from_dict(d) for d in dicts], repeat) * 1e3, "ms", None, False),
            row(f"  fold, {n} decoded events", median_time(lambda: engine.fold(events), repeat) * 1e3,
                "ms", None, False),
            row(f"  Replay model (fold + snapshots), {n} events",
                median_time(lambda: Replay(events), repeat) * 1e3, "ms", None, False),
            # What resume/replay do today: load with the rules check (decode + fold),
            # then decode and fold again for the table.
            row(f"Table.replay (checks, then decodes and folds again), {n} events",
                median_time(lambda: Table.replay(path), repeat) * 1e3, "ms", None, False),
        ]
        library = Path(tmp) / "library"
        games = 4 if quick else 10
        total = 0
        for seed in range(games):
            game = bot_game(2 + seed % 3, 100 + seed)
            total += len(game)
            write_log(library, game, seats=2 + seed % 3)
        rows.append(row(f"describe_saved_games, {games} finished games ({total} events)",
                        median_time(lambda: describe_saved_games(library), max(3, repeat // 3)) * 1e3,
                        "ms", None, False))
    return rows


def main(argv: list[str]) -> int:
    for r in run(quick="--quick" in argv):
        target = "" if r["target"] is None else f"  (target ≤ {r['target']}: {'met' if r['met'] else 'NOT met'})"
        print(f"{r['benchmark']:58} {r['value']:>9} {r['unit']}{target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
