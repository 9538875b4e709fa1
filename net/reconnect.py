"""Getting back to a table that went away: a reusable, cancellable reconnect loop.

When the host crashes (or the Wi-Fi blinks) a client keeps its seat token and
tries to rejoin in the background: attempt 1 at once, then after 0.5 s, 1 s,
2 s, 4 s, 5 s, 5 s... (exponential backoff capped at :data:`MAX_DELAY`, each
delay jittered by ±:data:`JITTER` from a seeded ``random.Random`` so a table
full of clients does not knock in step), for :data:`GIVE_UP_AFTER` seconds.
Every attempt is reported through a callback, so a UI can show
"host lost — reconnecting… (attempt n, next in s)".

:func:`reconnect` is the generic loop (any ``attempt`` coroutine);
:func:`reconnect_table` rejoins a table with :func:`net.dial.dial`, trying the
addresses it knows plus, given a :class:`net.discovery.Browser`, whatever
zeroconf now says about the table of that name (a resumed table may come back
on other addresses).

Usage::

    dialled = await reconnect_table(
        TableTarget(("192.168.1.20",), 7374, "Friday"), name="Ana", token=token,
        app_version=V, game="poissonnier", on_attempt=show,
    )
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Final, Literal, TypeVar, Unpack

from net.client import JoinDetails, JoinError
from net.dial import TRANSPORT_FAILURES, Dialled, dial
from net.discovery import Browser

FIRST_DELAY: Final = 0.5
"""Seconds before the second attempt."""
MAX_DELAY: Final = 5.0
"""Longest wait between two attempts, in seconds."""
JITTER: Final = 0.2
"""Each delay is multiplied by a factor drawn uniformly in ``[1 - JITTER, 1 + JITTER]``."""
GIVE_UP_AFTER: Final = 300.0
"""Seconds of trying before giving up (five minutes)."""
ATTEMPT_TIMEOUT: Final = 3.0
"""Seconds one attempt may take (TCP connect and welcome)."""

T = TypeVar("T")


def backoff(
    rng: random.Random,
    first: float = FIRST_DELAY,
    cap: float = MAX_DELAY,
    jitter: float = JITTER,
) -> Iterator[float]:
    """Endless delays in seconds: ``first``, doubling, capped at ``cap``, each jittered.

    Args:
        rng: draws the jitter (seed it for reproducible delays).
        first: the first delay.
        cap: the largest delay before jitter (a jittered delay stays within ``cap``).
        jitter: relative spread, 0 for none.
    """
    delay = first
    while True:
        yield min(cap, delay * rng.uniform(1.0 - jitter, 1.0 + jitter))
        delay = min(cap, delay * 2.0)


@dataclass(frozen=True)
class Attempt:
    """One report of the reconnect loop (for the "host lost — reconnecting…" line).

    Attributes:
        state: ``"trying"`` (attempt ``number`` starts now), ``"waiting"`` (it failed;
            the next starts in ``next_in`` s), ``"back"`` (it worked) or
            ``"gave_up"`` (no attempt is left; ``error`` says the last failure).
        number: the attempt, from 1.
        elapsed: seconds since the loop started.
        next_in: with ``"waiting"``: seconds until the next attempt.
        error: the last failure, as a sentence (``""`` if none yet).
    """

    state: Literal["trying", "waiting", "back", "gave_up"]
    number: int
    elapsed: float
    next_in: float | None = None
    error: str = ""


class GaveUp(Exception):
    """The table did not come back in time, or refused us for good.

    Args:
        attempts: how many attempts were made.
        message: a sentence for the person (the last failure).
        code: the last ``JoinError`` code (``"unreachable"``, or the table's refusal).
    """

    def __init__(self, attempts: int, message: str, code: str = "unreachable") -> None:
        super().__init__(message)
        self.attempts = attempts
        self.message = message
        self.code = code


async def reconnect(
    attempt: Callable[[], Awaitable[T]],
    *,
    on_attempt: Callable[[Attempt], None] | None = None,
    rng: random.Random | None = None,
    give_up_after: float = GIVE_UP_AFTER,
    retry: Callable[[Exception], bool] | None = None,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    clock: Callable[[], float] = time.monotonic,
) -> T:
    """Call ``attempt`` until it succeeds, waiting :func:`backoff` delays between tries.

    The loop is bounded by ``give_up_after`` seconds (an attempt is not started
    if its delay would end past it) and cancellable at any time (cancel the task
    awaiting it; the attempt in flight is cancelled with it).

    Args:
        attempt: one try; returns the result or raises.
        on_attempt: told of each attempt (``trying``), each failure (``waiting``), the
            success (``back``) and the end (``gave_up``).
        rng: draws the jitter; default ``random.Random(0)``.
        give_up_after: seconds after which no new attempt starts.
        retry: whether a failure is worth another try (default: a ``JoinError`` whose
            code is a transport failure, or ``OSError``/``TimeoutError``).
        sleep / clock: injected by tests.

    Returns:
        What the successful attempt returned.

    Raises:
        GaveUp: time ran out, or ``retry`` said a failure is final.
        asyncio.CancelledError: cancelled.
    """
    delays = backoff(rng or random.Random(0))
    keep_trying = retry or _worth_retrying
    start = clock()
    number = 0

    def report(
        state: Literal["trying", "waiting", "back", "gave_up"],
        next_in: float | None = None,
        error: str = "",
    ) -> None:
        if on_attempt is not None:
            on_attempt(Attempt(state, number, clock() - start, next_in, error))

    while True:
        number += 1
        report("trying")
        try:
            result = await attempt()
        except Exception as exc:  # classified by ``retry`` just below
            error = getattr(exc, "message", None) or str(exc) or type(exc).__name__
            code = getattr(exc, "code", "unreachable")
            delay = next(delays)
            if not keep_trying(exc) or clock() - start + delay > give_up_after:
                report("gave_up", error=error)
                final = code if isinstance(code, str) else "unreachable"
                raise GaveUp(number, error, final) from exc
            report("waiting", next_in=delay, error=error)
            await sleep(delay)
            continue
        report("back")
        return result


def _worth_retrying(exc: Exception) -> bool:
    if isinstance(exc, JoinError):
        return exc.code in TRANSPORT_FAILURES
    return isinstance(exc, OSError | TimeoutError)


@dataclass(frozen=True)
class TableTarget:
    """Where a lost table was: what :func:`reconnect_table` tries.

    Attributes:
        hosts: addresses that worked or were advertised, best first.
        port: TCP port.
        table: the table's name, to find it again with zeroconf (``None``: by address only).
    """

    hosts: tuple[str, ...]
    port: int
    table: str | None = None


def _candidates(target: TableTarget, browser: Browser | None) -> tuple[list[str], int]:
    """Addresses to try now: the table's current advert first (if it is listed), then the
    known ones; and the port (the advert's, else the known one)."""
    hosts, port = list(target.hosts), target.port
    if browser is not None and target.table is not None:
        for ad in browser.tables.values():
            if ad.name == target.table:
                hosts = [*ad.addresses, *hosts]
                port = ad.port
                break
    return list(dict.fromkeys(hosts)), port


async def reconnect_table(
    target: TableTarget,
    *,
    browser: Browser | None = None,
    on_attempt: Callable[[Attempt], None] | None = None,
    rng: random.Random | None = None,
    give_up_after: float = GIVE_UP_AFTER,
    attempt_timeout: float = ATTEMPT_TIMEOUT,
    **details: Unpack[JoinDetails],
) -> Dialled:
    """Rejoin a lost table with the seat's token, trying until it is back (see :func:`reconnect`).

    Each attempt dials (:func:`net.dial.dial`) the addresses zeroconf now lists
    for a table named ``target.table`` (given a started ``browser``), then the
    known ones. A refusal by the table (e.g. ``bad_token``: the seat is gone)
    ends the loop.

    Args:
        target: the known addresses, port and table name.
        details: who joins (:class:`net.client.JoinDetails`; its ``token`` reclaims the seat).
        browser: a started browser of the game's tables, or ``None``.
        on_attempt: see :func:`reconnect`.
        rng: draws the jitter.
        give_up_after: seconds of trying.
        attempt_timeout: seconds per TCP connect and welcome.

    Returns:
        The welcomed connection and the address that worked.

    Raises:
        GaveUp: the table did not come back in time, or refused us.
        asyncio.CancelledError: cancelled.
    """

    async def attempt() -> Dialled:
        hosts, port = _candidates(target, browser)
        return await dial(hosts, port, timeout=attempt_timeout, **details)

    return await reconnect(
        attempt, on_attempt=on_attempt, rng=rng, give_up_after=give_up_after
    )


def describe(attempt: Attempt) -> str:
    """The plain line for an attempt report, e.g.
    ``"Host lost — reconnecting… (attempt 3, next in 2.1 s)"``."""
    if attempt.state == "trying":
        return f"Host lost — reconnecting… (attempt {attempt.number})"
    if attempt.state == "waiting":
        return (
            f"Host lost — reconnecting… (attempt {attempt.number} failed, "
            f"next in {attempt.next_in or 0:.1f} s)"
        )
    if attempt.state == "back":
        return f"Reconnected after {attempt.elapsed:.2f} s (attempt {attempt.number})."
    return f"Gave up reconnecting after {attempt.number} attempts: {attempt.error}"


def known_hosts(*groups: Sequence[str]) -> tuple[str, ...]:
    """Addresses from several sources, once each, in order (e.g. the one that worked, then
    the advertised ones)."""
    return tuple(dict.fromkeys(h for group in groups for h in group))
