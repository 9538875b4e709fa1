"""Where bots think: a worker thread (the default), or worker processes for many tables.

A bot's ``act`` is pure Python: in a thread it holds the interpreter lock
while it thinks, so the event loop serving every table of the process waits
for its turn at the lock. With a few tables that is unnoticeable; with
hundreds of bot tables on one loop it starves the loop (docs/ARCHITECTURE.md
"Many tables"). :class:`ProcessThinker` moves the thinking to worker
processes, where it only costs the loop the copy of a view and the legal
actions there and of the answer back.

A bot keeps its memory between moves: each bot lives in one worker process.
The first time it is asked it is copied there (pickled) and from then on
only its seat's view and legal actions travel; the copy in the server
process is not asked again (it stays as it was when it left). A bot that
cannot be pickled thinks in a thread of the server process, as by default.
Moves are decided by the same bot, in the same order, as in a thread: a
seeded bot plays the same game either way.
"""

from __future__ import annotations

import asyncio
import logging
import os
import pickle
from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:  # worker processes are for many tables: a solo table never imports them
    from concurrent.futures import ProcessPoolExecutor

from net.game import Agent, Wire

log = logging.getLogger(__name__)


class Thinker(Protocol):
    """Runs bots' decisions off the event loop (see :class:`net.turns.TurnKeeper`)."""

    async def think(self, agent: Agent, view: Wire, legal: list[Wire]) -> Wire | None:
        """``agent.act(view, legal)`` without blocking the event loop.

        Raises:
            Exception: whatever ``act`` raised.
        """
        ...

    def forget(self, agents: Iterable[Agent]) -> None:
        """These bots will not be asked again (their table closed): free what they hold."""
        ...


class ThreadThinker:
    """Each decision in a worker thread of this process (the default)."""

    async def think(self, agent: Agent, view: Wire, legal: list[Wire]) -> Wire | None:
        """See :meth:`Thinker.think`."""
        return await asyncio.to_thread(agent.act, view, legal)

    def forget(self, agents: Iterable[Agent]) -> None:
        """Nothing is held."""


_HOMED: dict[int, Agent] = {}
"""In a worker process: the bots living there, by the key the server gave them."""


def _act(key: int, shipped: bytes | None, view: Wire, legal: list[Wire]) -> Wire | None:
    """In a worker process: let bot ``key`` (moving in, if ``shipped``) decide."""
    if shipped is not None:
        _HOMED[key] = pickle.loads(shipped)
    return _HOMED[key].act(view, legal)


def _forget(keys: list[int]) -> None:
    """In a worker process: drop these bots."""
    for key in keys:
        _HOMED.pop(key, None)


class ProcessThinker:
    """Bots think in worker processes, each bot always in the same one.

    Args:
        workers: Worker processes; default one fewer than the machine's CPUs
            (at least one), leaving a core to the event loop.

    One thinker is meant to serve every table of a process; call
    :meth:`close` when the last table has closed. Use from one event loop.
    """

    def __init__(self, workers: int | None = None) -> None:
        count = workers if workers is not None else max(1, (os.cpu_count() or 2) - 1)
        if count < 1:
            raise ValueError(f"a process thinker needs at least one worker, not {count}")
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        context = multiprocessing.get_context("spawn")  # no fork of a threaded process
        # One single-process pool per worker: a bot's calls always reach its own process.
        self._pools: list[ProcessPoolExecutor] = [
            ProcessPoolExecutor(1, mp_context=context) for _ in range(count)
        ]
        self._homes: dict[int, tuple[Agent, int]] = {}  # id(agent) -> (agent, its pool)
        self._local: dict[int, Agent] = {}  # id(agent) -> an agent that cannot move
        self._next = 0
        self._broken = False
        self._closed = False

    async def think(self, agent: Agent, view: Wire, legal: list[Wire]) -> Wire | None:
        """See :meth:`Thinker.think`; in the bot's worker process when it can move there."""
        from concurrent.futures.process import BrokenProcessPool

        key = id(agent)
        home = self._homes.get(key)
        shipped: bytes | None = None
        if home is None and key not in self._local and not self._broken and not self._closed:
            try:
                shipped = pickle.dumps(agent)
            except Exception as exc:  # pickling raises many kinds (a lambda, a lock, ...)
                log.info("Bot %r cannot move to a worker process (%s); it thinks here.", agent, exc)
                self._local[key] = agent
            else:
                home = (agent, self._next % len(self._pools))
                self._next += 1
                self._homes[key] = home
        if home is None or self._broken or self._closed:
            return await asyncio.to_thread(agent.act, view, legal)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pools[home[1]], _act, key, shipped, view, legal)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): the bots it held lost their memory.
            # From now on every bot thinks here, from the copy it left with.
            log.error("A bot worker process died; bots think in this process from now on.")
            self._broken = True
            return await asyncio.to_thread(agent.act, view, legal)

    def forget(self, agents: Iterable[Agent]) -> None:
        """See :meth:`Thinker.forget`."""
        gone: dict[int, list[int]] = {}
        for agent in agents:
            key = id(agent)
            self._local.pop(key, None)
            home = self._homes.pop(key, None)
            if home is not None:
                gone.setdefault(home[1], []).append(key)
        if self._broken or self._closed:
            return
        for pool, keys in gone.items():
            self._pools[pool].submit(_forget, keys)

    def close(self) -> None:
        """Stop the worker processes (a decision under way is abandoned). Idempotent."""
        self._closed = True
        for pool in self._pools:
            pool.shutdown(wait=False, cancel_futures=True)
        self._homes.clear()
        self._local.clear()
