"""Sharing the event loop's time among many tables' bots: bounded work per loop pass.

With hundreds of bot tables on one event loop (docs/ARCHITECTURE.md "Many
tables"), bots' answers come back from their thinker in bursts: 150 tables'
answers can be ready in the same pass of the loop. Applied as they come, each
answer (the move, the bookkeeping, the next bot's view and legal actions) is a
fraction of a millisecond, but 150 of them make one pass of 30–60 ms, and
every timer and connection of the process (a person's keypress, a ping) waits
behind them.

A :class:`Pacer` is a fair queue in front of that work. A bot's driver takes
a slot (``async with pacer.slot(): ...``) around each synchronous piece of
work; slots are granted while the work done in the current *slice* stays
under ``budget`` seconds, and then in first-come order, a few per pass, so
that the loop's other callbacks (timers, reads) run between slices. A slice
is the time between two of the pacer's ticks; a tick is a callback it
schedules with ``call_soon`` whenever it granted a slot, so it runs once per
pass of the loop while there is work. A tick calls as many waiters as its
running estimate of a slot's cost says fit in the budget; a called waiter
that finds the slice already spent (the estimate was short) goes back to the
head of the line for the next tick.

What it guarantees (for work that does not await inside its slot):

* FIFO: a driver that had to wait is granted before any later arrival.
* Bounded slices: the slots of one slice cost at most ``budget`` plus one slot
  (the one that crossed it), so a pass of the loop holds at most two slices
  of paced work (the end of one, the start of the next): a timer or read
  waits for about that, not for every table's answer.
* Progress: every slice grants at least one slot, so nothing starves.

It never changes *what* is done or in which order a table sees it; only when.
Nothing is paced while the loop has time to spare: a slot is granted at once
when nobody waits and the slice is under budget.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections import deque
from collections.abc import Callable
from types import TracebackType

BUDGET = 0.004
"""Seconds of paced work per slice by default: the longest a pass of the loop
should spend on bots before timers and reads get their turn (about two slices
fit in one pass, see the module docstring)."""


class Pacer:
    """A fair queue granting slots of loop time, ``budget`` seconds per slice.

    Args:
        budget: Seconds of work per slice (> 0).
        clock: Seconds, monotonic (``time.perf_counter`` by default; a test
            may pass a fake one it advances inside the slots).

    Use from one event loop. Counters (:attr:`granted`, :attr:`queued`,
    :attr:`ticks`) are for tests and measurements.

    Raises:
        ValueError: ``budget`` not above 0.
    """

    def __init__(
        self, budget: float = BUDGET, *, clock: Callable[[], float] = time.perf_counter
    ) -> None:
        if not budget > 0:
            raise ValueError(f"a pacer's budget must be above 0 seconds, not {budget}")
        self._budget = budget
        self._clock = clock
        self._slice = 0  # which slice we are in: +1 per tick
        self._spent = 0.0  # seconds of slots in this slice
        self._cost = budget / 8  # running mean of one slot's seconds
        self._waiters: deque[asyncio.Future[None]] = deque()
        self._returned: deque[asyncio.Future[None]] = deque()  # called too many: next first
        self._called = 0  # waiters called by the last tick that have not run yet
        self._ran = False  # a slot was granted in this slice
        self._tick: asyncio.Handle | None = None
        self.granted = 0
        """Slots granted so far."""
        self.queued = 0
        """Slots that had to wait for a later slice."""
        self.ticks = 0
        """Slices begun so far."""

    @property
    def waiting(self) -> int:
        """Slots waiting now (including cancelled ones not yet skipped)."""
        return len(self._waiters) + len(self._returned)

    def slot(self) -> _Slot:
        """An async context manager: wait for the turn, then measure the work inside.

        The work inside should not await (its time would be counted as work);
        it may, without harm to anyone else: the pacer only counts.
        """
        return _Slot(self)

    async def _turn(self) -> None:
        """Return once this slot may run: at once if nobody waits and the slice has room."""
        if not (self._waiters or self._returned or self._called) and self._spent < self._budget:
            self._granted()
            return
        self.queued += 1
        line = self._waiters
        while True:
            waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            line.append(waiter)
            self._ensure_tick()
            try:
                await waiter
            except asyncio.CancelledError:
                if waiter.cancelled() or not waiter.done():
                    waiter.cancel()  # still in line: the tick skips it
                else:
                    self._called -= 1  # called, then cancelled before it ran
                raise
            self._called -= 1
            if self._spent < self._budget or not self._ran:  # room, or first of its slice
                self._granted()
                return
            # Called, but the slice is already spent (the estimate was short): first in
            # line at the next tick, ahead of everyone who came after.
            line = self._returned

    def _granted(self) -> None:
        self.granted += 1
        self._ran = True
        self._ensure_tick()

    def _ensure_tick(self) -> None:
        if self._tick is None:
            self._tick = asyncio.get_running_loop().call_soon(self._on_tick)

    def _on_tick(self) -> None:
        """A new slice: call the first waiters, as many as the budget should hold (≥ 1)."""
        self._tick = None
        self.ticks += 1
        self._slice += 1
        self._spent = 0.0
        self._ran = False
        if self._returned:
            self._waiters.extendleft(reversed(self._returned))
            self._returned.clear()
        room = max(1, int(self._budget / max(self._cost, 1e-6)))
        called = 0
        while self._waiters and called < room:
            waiter = self._waiters.popleft()
            if waiter.done():  # cancelled while it waited
                continue
            waiter.set_result(None)  # it runs in the next pass, in this slice
            called += 1
        self._called += called
        if called or self._waiters:
            # After the wake-ups just scheduled: they run first in the next pass.
            self._ensure_tick()

    def _done(self, began_slice: int, seconds: float) -> None:
        """A slot's work took ``seconds``; it counts in its slice if that is still this one."""
        self._cost += (seconds - self._cost) / 8
        if began_slice == self._slice:
            self._spent += seconds


class _Slot:
    """``async with pacer.slot():`` — see :meth:`Pacer.slot`."""

    __slots__ = ("_pacer", "_slice", "_start")

    def __init__(self, pacer: Pacer) -> None:
        self._pacer = pacer
        self._slice = 0
        self._start = 0.0

    async def __aenter__(self) -> None:
        pacer = self._pacer
        await pacer._turn()
        self._slice = pacer._slice
        self._start = pacer._clock()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        pacer = self._pacer
        pacer._done(self._slice, pacer._clock() - self._start)


_PACERS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Pacer] = (
    weakref.WeakKeyDictionary()
)


def loop_pacer() -> Pacer:
    """The running loop's own pacer (made on first use, with :data:`BUDGET`).

    Every table of a process shares it, so fairness holds across tables.

    Raises:
        RuntimeError: no running event loop.
    """
    loop = asyncio.get_running_loop()
    pacer = _PACERS.get(loop)
    if pacer is None:
        pacer = _PACERS[loop] = Pacer()
    return pacer
