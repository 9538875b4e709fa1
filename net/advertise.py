"""Keep a table server's zeroconf record in step with the table (docs/ARCHITECTURE.md "Discovery").

:class:`ServerAdvertiser` turns a :class:`net.server.TableSummary` into a
:class:`net.discovery.TableAd`, registers it, re-announces it whenever
:meth:`ServerAdvertiser.changed` is called (wire it to the server's
``on_change`` hook: seats taken, lobby/playing/over), and unregisters it
(goodbye packets) on :meth:`ServerAdvertiser.close`.

Usage::

    adv = ServerAdvertiser(interface="192.168.1.20")
    server.on_change = adv.changed
    await server.open()
    await adv.start(server.summary())
    ...
    await server.close()
    await adv.close()
"""

from __future__ import annotations

import asyncio
import logging

from net.discovery import Advertiser, TableAd
from net.server import TableSummary

log = logging.getLogger(__name__)


def ad_for(summary: TableSummary, address: str = "") -> TableAd:
    """The advertisement of a table from its public summary.

    Args:
        summary: ``TableServer.summary()``; its ``port`` must be the real one.
        address: shown address (the advertiser fills in its own; ``""`` is fine).
    """
    return TableAd(
        name=summary.name,
        address=address,
        port=summary.port,
        protocol=summary.protocol,
        app=summary.app_version,
        game=summary.game,
        taken=summary.taken,
        seats=summary.seats,
        state=summary.phase,
        spectators=summary.spectators,
        code=summary.code_required,
    )


class ServerAdvertiser:
    """Advertises one table and keeps its TXT record up to date.

    Args:
        interface: IPv4 address of the interface to advertise on, or ``None``
            for every non-loopback interface.

    Updates are coalesced: a burst of changes sends the latest state once
    the previous announcement is done. Nothing here raises into the server:
    a failed update is logged, and the next change tries again.
    """

    def __init__(self, interface: str | None = None) -> None:
        self._interface = interface
        self._advertiser: Advertiser | None = None
        self._pending: TableSummary | None = None
        self._task: asyncio.Task[None] | None = None
        self._closed = False
        self.updates = 0
        """Announcements sent after the first (for tests and logs)."""

    async def start(self, summary: TableSummary) -> None:
        """Register the table.

        Raises:
            OSError: no usable interface (e.g. ``interface`` is not an address here).
        """
        advertiser = Advertiser(ad_for(summary), self._interface)
        await advertiser.start()
        self._advertiser = advertiser
        if self._pending is not None:  # changed() before start() finished
            self._schedule()

    def changed(self, summary: TableSummary) -> None:
        """Note a new state; it is announced soon. Synchronous, for ``on_change``."""
        if self._closed:
            return
        self._pending = summary
        if self._advertiser is not None:
            self._schedule()

    def _schedule(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(
                self._announce(), name="table advert"
            )

    async def _announce(self) -> None:
        while self._pending is not None and self._advertiser is not None:
            summary, self._pending = self._pending, None
            try:
                await self._advertiser.update(
                    taken=summary.taken,
                    seats=summary.seats,
                    state=summary.phase,
                    spectators=summary.spectators,
                    code=summary.code_required,
                )
                self.updates += 1
            except Exception:
                log.exception("Could not update the table's advertisement.")

    async def close(self) -> None:
        """Finish a pending announcement, then unregister (goodbye) and close. Idempotent."""
        self._closed = True
        task, self._task = self._task, None
        if task is not None:
            _done, pending = await asyncio.wait({task}, timeout=2.0)
            for stuck in pending:
                stuck.cancel()
        advertiser, self._advertiser = self._advertiser, None
        if advertiser is not None:
            try:
                await advertiser.close()
            except Exception:
                log.exception("Could not unregister the table's advertisement.")
