"""A lobby that checks what zeroconf says: tables that stop answering are marked, then dropped.

Zeroconf keeps a record until its TTL runs out (75 minutes for the TXT record):
a table whose process was killed, or whose machine left the network, stays
listed. :class:`LiveBrowser` wraps :class:`net.discovery.Browser` and probes
every listed table every :data:`PROBE_INTERVAL` seconds: a TCP connect, then a
``hello`` with protocol 0, which every table answers at once with a
``version_mismatch`` error without seating anyone (any frame back counts as
alive). Each table has a state:

* ``"live"``: it answers;
* ``"not_answering"``: :data:`MISSES` probes in a row failed (within about
  :data:`MISSES` x :data:`PROBE_INTERVAL` seconds of the crash);
* ``"gone"``: it said goodbye, or has not answered for :data:`DROP_AFTER`
  seconds; it is removed from :attr:`LiveBrowser.tables` (reported once);
* ``"back"``: it answers again after being not answering or gone (a resumed
  table: same name); it turns ``"live"`` at a good probe :data:`PROBE_INTERVAL`
  seconds later.

Usage::

    live = LiveBrowser("poissonnier", on_change=lambda name, t: print(name, t.state))
    await live.start()
    ...
    await live.close()
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Final, Literal

from net.connection import FramedConnection
from net.dial import race_streams
from net.discovery import Browser, TableAd
from net.frames import SERVER_LIMITS
from net.messages import Hello

PROBE_INTERVAL: Final = 1.5
"""Seconds between two probes of one table."""
PROBE_TIMEOUT: Final = 1.5
"""Seconds a probe (connect and first answer) may take."""
MISSES: Final = 2
"""Failed probes in a row after which a table is shown as not answering."""
DROP_AFTER: Final = 10.0
"""Seconds without an answer after which a table is dropped from the list."""

State = Literal["live", "not_answering", "gone", "back"]
#: Probes one advertised table; True if it answered. Injected by tests.
Probe = Callable[[TableAd], Awaitable[bool]]


@dataclass(frozen=True)
class LiveTable:
    """A listed table and what the probes say of it.

    Attributes:
        ad: the table's latest advertisement.
        state: ``"live"``, ``"not_answering"``, ``"gone"`` or ``"back"`` (see the module).
        since: clock time (``time.monotonic()``) the state began.
        last_answer: clock time of the last good probe (or of the sighting, at first).
        misses: failed probes in a row.
    """

    ad: TableAd
    state: State
    since: float
    last_answer: float
    misses: int = 0

    def silent_for(self, now: float) -> float:
        """Seconds since the table last answered."""
        return max(0.0, now - self.last_answer)


async def probe_table(ad: TableAd, timeout: float = PROBE_TIMEOUT) -> bool:
    """Whether the table at ``ad`` answers: a TCP connect to any of its addresses, then a
    ``hello`` it must answer (with protocol 0, refused without seating anyone).

    Never raises (but for cancellation): any failure is ``False``.
    """
    try:
        async with asyncio.timeout(timeout):
            _host, (reader, writer) = await race_streams(ad.addresses, ad.port, timeout=timeout)
            conn = FramedConnection(reader, writer, limits=SERVER_LIMITS)
            try:
                conn.send(Hello(0, "probe", ad.game or "probe", "probe", "spectator").to_wire())
                await conn.recv()
            finally:
                conn.abort("probe done")
                await conn.wait_closed(0.5)
    except Exception:  # unreachable, timed out, closed, garbled: not answering
        return False
    return True


class LiveBrowser:
    """Zeroconf's tables of one game, each checked by probes (see the module).

    Args:
        game: game name.
        on_change: called in the event loop with ``(instance name, table)`` whenever a
            table appears, changes its advert, or changes state (``table.state``
            ``"gone"`` once, as it is removed).
        interface: IPv4 address to browse on, or ``None`` for all.
        probe: checks one table (default :func:`probe_table`).
        interval / misses / drop_after: see :data:`PROBE_INTERVAL`, :data:`MISSES`,
            :data:`DROP_AFTER`.
        clock: monotonic clock in seconds.
    """

    def __init__(
        self,
        game: str,
        on_change: Callable[[str, LiveTable], None] | None = None,
        interface: str | None = None,
        *,
        probe: Probe | None = None,
        interval: float = PROBE_INTERVAL,
        misses: int = MISSES,
        drop_after: float = DROP_AFTER,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.browser = Browser(game, self._heard, interface)
        """The zeroconf browser underneath (started and closed with this one)."""
        self._on_change = on_change
        self._probe = probe or probe_table
        self._interval = interval
        self._misses = misses
        self._drop_after = drop_after
        self._clock = clock
        self.tables: dict[str, LiveTable] = {}
        """Tables listed now (not gone), by instance name."""
        self._gone: dict[str, LiveTable] = {}  # dropped ones, to say "back" if they return
        self._prober: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Start browsing and probing.

        Raises:
            OSError: no usable network interface.
        """
        await self.browser.start()
        self._prober = asyncio.create_task(self._probe_loop(), name="lobby probes")

    async def close(self) -> None:
        """Stop probing and browsing."""
        if self._prober is not None:
            self._prober.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._prober
            self._prober = None
        await self.browser.close()

    def _set(self, name: str, table: LiveTable) -> None:
        if table.state == "gone":
            self.tables.pop(name, None)
            self._gone[name] = table
        else:
            self.tables[name] = table
            self._gone.pop(name, None)
        if self._on_change is not None:
            self._on_change(name, table)

    def _heard(self, name: str, ad: TableAd | None) -> None:
        """Zeroconf's news: a new or changed advert, or a goodbye."""
        now = self._clock()
        old = self.tables.get(name)
        if ad is None:
            if old is not None:
                self._set(name, replace(old, state="gone", since=now))
            return
        if old is not None:
            self._set(name, replace(old, ad=ad))
            return
        # Seen again after it was dropped (a resumed table): "back", and probed at
        # once, so a stale record turns "not answering" again soon.
        self._set(name, LiveTable(ad, "back" if name in self._gone else "live", now, now))

    async def _probe_loop(self) -> None:
        while True:
            await asyncio.sleep(self._interval)
            # Listed tables, and dropped ones zeroconf still remembers (a resumed table
            # may announce a record identical to the one in its cache: no news).
            names = [*self.tables, *(n for n in self._gone if n in self.browser.tables)]
            if names:
                await asyncio.gather(*(self._check(n) for n in names))

    async def _check(self, name: str) -> None:
        """Probe one table and move its state on."""
        table = self.tables.get(name) or self._gone.get(name)
        if table is None:
            return
        ok = await self._probe(table.ad)
        now = self._clock()
        table = self.tables.get(name) or self._gone.get(name)
        if table is None:
            return
        if ok:
            if table.state in ("not_answering", "gone"):
                self._set(name, replace(table, state="back", since=now, last_answer=now, misses=0))
            elif table.state == "back" and now - table.since >= self._interval:
                self._set(name, replace(table, state="live", since=now, last_answer=now))
            else:
                self.tables[name] = replace(table, last_answer=now, misses=0)
            return
        if table.state == "gone":
            return
        misses = table.misses + 1
        if table.silent_for(now) >= self._drop_after:
            self._set(name, replace(table, state="gone", since=now, misses=misses))
        elif misses >= self._misses and table.state != "not_answering":
            self._set(name, replace(table, state="not_answering", since=now, misses=misses))
        else:
            self.tables[name] = replace(table, misses=misses)
