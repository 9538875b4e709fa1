"""Defences of a table against a hostile LAN: secrets, rate limits, back-off, bounded logs.

Everything here is synchronous and takes its clock as an argument (monotonic
seconds), so the server uses ``time.monotonic`` and tests drive time by hand.
The numbers are the defaults :class:`net.server.Timing` starts from; each
says why it was chosen.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

SECRET_MAX: Final = 64
"""Longest token or join code, in characters (at most 256 bytes of UTF-8): a
token is 22 characters, a typed code a few words; anything longer is not one."""

CODE_FREE_TRIES: Final = 5
"""Wrong join codes an address may give before it has to wait: enough for a
person's typos, few enough that guessing must go through the back-off."""

CODE_BACKOFF_FIRST: Final = 1.0
"""Seconds an address waits after its first wrong code beyond the free tries;
each further wrong code doubles the wait."""

CODE_BACKOFF_MAX: Final = 60.0
"""Longest wait between two code attempts from one address: past it an address
guesses at most once a minute (60 an hour), while a person who mistyped five
times waits at most this long once they have the right code."""

CODE_TABLE_BURST: Final = 20
"""Wrong join codes the whole table takes at once, from every address together, before
each further one must wait for :data:`CODE_TABLE_RATE`: far more than the typos of a
table of friends, while the per-address back-off alone is no bound for a stranger
who gives each guess a new source address (IPv6 lets one machine hold many)."""

CODE_TABLE_RATE: Final = 0.5
"""Wrong join codes per second the whole table takes once :data:`CODE_TABLE_BURST` is
spent: a 4-digit code (10,000 candidates) then holds 2.8 hours on average against
any number of addresses, a generated one (:data:`GENERATED_CODE_LENGTH`) forever. A
right code is checked only when a wrong one would be, so while a stranger guesses,
a friend who has the code waits as long (and is told so)."""

CODE_FORGET: Final = 900.0
"""Seconds without a wrong code after which an address's record is forgotten."""

ADDRESSES_TRACKED: Final = 4096
"""Most addresses whose wrong codes are remembered (the oldest go first), so the
record itself cannot be grown without bound."""

GENERATED_CODE_LENGTH: Final = 8
"""Characters of a generated join code: 8 of 32 symbols are 40 bits. At the
back-off's ceiling one address makes 60 guesses an hour; even 250 addresses
guessing for a 3-hour game make 45,000 guesses, a chance of 4e-8 of finding it
(and 2,500 guesses a second with no limit at all would still need 12 years on
average)."""

CODE_ALPHABET: Final = "0123456789abcdefghjkmnpqrstvwxyz"
"""Crockford's base32 in lower case: no i, l, o or u to misread or mistype."""

LOG_BURST: Final = 5
"""Lines about refused connections a table writes at once before it throttles."""

LOG_PERIOD: Final = 10.0
"""Seconds over which :data:`LOG_BURST` lines are allowed: a flood shows as a few
lines and one count of what was left out, never as a scrolling terminal."""


def same_secret(given: str | None, expected: str) -> bool:
    """Whether ``given`` equals ``expected``, in time that does not depend on where they differ.

    Both are compared as UTF-8 bytes (``secrets.compare_digest`` takes ``str``
    only if it is ASCII), so a code such as ``"café"`` works and no text can
    make the comparison raise. ``given`` longer than :data:`SECRET_MAX`
    characters never matches.
    """
    if given is None or len(given) > SECRET_MAX:
        return False
    try:
        return secrets.compare_digest(given.encode("utf-8"), expected.encode("utf-8"))
    except UnicodeEncodeError:  # a lone surrogate: not text anyone could type
        return False


