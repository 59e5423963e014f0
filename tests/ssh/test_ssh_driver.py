"""ChannelDriver and ChannelTerminal against a fake channel (no SSH)."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest
from ssh_harness import wait_until
from textual import constants, events

from momiji_tui.ssh import ChannelTerminal, clamp_terminal_size, guard_task_factory
from momiji_tui.ssh.driver import FLOOD_GRACE, INPUT_CHUNK, MAX_PENDING_INPUT, InputBudget, InputParser
from momiji_tui.textual_fence import XTermParser


class FakeChannel:
    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.closing = False
        self.buffered = 0
        self.paused = False

    def write(self, data: bytes) -> None:
        self.writes.append(data)

    def pause_reading(self) -> None:
        self.paused = True

    def resume_reading(self) -> None:
        self.paused = False

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

    def call_later(self, callback) -> None:  # Textual: after the messages queued before
        asyncio.get_running_loop().call_soon(callback)

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
    await wait_until(lambda: app.keys() == ["escape", "a", "b", "c"], describe=app.keys)
    driver.stop_application_mode()


async def test_escape_sequence_split_across_feeds_is_one_key():
    _, terminal, app, driver = make_driver()
    driver.start_application_mode()
    terminal.feed(b"\x1b")
    terminal.feed(b"[A")  # same loop turn: no tick in between
    await wait_until(lambda: app.keys() == ["up"], describe=app.keys)
    driver.stop_application_mode()


async def test_utf8_split_across_feeds_decodes_once():
    _, terminal, app, driver = make_driver()
    driver.start_application_mode()
    data = "é紅".encode()
    for byte in data:
        terminal.feed(bytes([byte]))
    await wait_until(lambda: len(app.keys()) == 2, describe=app.keys)
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
    terminal = ChannelTerminal(channel, (80, 24), budget=InputBudget(1e9, 1e9, clock=lambda: 0.0),
                               cpu_clock=lambda: 0.0)  # no budget here: the early input is the point
    terminal.feed(b"hi")
    terminal.feed(b"x" * 10_000)  # bounded
    app = FakeApp()
    driver = terminal.driver_class()(app)  # type: ignore[arg-type]
    driver.start_application_mode()
    await wait_until(lambda: len(app.keys()) >= 4096, describe=lambda: str(len(app.keys())))
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


# -- bounded input per session ---------------------------------------------------------
class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def bounded_driver(rate=1000.0, burst=50.0):
    """A driver whose budget and flood grace run on a hand-moved clock (the
    waits between steps are the budget's, a few ms of real time)."""
    clock, flooded = Clock(), []
    budget = InputBudget(rate, burst, clock=clock)
    channel, terminal, app, driver = make_driver(budget=budget, clock=clock, cpu_clock=lambda: 0.0,
                                                 on_flood=lambda: flooded.append(clock.now))
    driver.start_application_mode()
    app.messages.clear()
    return clock, flooded, channel, terminal, app


async def send_until_paused(channel, terminal, data: bytes, piece: int = 4096) -> int:
    """A client sends ``data`` as the SSH window lets it: nothing while the
    channel does not read. Returns the bytes sent."""
    sent = 0
    while sent < len(data) and not channel.paused and not terminal.closed:
        terminal.feed(data[sent:sent + piece])
        sent += piece
    return sent


async def test_a_key_flood_pauses_reading_and_is_parsed_no_faster_than_its_budget():
    clock, flooded, channel, terminal, app = bounded_driver(rate=1000.0, burst=50.0)
    flood = b"x" * 200_000
    sent = await send_until_paused(channel, terminal, flood)
    assert channel.paused and sent <= MAX_PENDING_INPUT + 4096  # the client's window fills, not our memory
    assert terminal.pending_input <= MAX_PENDING_INPUT + 4096
    for _ in range(20):
        clock.now += 0.01
        await asyncio.sleep(0.003)
        assert len(app.keys()) <= 50 + 1000 * clock.now + INPUT_CHUNK  # the burst, the rate, one step's debt
    assert len(app.keys()) > 0 and flooded == []


async def test_a_session_over_its_budget_with_a_full_channel_is_closed_after_the_grace():
    clock, flooded, channel, terminal, app = bounded_driver(rate=100.0, burst=10.0)
    await send_until_paused(channel, terminal, b"x" * 200_000)
    while not flooded and clock.now < 3 * FLOOD_GRACE:
        clock.now += 0.25
        await asyncio.sleep(0.02)
    assert flooded and FLOOD_GRACE <= flooded[0] <= 2 * FLOOD_GRACE
    assert terminal.closed and terminal.pending_input == 0
    count = len(app.keys())
    terminal.feed(b"more")
    await asyncio.sleep(0.01)
    assert len(app.keys()) == count  # nothing parsed after the end


async def test_a_player_typing_within_the_budget_is_slowed_never_closed():
    clock, flooded, channel, terminal, app = bounded_driver(rate=40.0, burst=200.0)
    for tenth in range(300):  # 30 keys a second (key repeat) for 30 s
        for _ in range(3):
            terminal.feed(b"\x1b[B")
        clock.now = (tenth + 1) / 10
        await asyncio.sleep(0.001)
    await wait_until(lambda: len(app.keys()) == 900, describe=lambda: str(len(app.keys())))
    assert set(app.keys()) == {"down"} and not channel.paused and flooded == []


async def test_each_step_hands_the_app_at_most_one_chunk_and_waits_until_it_is_handled():
    """The app's queue holds one step of a session's input at most; the loop
    turns between steps are every other session's."""
    _clock, _flooded, _channel, terminal, app = bounded_driver(rate=1e9, burst=1e9)
    handled: list = []
    app.call_later = handled.append  # the app has not handled the step yet
    terminal.feed(b"x" * 10_000)
    assert len(app.keys()) == INPUT_CHUNK
    await asyncio.sleep(0.01)
    assert len(app.keys()) == INPUT_CHUNK and len(handled) == 1
    handled.pop()()  # handled: the next step
    assert len(app.keys()) == 2 * INPUT_CHUNK


async def test_random_bytes_cost_the_session_its_own_budget_and_never_crash_the_parser():
    import random
    clock, _flooded, channel, terminal, app = bounded_driver(rate=2000.0, burst=100.0)
    noise = random.Random(39).randbytes(20_000)
    sent = 0
    for _ in range(200):
        if not channel.paused and sent < len(noise):
            terminal.feed(noise[sent:sent + 1000])
            sent += 1000
        clock.now += 0.005
        await asyncio.sleep(0.002)
        assert terminal.pending_input <= MAX_PENDING_INPUT + 1000
        assert len(app.messages) <= 100 + 2000 * clock.now + INPUT_CHUNK


def test_the_input_parser_turns_bytes_into_the_same_events_however_they_are_split():
    """``InputParser``: no loop, no app; a key, a UTF-8 letter, an escape
    sequence and a bracketed paste, fed at once or a byte at a time."""
    data = "a紅".encode() + b"\x1b[A" + b"\x1b[200~pasted text\x1b[201~" + b"z"

    def described(messages) -> list[str]:
        return [m.text if isinstance(m, events.Paste) else m.key for m in messages]

    whole = described(InputParser().feed(data))
    parser = InputParser()
    pieces = [m for i in range(len(data)) for m in parser.feed(data[i:i + 1])]
    assert whole == described(pieces) == ["a", "紅", "up", "pasted text", "z"]
    parser.feed(b"\x1b")
    assert parser.may_hold_escape and described(parser.tick()) == ["escape"]


async def test_input_that_costs_much_cpu_is_slowed_by_the_sessions_cpu_budget():
    """Each step here costs 0.2 s of the loop's CPU (keys that open screens,
    say): after the 0.5 s burst the session waits for its CPU budget (0.1 s
    a second) however many events it may still send."""
    clock, cpu = Clock(), Clock()
    budget = InputBudget(1e9, 1e9, cpu_rate=0.1, cpu_burst=0.5, clock=clock)
    _channel, terminal, app, driver = make_driver(budget=budget, clock=clock, cpu_clock=cpu)
    driver.start_application_mode()
    app.messages.clear()

    def call_later(callback) -> None:  # the app handles a step: 0.2 s of CPU
        cpu.now += 0.2
        asyncio.get_running_loop().call_soon(callback)

    app.call_later = call_later
    terminal.feed(b"x" * 1000)
    await wait_until(lambda: terminal.budget.allowance() == 0)
    await asyncio.sleep(0.05)
    assert len(app.keys()) == 3 * INPUT_CHUNK  # 0.5 s of burst: three steps
    clock.now += 2.0  # 0.2 s of CPU earned
    await wait_until(lambda: len(app.keys()) == 4 * INPUT_CHUNK, describe=lambda: str(len(app.keys())))
    await asyncio.sleep(0.05)
    assert len(app.keys()) == 4 * INPUT_CHUNK
    terminal.close()


# -- keys typed faster than the screen, Esc and alt --------------------------------------
def keys_of(messages) -> list[str]:
    return [m.key for m in messages if isinstance(m, events.Key)]


def test_the_keys_of_one_write_are_each_a_key_in_order():
    assert keys_of(InputParser().feed(b"rG")) == ["r", "G"]


def test_esc_and_a_key_in_one_write_are_alt_key_as_textual_reads_them_locally():
    """A terminal sends alt+x as Esc x: in one write, Textual's own parser
    reads alt+x once the escape delay passed, and so does a session."""
    parser = InputParser()
    assert keys_of(parser.feed(b"\x1bx")) == []  # held: the delay has not passed
    local = XTermParser()
    assert keys_of(local.feed("\x1bx")) == []
    assert keys_of(parser.tick()) == keys_of(local.expire()) == ["alt+x"]


def test_esc_then_a_key_after_the_escape_delay_is_esc_then_the_key():
    parser = InputParser()
    assert keys_of(parser.feed(b"\x1b")) == []
    assert keys_of(parser.feed(b"x", after_pause=True)) == ["escape", "x"]
    assert keys_of(parser.feed(b"\x1b[")) == []  # a sequence begun
    local = XTermParser()
    local_keys = keys_of(local.feed("\x1b[")) + keys_of(local.expire())  # Textual: Esc [ alone is [
    assert keys_of(parser.feed(b"A", after_pause=True)) == [*local_keys, "A"] == ["left_square_bracket", "A"]


async def test_esc_then_a_key_written_later_than_the_escape_delay_is_esc_then_the_key():
    """The client paused longer than the escape delay between Esc and x: Esc
    is the Esc key, even when both wait in the queue (the app was busy) or x
    is read before the delay's tick ran (the loop was late). The pause is
    measured on the terminal's clock, moved by hand."""
    clock = Clock()
    _, terminal, app, driver = make_driver(clock=clock, cpu_clock=lambda: 0.0)
    driver.start_application_mode()
    handled: list = []
    app.call_later = handled.append  # the app is busy with the step before
    terminal.feed(b"q")
    terminal.feed(b"\x1b")  # queued behind q
    clock.now += constants.ESCAPE_DELAY + 0.05
    terminal.feed(b"x")  # typed after the delay: not alt+x
    while handled:
        handled.pop()()
    clock.now += constants.ESCAPE_DELAY / 2
    terminal.feed(b"\x1by")  # Esc y at once: alt+y, as in a local terminal
    while handled:
        handled.pop()()
    assert app.keys() == ["q", "escape", "x"]
    await wait_until(lambda: app.keys() == ["q", "escape", "x", "alt+y"], describe=app.keys)  # the delay's tick
    driver.stop_application_mode()
