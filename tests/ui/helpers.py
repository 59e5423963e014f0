"""Shared helpers for the UI tests (a plain module: unique name across the tree)."""

from __future__ import annotations

from momiji_tui.ui.app import MomijiApp


async def settle(pilot, rounds: int = 3) -> None:
    """Let bots finish thinking and messages drain (bounded)."""
    app = pilot.app
    for _ in range(rounds):
        await app.workers.wait_for_complete()
        await pilot.pause()


async def until_human_or_end(pilot, limit: int = 400) -> None:
    """Wait until the game needs the human seat (or has ended)."""
    app: MomijiApp = pilot.app
    for _ in range(limit):
        await settle(pilot, 1)
        table = app.table
        if table is None:
            continue  # the app is still opening the game
        if table.finished or table.bot_to_move() is None and app.thinking is None:
            return
    raise AssertionError("the bots never handed the turn back")


class ScriptedBot:
    """A cheap, deterministic test bot: a seeded random legal command, ending
    its turn as soon as it may. Independent of the real bots, so layout
    snapshots do not change when the bots get stronger."""

    def __init__(self, seed: int) -> None:
        import random

        self.rng = random.Random(seed)

    def choose(self, view):
        import random

        from momiji_tui.engine import EndTurn, determinize, legal_commands

        legal = legal_commands(determinize(view, random.Random(0)), view.seat)
        ends = [c for c in legal if isinstance(c, EndTurn)]
        return ends[0] if ends else self.rng.choice(legal)


def scripted_bot(level: str, seed: int = 0, **_: object) -> ScriptedBot:
    """``make_bot`` stand-in for ``MomijiApp(make_bot=...)``."""
    return ScriptedBot(seed)
