"""End-to-end: real SSH clients (asyncssh) against an in-process server."""

from __future__ import annotations

import re
from typing import ClassVar

import pytest
from ssh_harness import DemoApp, new_key, wait_until

F2, F3, ESC, CTRL_Q = b"\x1bOQ", b"\x1bOR", b"\x1b", b"\x11"


async def test_key_login_renders_app_with_verified_fingerprint(hosted, clients):
    key = new_key()
    term = await clients.terminal(hosted.port, username="alice", key=key)
    await term.wait_for_text("who=alice kind=key")
    (app,) = hosted.apps
    identity = app.identity
    assert identity.fingerprint == key.get_fingerprint("sha256")
    assert not identity.is_guest and identity.key == identity.fingerprint
    assert re.fullmatch(r"key-[0-9a-f]{32}", identity.account_id)
    assert hosted.handle.identities() == [identity]


async def test_same_key_gives_same_account_id(hosted, clients):
    key = new_key()
    for name in ("alice", "bob"):
        term = await clients.terminal(hosted.port, username=name, key=key)
        await term.wait_for_text(f"who={name} kind=key")
    first, second = (app.identity for app in hosted.apps)
    assert first.account_id == second.account_id
    assert first.display_name != second.display_name


async def test_guest_login_without_key(hosted, clients):
    term = await clients.terminal(hosted.port, username="carol")
    await term.wait_for_text("who=carol kind=guest")
    identity = hosted.apps[0].identity
    assert identity.is_guest and identity.fingerprint is None
    assert re.fullmatch(r"guest-[0-9a-f]{16}", identity.account_id)


async def test_second_and_third_login_while_first_session_runs(hosted, clients):
    # Regression for the eager-task login hang (research §2.4.1).
    first = await clients.terminal(hosted.port, username="one", key=new_key())
    await first.wait_for_text("who=one")
    second = await clients.terminal(hosted.port, username="two")
    third = await clients.terminal(hosted.port, username="three", key=new_key())
    await second.wait_for_text("who=two kind=guest")
    await third.wait_for_text("who=three kind=key")
    assert hosted.handle.session_count == 3
    first.send(F3)
    await first.wait_for_text("counter=1")
    assert "counter=0" in second.text


async def test_escape_closes_dialog_and_next_text_is_intact(hosted, clients):
    term = await clients.terminal(hosted.port)
    await term.wait_for_text("who=alice")
    term.send(F2)
    await term.wait_for_text("DIALOG-OPEN")
    term.send(ESC)  # a lone Esc: only the parser tick can deliver it
    await term.wait_for_no_text("DIALOG-OPEN")
    term.send("hello world")
    await term.wait_for_text("hello world")
    assert "^" not in term.text
    assert hosted.apps[0].query_one("#input").value == "hello world"


async def test_utf8_input_split_across_packets(hosted, clients):
    term = await clients.terminal(hosted.port)
    await term.wait_for_text("who=alice")
    data = "momiji 紅葉".encode()
    term.send(data[:-2])
    term.send(data[-2:])
    await term.wait_for_text("momiji 紅葉")


async def test_window_change_reflows(hosted, clients):
    term = await clients.terminal(hosted.port, size=(80, 24))
    await term.wait_for_text("size=80x24")
    term.resize(60, 20)
    await term.wait_for_text("size=60x20")
    # The Input's top border spans the new width.
    await wait_until(lambda: any(line.rstrip().endswith("▔▎") for line in term.screen.display))
    (border,) = [line for line in term.screen.display if "▔▔▔" in line]
    assert len(border.rstrip()) == 60


async def test_oversized_sizes_are_clamped(hosted, clients):
    term = await clients.terminal(hosted.port, size=(5000, 3000), username="big")
    term.screen.resize(100, 300)
    await term.wait_for_text("size=300x100")
    term.resize(100_000, 100_000, screen=False)
    term.resize(120, 40, screen=False)
    term.resize(10**6, 7, screen=False)
    await term.wait_for_text("size=300x7")
    term.resize(0, 0, screen=False)  # "unknown" → the default size
    await term.wait_for_text("size=80x24")


