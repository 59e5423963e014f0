"""Who may start a login: throttling like OpenSSH's ``MaxStartups``.

Pure bookkeeping with an injected clock and random generator, so it is tested
without sockets. The server asks :meth:`Throttle.admit` when a TCP connection
arrives (before the SSH version exchange), tells it when the connection logs
in (:meth:`Throttle.logged_in`) and when it closes (:meth:`Throttle.closed`).

- **Per address** (``PerSourceMaxStartups``): at most ``per_source``
  connections from one address (IPv6: one /64) may be not yet logged in.
  A flood from one address fills only its own slots, never anyone else's.
- **In all** (``MaxStartups start:rate:full``): with ``start`` connections
  not yet logged in, a new one is refused with probability ``rate``%, rising
  linearly to 100% at ``full`` (random early drop).
- **Failed logins** (like ``PerSourcePenalties``): an address whose
  connections ended without logging in ``max_failures`` times within
  ``failure_window`` seconds is refused until the oldest of those failures
  is ``failure_window`` seconds old.
"""

from __future__ import annotations

import ipaddress
import random
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class ThrottleLimits:
    """Limits on connections that have not logged in yet.

    Attributes:
        start, rate, full: ``MaxStartups`` (OpenSSH's default is 10:30:100):
            from ``start`` unauthenticated connections refuse ``rate``
            percent of new ones, all of them at ``full``.
        per_source: unauthenticated connections from one address at once.
        max_failures: connections from one address ending without a login
            within ``failure_window`` seconds before it is refused (0: no cap).
        failure_window: seconds (see ``max_failures``).
    """

    start: int = 10
    rate: int = 30
    full: int = 100
    per_source: int = 5
    max_failures: int = 10
    failure_window: float = 600.0

    def __post_init__(self) -> None:
        if not (1 <= self.start <= self.full and 0 <= self.rate <= 100):
            raise ValueError(
                f"max startups must be start:rate:full with 1 <= start <= full and rate 0-100, "
                f"not {self.start}:{self.rate}:{self.full}"
            )
        if self.per_source < 1 or self.max_failures < 0 or self.failure_window <= 0:
            raise ValueError("per-address limits must be positive")


def parse_max_startups(text: str) -> tuple[int, int, int]:
    """Parse ``"start:rate:full"`` (or a single ``"full"``) as OpenSSH does.

    Returns:
        (start, rate, full); a single number N means N:100:N (refuse all
        beyond N).

    Raises:
        ValueError: not numbers, or not 1 <= start <= full, 0 <= rate <= 100.
    """
    parts = text.split(":")
    try:
        numbers = [int(part) for part in parts]
    except ValueError:
        raise ValueError(f"expected start:rate:full, e.g. 10:30:100, not {text!r}") from None
    if len(numbers) == 1:
        numbers = [numbers[0], 100, numbers[0]]
    if len(numbers) != 3:
        raise ValueError(f"expected start:rate:full, e.g. 10:30:100, not {text!r}")
    start, rate, full = numbers
    ThrottleLimits(start=start, rate=rate, full=full)  # validates
    return start, rate, full


def source_of(address: str) -> str:
    """The unit an address is counted in: an IPv4 address, an IPv6 /64.

    An IPv6 host usually owns a whole /64, so counting single addresses
    would let one host take every slot. Anything unparsable counts as itself.
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


MAX_TRACKED_SOURCES = 4096
"""Past this many addresses with failures, expired ones are forgotten (so a
scan from many addresses does not grow memory for ever)."""


class Throttle:
    """Counts connections not yet logged in and failed logins per address.

    Args:
        limits: the limits.
        clock: seconds, monotonic (default ``time.monotonic``).
        rng: draws the random early drops (default: a new ``random.Random``;
            tests pass a seeded one).
    """

    def __init__(
        self,
        limits: ThrottleLimits | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        rng: random.Random | None = None,
    ) -> None:
        self.limits = limits or ThrottleLimits()
        self._clock = clock
        self._rng = rng or random.Random()
        self._pending: Counter[str] = Counter()
        self._failures: dict[str, deque[float]] = {}

    @property
    def unauthenticated(self) -> int:
        """Connections admitted and not yet logged in nor closed."""
        return sum(self._pending.values())

    def admit(self, address: str) -> str | None:
        """A new connection from ``address``: None if admitted (then counted
        until :meth:`logged_in` or :meth:`closed`), else why it is refused."""
        limits, source = self.limits, source_of(address)
        if self._recent_failures(source) >= limits.max_failures > 0:
            return "too many failed logins from this address"
        if self._pending[source] >= limits.per_source:
            return "too many connections from this address not logged in"
        pending = self.unauthenticated
        if pending >= limits.full:
            return f"server busy ({pending} connections not logged in)"
        if pending >= limits.start:
            span = max(limits.full - limits.start, 1)
            chance = (limits.rate + (100 - limits.rate) * (pending - limits.start) / span) / 100
            if self._rng.random() < chance:
                return f"server busy ({pending} connections not logged in, random early drop)"
        self._pending[source] += 1
        return None

    def logged_in(self, address: str) -> None:
        """The admitted connection from ``address`` has logged in: its slot is free."""
        self._release(source_of(address))

    def closed(self, address: str, *, logged_in: bool) -> None:
        """An admitted connection from ``address`` closed. Without a login it
        frees its slot and counts as a failed login."""
        if logged_in:
            return
        source = self._release(source_of(address))
        if self.limits.max_failures > 0:
            if source not in self._failures and len(self._failures) >= MAX_TRACKED_SOURCES:
                self._forget_old_failures()
            failures = self._failures.setdefault(source, deque())
            failures.append(self._clock())
            while len(failures) > self.limits.max_failures:
                failures.popleft()

    def _forget_old_failures(self) -> None:
        """Drop the sources whose failures are all older than the window."""
        horizon = self._clock() - self.limits.failure_window
        for source in [s for s, f in self._failures.items() if not f or f[-1] <= horizon]:
            del self._failures[source]

    @property
    def tracked_sources(self) -> int:
        """Addresses with failed logins remembered now."""
        return len(self._failures)

    def _release(self, source: str) -> str:
        if self._pending[source] > 1:
            self._pending[source] -= 1
        else:
            self._pending.pop(source, None)
        return source

    def _recent_failures(self, source: str) -> int:
        failures = self._failures.get(source)
        if not failures:
            return 0
        horizon = self._clock() - self.limits.failure_window
        while failures and failures[0] <= horizon:
            failures.popleft()
        if not failures:
            del self._failures[source]
            return 0
        return len(failures)
