"""ChannelDriver and ChannelTerminal against a fake channel (no SSH)."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest
from ssh_harness import wait_until
from textual import events

from momiji_tui.ssh import ChannelTerminal, clamp_terminal_size, guard_task_factory


class FakeChannel:
    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.closing = False
        self.buffered = 0

    def write(self, data: bytes) -> None:
        self.writes.append(data)

    def is_closing(self) -> bool:
        return self.closing

    def get_write_buffer_size(self) -> int:
        return self.buffered

    @property
    def output(self) -> bytes:
        return b"".join(self.writes)


class FakeApp:
    def __init__(self) -> None:
        self.messages: list[object] = []

    def post_message(self, message: object) -> bool:
        self.messages.append(message)
        return True

    def keys(self) -> list[str]:
        return [m.key for m in self.messages if isinstance(m, events.Key)]


def make_driver(size=(80, 24), **options):
    channel = FakeChannel()
    terminal = ChannelTerminal(channel, size, **options)
    app = FakeApp()
    driver = terminal.driver_class()(app)  # type: ignore[arg-type]
    return channel, terminal, app, driver


async def test_writes_are_coalesced_and_sent_as_utf8():
    channel, _, _, driver = make_driver()
    driver.write("紅")
    driver.write("葉")
    assert channel.writes == []
    await asyncio.sleep(0)  # end of this loop turn
    assert channel.writes == ["紅葉".encode()]
    driver.write("x")
    driver.flush()
    assert channel.writes[-1] == b"x"


async def test_start_and_stop_application_mode():
    channel, terminal, app, driver = make_driver(size=(100, 30))
    driver.start_application_mode()
    assert b"\x1b[?1049h" in channel.output and b"\x1b[?1000h" in channel.output
    (resize,) = [m for m in app.messages if isinstance(m, events.Resize)]
    assert (resize.size.width, resize.size.height) == (100, 30)
    driver.stop_application_mode()
    tail = channel.writes[-1]
    assert b"\x1b[?1049l" in tail and b"\x1b[?25h" in tail and b"\x1b[?1000l" in tail
    driver.close()
    terminal.feed(b"ignored")
    assert app.keys() == []


async def test_lone_escape_is_delivered_by_the_tick():
    _, terminal, app, driver = make_driver()
    driver.start_application_mode()
    terminal.feed(b"\x1b")
    assert app.keys() == []  # could still be the start of a sequence
    await wait_until(lambda: app.keys() == ["escape"], describe=app.keys)
    terminal.feed(b"abc")
    assert app.keys() == ["escape", "a", "b", "c"]
    driver.stop_application_mode()


async def test_escape_sequence_split_across_feeds_is_one_key():
    _, terminal, app, driver = make_driver()
    driver.start_application_mode()
    terminal.feed(b"\x1b")
    terminal.feed(b"[A")  # same loop turn: no tick in between
    assert app.keys() == ["up"]
    driver.stop_application_mode()


async def test_utf8_split_across_feeds_decodes_once():
    _, terminal, app, driver = make_driver()
    driver.start_application_mode()
    data = "é紅".encode()
    for byte in data:
        terminal.feed(bytes([byte]))
    assert [m.character for m in app.messages if isinstance(m, events.Key)] == ["é", "紅"]
    driver.stop_application_mode()


async def test_in_band_resize_from_the_client_is_ignored():
    _, terminal, app, driver = make_driver()
    driver.start_application_mode()
    app.messages.clear()
    terminal.feed(b"\x1b[48;5000;5000;1;1t")
    await asyncio.sleep(0)
    assert not [m for m in app.messages if isinstance(m, events.Resize)]
    terminal.resize(90, 20)
    (resize,) = [m for m in app.messages if isinstance(m, events.Resize)]
    assert (resize.size.width, resize.size.height) == (90, 20)
    driver.stop_application_mode()


async def test_input_before_the_app_is_ready_is_replayed():
    channel = FakeChannel()
    terminal = ChannelTerminal(channel, (80, 24))
    terminal.feed(b"hi")
    terminal.feed(b"x" * 10_000)  # bounded
    app = FakeApp()
    driver = terminal.driver_class()(app)  # type: ignore[arg-type]
    driver.start_application_mode()
    keys = app.keys()
    assert keys[:2] == ["h", "i"] and len(keys) == 4096
    driver.stop_application_mode()


async def test_slow_reader_overflow_and_closed_channel():
    overflowed: list[bool] = []
    channel, terminal, _, driver = make_driver(
        max_output_buffer=10, on_overflow=lambda: overflowed.append(True)
    )
    channel.buffered = 11
    driver.write("frame")
    driver.flush()
    assert overflowed == [True] and terminal.closed
    driver.write("more")
    driver.flush()
    assert channel.writes == [b"frame"]

    channel2, _terminal2, _, driver2 = make_driver()
    channel2.closing = True
    driver2.write("late")
    driver2.flush()
    assert channel2.writes == []


async def test_open_url_and_deliveries_are_refused(tmp_path, monkeypatch):
    import webbrowser

    monkeypatch.setattr(webbrowser, "open", lambda *a, **k: pytest.fail("browser opened"))
    _, _, app, driver = make_driver()
    driver.open_url("https://example.invalid/")
    binary = io.BytesIO(b"data")
    target = Path(tmp_path) / "out.svg"
    driver.deliver_binary(binary, delivery_key="k", save_path=target, name="n")
    (failed,) = [m for m in app.messages if isinstance(m, events.DeliveryFailed)]
    assert failed.key == "k" and failed.name == "n" and binary.closed
    assert not target.exists()


@pytest.mark.parametrize(
    ("reported", "clamped"),
    [((80, 24), (80, 24)), ((0, 0), (80, 24)), ((10**9, 10**9), (300, 100)), ((1, 1), (1, 1))],
)
def test_clamp_terminal_size(reported, clamped):
    assert clamp_terminal_size(*reported) == clamped


def test_guard_task_factory_ignores_eager_factory(monkeypatch):
    def fake_eager(loop, coro, **kwargs):  # stands in for asyncio.eager_task_factory
        raise AssertionError("never installed")

    def other(loop, coro, **kwargs):
        return asyncio.Task(coro, loop=loop, **kwargs)

    monkeypatch.setattr(asyncio, "eager_task_factory", fake_eager, raising=False)
    loop = asyncio.new_event_loop()
    try:
        loop.set_task_factory(fake_eager)
        guard_task_factory(loop)
        assert loop.get_task_factory() is None
        loop.set_task_factory(fake_eager)
        assert loop.get_task_factory() is None
        loop.set_task_factory(other)
        assert loop.get_task_factory() is other
        guard_task_factory(loop)  # twice is fine
    finally:
        loop.close()
