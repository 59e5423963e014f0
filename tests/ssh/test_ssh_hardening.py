"""Hostile input and server-side side effects: names, screenshots, URLs, env."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import webbrowser
from pathlib import Path

import asyncssh
import pytest
from hypothesis import given
from hypothesis import strategies as st
from ssh_harness import TIMEOUT, new_key, open_connection, wait_until

from momiji_tui.ssh import Identity, harden_app, sanitize_display_name
from momiji_tui.ssh.server import _Config, _Connection, _ServerState


def all_files(root: Path) -> set[Path]:
    return {path for path in root.rglob("*")}


@pytest.mark.parametrize(
    ("username", "shown"),
    [
        ("../../etc", "who=etc "),
        ("a/b", "who=ab "),
        ("x" * 1000, "who=" + "x" * 16 + " "),
        ("ｅｖｉｌ", "who=evil "),
        ("", "who=guest "),
        ("..", "who=guest "),
    ],
)
async def test_hostile_usernames_give_sanitized_names_and_no_files(
    hosted, clients, tmp_path, username, shown
):
    before = all_files(tmp_path)
    term = await clients.terminal(hosted.port, username=username)
    await term.wait_for_text(shown)
    term.send(b"\x11")
    assert await term.wait_exit() == 0
    await hosted.wait_sessions(0)
    assert all_files(tmp_path) == before


@pytest.mark.parametrize("username", ["\x1b[31mred", "bell\x07", "\u202eevil", "x" * 1100])
async def test_control_characters_and_huge_names_never_log_in(hosted, username):
    with pytest.raises((asyncssh.Error, ValueError)):
        await open_connection(hosted.port, username=username, key=new_key())
    assert hosted.apps == []


@given(st.text(max_size=200))
def test_sanitized_names_are_short_and_plain(hint):
    name = sanitize_display_name(hint)
    assert 1 <= len(name) <= 16
    assert all(c.isascii() and (c.isalnum() or c in "_-") for c in name)


async def test_screenshot_is_not_offered_and_deliveries_write_nothing(
    hosted, clients, tmp_path, monkeypatch
):
    opened: list[str] = []
    monkeypatch.setattr(webbrowser, "open", lambda url, *a, **k: opened.append(url))
    term = await clients.terminal(hosted.port)
    await term.wait_for_text("who=alice")
    (app,) = hosted.apps
    titles = [command.title for command in app.get_system_commands(app.screen)]
    assert "Quit" in titles and "Screenshot" not in titles

    before = all_files(tmp_path)
    app.deliver_screenshot()
    app.action_screenshot()
    app.open_url("https://example.invalid/")
    failures = app.delivery_failures
    await wait_until(lambda: len(failures) == 2)
    assert all(isinstance(failure.exception, PermissionError) for failure in failures)
    assert all_files(tmp_path) == before
    assert opened == []


def test_harden_app_is_idempotent():
    from ssh_harness import DemoApp

    app = DemoApp(Identity.guest("x"))
    assert harden_app(harden_app(app)) is app


def test_importing_the_package_does_not_import_textual_and_sets_colors():
    code = (
        "import sys, os\n"
        "os.environ['TEXTUAL_PRESS'] = 'q'\n"
        "import momiji_tui.ssh as ssh\n"
        "assert 'textual' not in sys.modules\n"
        "ssh.prepare_environment()\n"
        "assert 'TEXTUAL_PRESS' not in os.environ\n"
        "from momiji_tui.ssh import start_server\n"
        "from textual import constants\n"
        "print(constants.COLOR_SYSTEM)\n"
        "try:\n"
        "    ssh.prepare_environment('256')\n"
        "except ssh.TextualAlreadyImported:\n"
        "    print('refused')\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL")}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["truecolor", "refused"]


class FakeConn:
    def __init__(self, username: str) -> None:
        self.extra = {"peername": ("127.0.0.1", 5555), "username": username}
        self.closed = False

    def get_extra_info(self, name: str, default=None):
        return self.extra.get(name, default)

    def close(self) -> None:
        self.closed = True


def make_connection(auth: str = "open") -> tuple[_Connection, FakeConn]:
    config = _Config(
        app_factory=lambda identity: None,  # type: ignore[arg-type,return-value]
        auth=auth,  # type: ignore[arg-type]
        authorized_keys=None,
        max_sessions=1,
        max_sessions_per_ip=1,
        max_connections=1,
        idle_timeout=None,
        login_timeout=TIMEOUT,
        max_terminal_size=(300, 100),
        on_session_end=None,
    )
    connection = _Connection(_ServerState(config))
    fake = FakeConn("mallory")
    connection.connection_made(fake)  # type: ignore[arg-type]
    return connection, fake


async def test_an_offered_key_is_not_an_identity_until_auth_completes():
    # Anyone can *offer* someone else's public key (the unsigned probe);
    # a later keyboard-interactive login must not inherit it.
    victim = new_key().convert_to_public()
    connection, _ = make_connection()
    assert await connection.validate_public_key("mallory", victim)
    assert await connection.get_kbdint_challenge("mallory", "", "") is True
    connection.auth_completed()
    assert connection.identity is not None and connection.identity.is_guest
    connection.connection_lost(None)


async def test_auth_completed_without_a_verified_method_closes_the_connection():
    connection, fake = make_connection(auth="keys")
    assert await connection.get_kbdint_challenge("mallory", "", "") is False
    connection.auth_completed()
    assert connection.identity is None and fake.closed
    connection.connection_lost(None)
    await asyncio.sleep(0)
