"""The child process of the crash test: bot-only games saved through a real
``Table`` (``Table.new(..., data_dir=...)`` + ``submit``), one after another.

    python crash_writer.py DATA_DIR FIRST_SEED GAMES

After each game is created it prints ``game <id> <seed> <events>``, after each
accepted command ``ack <id> <events>`` (flushed): a line is printed only once
``submit`` returned, so its events are on disk (fsynced). The parent kills
this process with SIGKILL at random points and checks every file.

Everything a game does follows from its seed, so the parent can rebuild the
full expected event list with :func:`expected_game` (the engine alone, no files).
"""

from __future__ import annotations

import sys

from momiji_tui import engine
from momiji_tui.bots import make_bot
from momiji_tui.session.table import BOT, SeatConfig, Table


def game_params(seed: int) -> tuple[list[SeatConfig], str]:
    """Seats (2–4 easy bots) and landscape mode of the game with ``seed``."""
    seats = [SeatConfig(f"Bot {i + 1}", BOT, "easy") for i in range(2 + seed % 3)]
    return seats, "draft" if seed % 2 else "starter"


def bot_seed(seed: int, step: int) -> int:
    """The bot seed for the ``step``-th command of game ``seed``."""
    return (seed * 100_003 + step) & 0xFFFFFFFF


def expected_game(seed: int, game_id: str) -> tuple[list[dict], list[int]]:
    """The whole game ``seed`` as event dicts, and the event counts at which a
    command ended (``[setup, after command 1, ...]``)."""
    seats, mode = game_params(seed)
    events = engine.create_game([s.name for s in seats], seed=seed, landscape_mode=mode, game_id=game_id)
    state = engine.fold(events)
    out = [engine.to_dict(e) for e in events]
    boundaries = [len(out)]
    step = 0
    while state.phase != "ended":
        command = make_bot("easy", seed=bot_seed(seed, step)).choose(engine.view(state, state.current))
        state, new = engine.run(state, command)
        out.extend(engine.to_dict(e) for e in new)
        boundaries.append(len(out))
        step += 1
    return out, boundaries


def main(argv: list[str]) -> int:
    data_dir, first_seed, games = argv[0], int(argv[1]), int(argv[2])
    for seed in range(first_seed, first_seed + games):
        seats, mode = game_params(seed)
        table = Table.new(seats, seed=seed, landscape_mode=mode, data_dir=data_dir)
        print(f"game {table.game_id} {seed} {len(table.events)}", flush=True)
        step = 0
        while not table.finished:
            command = make_bot("easy", seed=bot_seed(seed, step)).choose(table.view(table.current))
            table.submit(command)
            step += 1
            print(f"ack {table.game_id} {len(table.events)}", flush=True)
        table.close()
    print("done", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
