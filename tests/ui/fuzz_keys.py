"""Random keys through Pilot: the fuzz layer's keys, apps and checks.

A plain module (its name unique across the test tree). Keys come in bursts
posted back to back, as the SSH driver posts what one read of the channel
held (``ssh/driver.py``): a key may reach a screen that is still being
composed, or one already dismissed. Every sequence is seeded.
"""

from __future__ import annotations

import logging
import random
import string
import unicodedata
from pathlib import Path
from typing import Any

from textual import events

from helpers import until_human_or_end

from momiji_tui import engine
from momiji_tui.session.table import validate_log
from momiji_tui.store import load
from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.lobby import LobbyApp

SPECIAL_KEYS: list[tuple[str, str | None]] = [
    ("enter", "\r"), ("escape", "\x1b"), ("tab", "\t"), ("shift+tab", None), ("backspace", "\x7f"),
    ("delete", None), ("insert", None), ("space", " "), ("up", None), ("down", None), ("left", None),
    ("right", None), ("home", None), ("end", None), ("pageup", None), ("pagedown", None),
    ("shift+left", None), ("shift+right", None), ("shift+up", None), ("shift+down", None),
    *[(f"f{n}", None) for n in range(1, 13)],
    *[(f"ctrl+{c}", chr(ord(c) - 96)) for c in string.ascii_lowercase if c not in "im"],
]
"""Keys a terminal sends besides text: editing, arrows, function keys and
every ctrl+letter (ctrl+q and ctrl+p included: the apps below never quit)."""


def _character_key(ch: str) -> tuple[str, str]:
    """The Textual key of a printable character (``?`` → ``question_mark``)."""
    if ch.isalnum():
        return ch, ch
    return unicodedata.name(ch).lower().replace("-", "_").replace(" ", "_"), ch


KEYS: list[tuple[str, str | None]] = [
    *[_character_key(ch) for ch in string.ascii_letters + string.digits + string.punctuation],
    *SPECIAL_KEYS,
]
"""Every key the fuzz presses: (Textual key, character)."""


class KeepRunning:
    """Mixed into an app under fuzz: a quit (``q``, ctrl+q, the menu's Quit,
    the palette's) is counted, not done, so every key reaches the app."""

    quits = 0
    fuzzing = True

    def exit(self, *args: Any, **kwargs: Any) -> None:
        if self.fuzzing:
            self.quits += 1
            return
        super().exit(*args, **kwargs)  # type: ignore[misc]


class FuzzApp(KeepRunning, MomijiApp):
    """The local app, kept running through random keys."""


class FuzzLobbyApp(KeepRunning, LobbyApp):
    """An SSH session's app (the lobby first), kept running through random keys."""


async def press_random_keys(pilot, seed: int, presses: int, *, max_burst: int = 20) -> list[str]:
    """Press ``presses`` random keys (seeded) in bursts of 1..``max_burst``
    posted back to back, letting the app settle after each burst. Fails,
    naming the seed and the last keys, if the app stops running. Returns the
    keys pressed."""
    app = pilot.app
    rng = random.Random(seed)
    pressed: list[str] = []
    while len(pressed) < presses:
        burst = [rng.choice(KEYS) for _ in range(min(rng.randint(1, max_burst), presses - len(pressed)))]
        for key, character in burst:
            app.post_message(events.Key(key, character))  # what a driver does with one read's keys
            pressed.append(key)
        await pilot.pause()
        if rng.random() < 0.1:
            await app.workers.wait_for_complete()  # a bot's or a review's worker thread ends
            await pilot.pause()
        assert app.is_running and app.return_code in (None, 0), (
            f"the app stopped after seed {seed}'s keys {pressed[-12:]} on {app.screen!r}")
    return pressed


async def settle_bots(pilot) -> None:
    """If a game is open, wait (bounded) until its bots hand the turn back."""
    if pilot.app.table is not None:
        await until_human_or_end(pilot)
    await pilot.pause()


def check_games(data_dir: Path, app: MomijiApp) -> int:
    """Every save under ``data_dir`` loads and folds under the rules; the
    open game's saved log folds to the state on the table. Returns how many
    saves were checked."""
    saves = sorted(data_dir.rglob("*.jsonl"))
    for path in saves:
        loaded = load(path, validate_log)
        state = engine.fold(engine.from_dict(e) for e in loaded.events)
        table = app.table
        if table is not None and table.log is not None and Path(table.log.path) == path:
            assert state == table.state, f"{path.name}: the saved log folds to another state"
    return len(saves)


def no_error_logged(caplog) -> None:
    """No log record at ERROR or above, and no traceback in any record."""
    bad = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not bad, "\n".join(r.getMessage() for r in bad)
