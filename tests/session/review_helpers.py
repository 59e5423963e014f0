"""Shared by the review tests: a finished bot-played game and a
stand-in for Hard's ``advise`` that counts its calls (a plain module with a
unique name across the tree)."""

from __future__ import annotations

from pathlib import Path

from momiji_tui import engine
from momiji_tui.bots import make_bot
from momiji_tui.bots.advice import Advice, Choice
from momiji_tui.engine import events as ev
from momiji_tui.store import games_dir
from momiji_tui.session.table import BOT, HUMAN, SeatConfig, Table


def played_events(seats: int = 2, seed: int = 5) -> list[ev.Event]:
    """A whole starter game, every seat played by a seeded Easy bot (no files)."""
    events = engine.create_game([f"s{i}" for i in range(seats)], seed=seed, game_id=f"test-review-{seats}-{seed}")
    state = engine.fold(events)
    step = 0
    while state.phase != "ended":
        command = make_bot("easy", seed=seed * 1000 + step).choose(engine.view(state, state.current))
        state, new = engine.run(state, command)
        events += new
        step += 1
    return events


_SAVED: dict[int, tuple[str, bytes]] = {}


def saved_finished_game(data_dir, seed: int = 5) -> Path:
    """A finished 2-seat game saved in ``data_dir`` (seat 0 human, played by an
    Easy bot here); returns its path. Played and saved once per process
    (fsync per event is slow), then copied."""
    if seed not in _SAVED:
        table = _play_and_save(data_dir, seed)
        _SAVED[seed] = (table.log.path.name, table.log.path.read_bytes())
        return table.log.path
    name, data = _SAVED[seed]
    path = games_dir(data_dir) / name
    path.write_bytes(data)
    return path


def _play_and_save(data_dir, seed: int) -> Table:
    seats = [SeatConfig("You", HUMAN), SeatConfig("Kaede", BOT, "easy")]
    table = Table.new(seats, seed=seed, data_dir=data_dir)
    step = 0
    while not table.finished:
        table.submit(make_bot("easy", seed=step).choose(table.view(table.current)))
        step += 1
    table.close()
    return table


class FakeAdvisor:
    """``advise`` stand-in: Hard's choice is the first legal command that is not
    the seat's, its chance a function of the seed; the seat's own command is
    included, 0..0.3 worse. Records every call's view and seed."""

    def __init__(self) -> None:
        self.calls: list[tuple[engine.PlayerView, int]] = []

    def __call__(self, view, *, seed, iterations, include=(), should_stop=None) -> Advice:
        self.calls.append((view, seed))
        best = (seed % 1000) / 1000
        mine = max(0.0, best - (seed % 7) / 20)
        return Advice((Choice(engine.EndTurn(view.seat), best, iterations),
                       *(Choice(c, mine, 1) for c in include)))
