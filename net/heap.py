"""Keeping the garbage collector's pauses short in a process that serves many tables.

CPython's cyclic collector walks every container object of a generation when
it collects it; a full (generation 2) collection walks them all. A process
serving hundreds of tables holds a large, long-lived heap (the games, their
logs, the servers), so each full collection stalls the event loop for as
long as that walk takes (55–211 ms measured with 200 four-bot tables on a
busy 2-core machine, docs/measurements/bench-server.txt), and every table's
timers fire that late.

:func:`settle_heap`, called once the long-lived objects are built (the
tables open, before play), collects once and then moves every surviving
object to the collector's permanent generation (:func:`gc.freeze`): later
collections walk only what was made after it. Nothing else changes: objects
still go as soon as nothing refers to them, and cycles made afterwards are
still collected. A frozen object that later becomes part of a garbage cycle
stays until :func:`gc.unfreeze`, which is why this is for a process's
long-lived setup, not something to call again and again.

It also makes full collections rarer (:data:`FULL_EVERY`): while tables play,
what grows is the games' logs, which live as long as their games, and the
full collections found no garbage at all (0 objects in each of the 13–14
of a 15-s run with 200 tables, each walking 10–36 ms of CPU as the heap grew);
the young generations, where a table's short-lived cycles die, are
collected as often as before.
"""

from __future__ import annotations

import gc

FULL_EVERY = 100
"""Generation-1 collections between two full ones once the heap is settled (at
least: a higher threshold already set is kept); CPython's default is 10."""


def settle_heap() -> int:
    """Collect, keep everything alive now out of later collections' walks, and make
    full collections rarer (:data:`FULL_EVERY`). Process-wide.

    Returns:
        How many objects the collector now leaves out (:func:`gc.get_freeze_count`).
    """
    gc.collect()
    gc.freeze()
    young, middle, full = gc.get_threshold()
    gc.set_threshold(young, middle, max(full, FULL_EVERY))
    return gc.get_freeze_count()