def generate_code(length: int = GENERATED_CODE_LENGTH) -> str:
    """A random join code of ``length`` symbols of :data:`CODE_ALPHABET` (5 bits each)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


@dataclass
class TokenBucket:
    """A token bucket: ``burst`` tokens, refilled at ``rate`` per second.

    Args:
        rate: Tokens added per second.
        burst: Most tokens held (and the bucket's content at the start).
    """

    rate: float
    burst: float
    tokens: float = field(init=False)
    stamp: float | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self.tokens = self.burst

    def take(self, now: float) -> bool:
        """Spend one token at clock time ``now``; False (nothing spent) if none is left."""
        self._refill(now)
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def wait(self, now: float) -> float:
        """Seconds from clock time ``now`` until a token is there to take (0: one is)."""
        self._refill(now)
        return 0.0 if self.tokens >= 1.0 else (1.0 - self.tokens) / self.rate

    def _refill(self, now: float) -> None:
        if self.stamp is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now


@dataclass
class _Record:
    failures: int = 0
    last: float = 0.0
    until: float = 0.0


class CodeGuard:
    """Wrong join codes per source address, with a growing wait between attempts,
    and for the whole table.

    After ``free`` wrong codes from one address, each further wrong code makes
    it wait ``first * 2**k`` seconds (``k`` = wrong codes beyond the free
    ones, from 0), at most ``ceiling``, before its next code is even checked.
    A right code or ``forget`` quiet seconds clear the address. All addresses
    together spend one budget of wrong codes (``table_burst`` at once, then
    ``table_rate`` a second): while it is empty no code is checked
    (:meth:`table_wait`).

    Args:
        free: See :data:`CODE_FREE_TRIES`.
        first: See :data:`CODE_BACKOFF_FIRST`.
        ceiling: See :data:`CODE_BACKOFF_MAX`.
        forget: See :data:`CODE_FORGET`.
        tracked: See :data:`ADDRESSES_TRACKED`.
        table_burst: See :data:`CODE_TABLE_BURST`.
        table_rate: See :data:`CODE_TABLE_RATE`.
    """

    def __init__(
        self,
        *,
        free: int = CODE_FREE_TRIES,
        first: float = CODE_BACKOFF_FIRST,
        ceiling: float = CODE_BACKOFF_MAX,
        forget: float = CODE_FORGET,
        tracked: int = ADDRESSES_TRACKED,
        table_burst: int = CODE_TABLE_BURST,
        table_rate: float = CODE_TABLE_RATE,
    ) -> None:
        self._table = TokenBucket(table_rate, table_burst)
        self._free = free
        self._first = first
        self._ceiling = ceiling
        self._forget = forget
        self._tracked = tracked
        self._records: dict[str, _Record] = {}

    def wait(self, address: str, now: float) -> float:
        """Seconds ``address`` must still wait before a code from it is checked (0: none)."""
        record = self._records.get(address)
        if record is None:
            return 0.0
        if now - record.last > self._forget:
            del self._records[address]
            return 0.0
        return max(0.0, record.until - now)

    def table_wait(self, now: float) -> float:
        """Seconds until the table checks a code again, from any address (0: now)."""
        return self._table.wait(now)

    def failed(self, address: str, now: float) -> float:
        """Record a wrong code from ``address``; return the seconds it must now wait."""
        self._table.take(now)
        record = self._records.pop(address, None) or _Record()
        if now - record.last > self._forget:
            record = _Record()
        record.failures += 1
        record.last = now
        beyond = record.failures - self._free
        if beyond > 0:
            record.until = now + min(self._ceiling, self._first * 2 ** min(beyond - 1, 32))
        self._records[address] = record  # most recent last, so the oldest go first
        while len(self._records) > self._tracked:
            del self._records[next(iter(self._records))]
        return max(0.0, record.until - now)

    def succeeded(self, address: str) -> None:
        """A right code from ``address``: forget its wrong ones."""
        self._records.pop(address, None)


class ThrottledLog:
    """Writes at most ``burst`` lines per ``period`` seconds; counts the rest and says so.

    Args:
        logger: Where lines go (at WARNING, so a host's terminal shows them).
        burst: See :data:`LOG_BURST`.
        period: See :data:`LOG_PERIOD`.
        clock: Monotonic clock in seconds.
    """

    def __init__(
        self,
        logger: logging.Logger,
        *,
        burst: int = LOG_BURST,
        period: float = LOG_PERIOD,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._logger = logger
        self._bucket = TokenBucket(burst / period, burst)
        self._clock = clock
        self._dropped = 0

    def warning(self, message: str, *args: object) -> None:
        """Log ``message % args`` at WARNING if the budget allows, else count it."""
        if not self._bucket.take(self._clock()):
            self._dropped += 1
            return
        if self._dropped:
            message += " (%d similar lines left out)"
            args = (*args, self._dropped)
            self._dropped = 0
        self._logger.warning(message, *args)
