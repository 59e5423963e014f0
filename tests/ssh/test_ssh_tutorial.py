"""Learn to play over SSH (80×24): the lobby's l opens the guided first
game; its steps are played by keys sent over the connection."""

from __future__ import annotations

from ssh_harness import ENTER, ESC, new_key, wait_app, wait_until

from momiji_tui.session.tutorial_table import TutorialTable


async def test_learn_to_play_over_ssh(game, clients):
    alice = await clients.terminal(game.port, username="alice", key=new_key())
    await alice.wait_for_text("Learn to play")
    app = await wait_app(game, "alice")
    alice.send("l")
    await alice.wait_for_text("Lesson 1/7 · Collect a column")
    assert isinstance(app.table, TutorialTable)
    alice.send("C")
    alice.send(ENTER)  # a legal collect, but not this lesson's
    await alice.wait_for_text("Not in this lesson: try r")
    assert app.table.done == 0
    alice.send(ESC)  # clear the selection (alone: ESC and a key in one write are alt+key, as in a local terminal)
    await wait_until(lambda: not app.screen.draft.columns)
    alice.send("rG")  # typed ahead, one write: the reveal, then the Ginkgo column it revealed (RULES §4.1)
    await wait_until(lambda: app.table.done == 1 and app.screen.draft.columns == ["G"],
                     describe=lambda: f"done={app.table.done} columns={app.screen.draft.columns}\n{alice.text}")
    alice.send(ENTER)
    await wait_until(lambda: app.table.done == 2)
    alice.send("e")
    await alice.wait_for_text("Lesson 2/7 · Start a pile")
    await wait_until(lambda: app.table.current == 0 and app.thinking is None)
    assert app.table.lesson().step.key == "pile"
