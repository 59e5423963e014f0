"""Throttling of connections that have not logged in
(OpenSSH's MaxStartups / PerSourceMaxStartups / PerSourcePenalties).

The rules are tested without sockets (injected clock, seeded random); the
flood test opens hundreds of idle sockets from 127.0.0.1 while a player
from 127.0.0.2 logs in and reaches the lobby.
"""

from __future__ import annotations

import asyncio
import random

import asyncssh
import pytest
from ssh_harness import TIMEOUT, Terminal, new_key, open_terminal

from momiji_tui.ssh.throttle import Throttle, ThrottleLimits, parse_max_startups, source_of


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_per_address_cap_leaves_room_for_other_addresses():
    throttle = Throttle(ThrottleLimits(per_source=3, start=50, full=100), rng=random.Random(1))
    assert [throttle.admit("10.0.0.1") for _ in range(3)] == [None] * 3
    assert "from this address" in throttle.admit("10.0.0.1")
    assert throttle.admit("10.0.0.2") is None
    throttle.logged_in("10.0.0.1")
    assert throttle.admit("10.0.0.1") is None  # a login frees its slot


def test_ipv6_addresses_of_one_64_share_a_slot_count():
    throttle = Throttle(ThrottleLimits(per_source=1), rng=random.Random(1))
    assert throttle.admit("2001:db8::1") is None
    assert throttle.admit("2001:db8::2") is not None
    assert throttle.admit("2001:db8:0:1::1") is None
    assert source_of("::ffff:10.0.0.1") == "10.0.0.1"


def test_random_early_drop_between_start_and_full():
    limits = ThrottleLimits(start=10, rate=30, full=20, per_source=1000)
    throttle = Throttle(limits, rng=random.Random(7))
    results = [throttle.admit(f"10.0.{i // 250}.{i % 250}") for i in range(10)]
    assert results == [None] * 10  # below start: all admitted
    refused = 0
    for i in range(200):
        if throttle.admit(f"10.1.{i // 250}.{i % 250}") is not None:
            refused += 1
    assert throttle.unauthenticated == 20  # never more than full
    assert refused == 190
    assert "server busy" in throttle.admit("10.9.9.9")


def test_random_early_drop_rate_at_start_is_about_rate_percent():
    limits = ThrottleLimits(start=1, rate=30, full=1000, per_source=1000)
    refused = 0
    for seed in range(400):
        throttle = Throttle(limits, rng=random.Random(seed))
        throttle.admit("10.0.0.1")
        if throttle.admit("10.0.0.2") is not None:
            refused += 1
    assert 90 <= refused <= 150  # 30% of 400 is 120


def test_failed_logins_from_one_address_lock_it_out_for_the_window():
    clock = Clock()
    throttle = Throttle(ThrottleLimits(max_failures=3, failure_window=600), clock=clock,
                        rng=random.Random(1))
    for _ in range(3):
        assert throttle.admit("10.0.0.1") is None
        throttle.closed("10.0.0.1", logged_in=False)
        clock.now += 10
    assert throttle.admit("10.0.0.1") == "too many failed logins from this address"
    assert throttle.admit("10.0.0.2") is None
    clock.now += 600 - 20  # the first failure is now 600 s old
    assert throttle.admit("10.0.0.1") is None


def test_logged_in_connections_are_not_failures():
    throttle = Throttle(ThrottleLimits(max_failures=1), rng=random.Random(1))
    for _ in range(5):
        assert throttle.admit("10.0.0.1") is None
        throttle.logged_in("10.0.0.1")
        throttle.closed("10.0.0.1", logged_in=True)
    assert throttle.unauthenticated == 0


@pytest.mark.parametrize(("text", "expected"), [("10:30:100", (10, 30, 100)), ("8", (8, 100, 8))])
def test_max_startups_parses_like_openssh(text, expected):
    assert parse_max_startups(text) == expected


@pytest.mark.parametrize("text", ["", "a:b:c", "10:30", "10:130:100", "50:30:10", "0:30:10"])
def test_bad_max_startups_is_refused_with_the_expected_form(text):
    with pytest.raises(ValueError, match="start:rate:full"):
        parse_max_startups(text)


async def _idle_socket(port: int) -> asyncio.StreamWriter:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.0.1", 0))
    # The server speaks first (its version line), or closes the refused ones:
    # either way it has seen this connection once this returns.
    await asyncio.wait_for(reader.readline(), TIMEOUT)
    return writer


async def test_a_flood_of_idle_sockets_from_one_address_never_locks_out_another(start_game):
    server = await start_game()
    flood: list[asyncio.StreamWriter] = []
    try:
        for _ in range(250):
            flood.append(await _idle_socket(server.port))
        conn = await asyncio.wait_for(asyncssh.connect(
            "127.0.0.1", server.port, local_addr=("127.0.0.2", 0), username="carol",
            known_hosts=None, agent_path=None, config=[], client_keys=[new_key()],
            kbdint_auth=False, password_auth=False), TIMEOUT)
        term: Terminal = await open_terminal(conn)
        try:
            await term.wait_for_text("Welcome, carol")
        finally:
            await term.close()
    finally:
        for writer in flood:
            writer.close()


def test_serve_offers_the_throttling_options_with_safe_defaults(capsys):
    from momiji_tui.ssh.cli import build_parser, main_serve

    with pytest.raises(SystemExit):
        main_serve(["--help"])
    out = capsys.readouterr().out
    for option in ("--max-startups", "--max-startups-per-ip", "--max-auth-failures-per-ip"):
        assert option in out
    args = build_parser().parse_args([])
    assert args.max_startups == (10, 30, 100) and args.max_startups_per_ip == 5
    assert args.max_auth_failures_per_ip == 10 and args.login_timeout == 10


@pytest.mark.parametrize("argv", [["--max-startups", "50:30:10"], ["--max-startups", "x"],
                                  ["--max-startups-per-ip", "0"],
                                  ["--max-auth-failures-per-ip", "-1"]])
def test_bad_throttling_options_are_refused_with_a_message(argv, capsys, isolated_dirs):
    from momiji_tui.ssh.cli import main_serve

    with pytest.raises(SystemExit) as exit_info:
        main_serve(argv)
    assert exit_info.value.code == 2
    assert "momiji serve: error:" in capsys.readouterr().err
    assert not isolated_dirs.exists()


def test_failures_of_many_addresses_are_forgotten_once_expired(monkeypatch):
    from momiji_tui.ssh import throttle as module

    monkeypatch.setattr(module, "MAX_TRACKED_SOURCES", 10)
    clock = Clock()
    throttle = Throttle(ThrottleLimits(failure_window=60), clock=clock, rng=random.Random(1))
    for i in range(10):
        throttle.admit(f"10.0.0.{i}")
        throttle.closed(f"10.0.0.{i}", logged_in=False)
    clock.now += 61
    throttle.admit("10.0.1.1")
    throttle.closed("10.0.1.1", logged_in=False)
    assert throttle.tracked_sources == 1