async def test_quit_sends_exit_status_zero(hosted, clients):
    term = await clients.terminal(hosted.port)
    await term.wait_for_text("who=alice")
    term.send(CTRL_Q)
    assert await term.wait_exit() == 0
    await hosted.wait_sessions(0)
    await wait_until(lambda: len(hosted.ended) == 1)
    assert hosted.ended[0][1] == "quit"


async def test_dropped_connection_cleans_up_the_app(hosted, clients):
    term = await clients.terminal(hosted.port)
    await term.wait_for_text("who=alice")
    (app,) = hosted.apps
    assert isinstance(app, DemoApp) and app.is_running
    term.conn.abort()
    await hosted.wait_sessions(0)
    await wait_until(lambda: not app.is_running)
    await wait_until(lambda: len(hosted.ended) == 1)
    assert hosted.ended[0][1] == "disconnect"


async def test_server_close_ends_sessions_with_a_message(start, clients):
    hosted = await start()
    term = await clients.terminal(hosted.port)
    await term.wait_for_text("who=alice")
    await hosted.handle.close()
    assert await term.wait_exit() == 1
    assert b"shutting down" in term.raw
    assert hosted.handle.session_count == 0
    assert hosted.ended[0][1] == "shutdown"


class CrashingApp(DemoApp):
    def on_mount(self) -> None:
        raise RuntimeError("boom")


def broken_factory(identity):
    raise RuntimeError("no app for you")


@pytest.mark.parametrize("make_app", [CrashingApp, broken_factory])
async def test_a_failing_app_ends_only_its_session(hosted, clients, make_app):
    healthy = await clients.terminal(hosted.port, username="healthy")
    await healthy.wait_for_text("who=healthy")
    hosted.make_app = make_app
    term = await clients.terminal(hosted.port, username="victim")
    assert await term.wait_exit() == 1
    assert b"internal error" in term.raw and b"boom" not in term.raw
    await hosted.wait_sessions(1)
    await wait_until(lambda: [reason for _, reason in hosted.ended] == ["error"])
    healthy.send(b"\x1bOR")
    await healthy.wait_for_text("counter=1")


class ExitThreeApp(DemoApp):
    def on_mount(self) -> None:
        self.exit(return_code=3)


async def test_the_apps_own_return_code_is_the_exit_status(hosted, clients):
    hosted.make_app = ExitThreeApp
    term = await clients.terminal(hosted.port)
    assert await term.wait_exit() == 3
    assert b"internal error" not in term.raw
    await wait_until(lambda: [reason for _, reason in hosted.ended] == ["quit"])


class FailsOnF5App(DemoApp):
    """Fails on F5 once per session (the first app); its restart does not."""

    failed: ClassVar[set[str]] = set()

    def on_key(self, event) -> None:
        if event.key == "f5" and self.identity.key not in self.failed:
            self.failed.add(self.identity.key)
            raise RuntimeError("boom on f5")


async def test_an_app_that_fails_starts_again_with_a_one_line_message(hosted, clients, caplog):
    """An exception that escapes the app is logged once with the session's id;
    the player is not dropped: the app starts again at its first screen (the
    lobby for momiji) and says so in one line."""
    hosted.make_app = FailsOnF5App
    term = await clients.terminal(hosted.port, username="victim")
    await term.wait_for_text("who=victim")
    term.send(b"\x1bOR")  # F3: the counter, so the restart is seen
    await term.wait_for_text("counter=1")
    term.send(b"\x1b[15~")  # F5: boom
    await term.wait_for_text("counter=0")
    await term.wait_for_text("Sorry, that screen failed")
    assert hosted.ended == [] and not term.proc.is_closing()
    failures = [r for r in caplog.records if "the app failed" in r.getMessage()]
    assert len(failures) == 1 and "boom on f5" in failures[0].getMessage()
    (session,) = hosted.handle._state.sessions
    assert f"session {session.session_id} of " in failures[0].getMessage()
    term.send(b"\x1bOR")
    await term.wait_for_text("counter=1")  # the new app takes the keys
