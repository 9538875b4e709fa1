"""Joining a table that has several addresses: try them all, happy-eyeballs style.

A host on a real laptop has several addresses (Wi-Fi, a Docker bridge, a VPN,
IPv6...) and advertises them all (:func:`net.discovery.host_addresses`); some
are unreachable from a friend's machine, and a connect to those may hang for
the whole TCP timeout. :func:`dial` starts a TCP connect to the first address,
then to the next one every :data:`STAGGER` seconds (or at once when an attempt
fails), like RFC 8305 "Happy Eyeballs"; the first stream that opens is kept and
the other attempts are cancelled. Only that stream says ``hello`` (one hello
at a time, so a seat token is never presented twice, which would make the table
replace one connection by the other). If the table behind it does not welcome
us (silent, closed, nonsense), the next addresses are raced the same way. A
refusal from a table (``table_full``, ``bad_code``...) is its answer and ends the
dial. The address that worked comes back in :class:`Dialled`, for the caller to
save with the seat token.

Usage::

    dialled = await dial(ad.addresses, ad.port, name="Ana", app_version=V, game="poissonnier")
    client, where = dialled.client, dialled.host
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Final, Unpack

from net.client import CONNECT_TIMEOUT, IDLE_TIMEOUT, JoinDetails, JoinError, TableClient
from net.connection import open_stream
from net.wording import worded

STAGGER: Final = 0.25
"""Seconds between the starts of two connection attempts (RFC 8305 suggests 0.25)."""

HELLO_TIMEOUT: Final = 3.0
"""Seconds a stream may take to be welcomed while other addresses are left to try."""

TRANSPORT_FAILURES: Final = frozenset({"unreachable", "timeout", "closed", "bad_reply"})
"""``JoinError`` codes that say nothing about the table itself: another address may work."""

Streams = tuple[asyncio.StreamReader, asyncio.StreamWriter]
#: Opens a TCP stream to ``(host, port)`` (:func:`net.connection.open_stream` by default; tests
#: inject a slow one).
Opener = Callable[[str, int], Awaitable[Streams]]


def _format(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


@dataclass
class Dialled:
    """A table joined by :func:`dial`.

    Attributes:
        client: the welcomed connection.
        host: the address that worked (save it with the seat token).
        port: the table's port.
        failed: ``(host, why)`` for each address that was tried and failed, in order.
    """

    client: TableClient
    host: str
    port: int
    failed: list[tuple[str, str]] = field(default_factory=list)

    @property
    def address(self) -> str:
        """``host:port``, brackets around an IPv6 host."""
        return _format(self.host, self.port)


async def _default_open(host: str, port: int) -> Streams:
    return await open_stream(host, port)


async def race_streams(
    hosts: Sequence[str],
    port: int,
    *,
    stagger: float = STAGGER,
    timeout: float = CONNECT_TIMEOUT,
    opener: Opener | None = None,
    failed: list[tuple[str, str]] | None = None,
) -> tuple[str, Streams]:
    """Open a TCP stream to the first of ``hosts`` that answers (happy eyeballs).

    Attempt *n* starts :data:`STAGGER` seconds after attempt *n-1*, or as soon as
    every started attempt has failed. The first open stream wins; the other
    attempts are cancelled and any stream they opened meanwhile is closed.

    Args:
        hosts: addresses in order of preference (at least one).
        port: TCP port.
        stagger: seconds between attempt starts.
        timeout: seconds for each attempt.
        opener: opens one stream (default :func:`net.connection.open_stream`).
        failed: ``(host, why)`` is appended here for each failed attempt.

    Returns:
        ``(host, (reader, writer))`` of the winner.

    Raises:
        JoinError: ``unreachable``: no address could be reached (all named).
        ValueError: ``hosts`` is empty.
    """
    if not hosts:
        raise ValueError("no address to dial")
    open_one = opener or _default_open
    failures = failed if failed is not None else []

    async def attempt(host: str) -> Streams:
        async with asyncio.timeout(timeout):
            return await open_one(host, port)

    pending: dict[asyncio.Task[Streams], str] = {}
    queue = list(hosts)
    winner: tuple[str, Streams] | None = None
    try:
        while winner is None and (queue or pending):
            if queue:
                host = queue.pop(0)
                pending[asyncio.ensure_future(attempt(host))] = host
            wait = stagger if queue else None
            done, _ = await asyncio.wait(
                pending, timeout=wait, return_when=asyncio.FIRST_COMPLETED
            )
            for task in done:
                host = pending.pop(task)
                exc = task.exception()
                if exc is None:
                    if winner is None:
                        winner = (host, task.result())
                    else:  # two opened at once: keep the first, close the other
                        task.result()[1].close()
                else:
                    failures.append((host, _why(exc)))
    finally:
        for task in pending:
            task.cancel()
        for task, _host in list(pending.items()):
            with contextlib.suppress(BaseException):
                streams = await task
                streams[1].close()
    if winner is None:
        if len(hosts) == 1:
            raise JoinError("unreachable", *worded("unreachable", address=_format(hosts[0], port)))
        tried = ", ".join(_format(h, port) for h in hosts)
        raise JoinError("unreachable", *worded("unreachable_any", addresses=tried))
    return winner


def _why(exc: BaseException) -> str:
    if isinstance(exc, TimeoutError):
        return "no answer"
    return str(exc) or type(exc).__name__


async def dial(
    hosts: Sequence[str],
    port: int,
    *,
    stagger: float = STAGGER,
    timeout: float = CONNECT_TIMEOUT,
    idle_timeout: float = IDLE_TIMEOUT,
    opener: Opener | None = None,
    **details: Unpack[JoinDetails],
) -> Dialled:
    """Join the table at ``port`` on whichever of ``hosts`` answers first.

    Races TCP connects (:func:`race_streams`), says hello on the winning
    stream only, and if that table does not welcome us for a reason that may
    be the address's fault (:data:`TRANSPORT_FAILURES`), races the remaining
    addresses. While other addresses remain, a hello waits at most
    :data:`HELLO_TIMEOUT` seconds.

    Args:
        hosts: the table's addresses, best first (e.g. ``TableAd.addresses``); duplicates
            are tried once.
        port: TCP port.
        idle_timeout: as :meth:`net.client.TableClient.connect`.
        details: who joins (:class:`net.client.JoinDetails`: ``name``, ``app_version``,
            ``game``, optionally ``role``, ``token``, ``code``).
        stagger: seconds between attempt starts.
        timeout: seconds for each TCP connect, and for the last hello.
        opener: opens one TCP stream (tests inject a slow one).

    Returns:
        The welcomed client, the address that worked, and what failed before it.

    Raises:
        JoinError: the table refused us (its code), or no address worked
            (``unreachable``, or the last address's ``timeout``/``closed``/``bad_reply``).
        ValueError: ``hosts`` is empty.
    """
    left = list(dict.fromkeys(hosts))
    if not left:
        raise ValueError("no address to dial")
    failed: list[tuple[str, str]] = []
    last: JoinError | None = None
    while left:
        host, (reader, writer) = await race_streams(
            left, port, stagger=stagger, timeout=timeout, opener=opener, failed=failed
        )
        left.remove(host)
        try:
            client = await TableClient.handshake(
                reader, writer, _format(host, port), idle_timeout=idle_timeout,
                timeout=min(timeout, HELLO_TIMEOUT) if left else timeout, **details,
            )  # fmt: skip
        except JoinError as exc:
            if exc.code not in TRANSPORT_FAILURES:
                raise
            failed.append((host, exc.message))
            last = exc
            continue
        return Dialled(client, host, port, failed)
    assert last is not None  # the loop ran at least once: hosts was not empty
    raise last
